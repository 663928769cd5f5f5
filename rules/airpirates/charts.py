"""The two charts of the control cards the scan does not hold, rebuilt from the text
(docs/rulings.md, "Air Pirates: the impulse chart" and "Air Pirates: the Maneuver Chart").

**Impulse chart** (002 '1e' GAME CONTROL CARD, [4] THE CURRENT IMPULSE PHASE, '5b'):
six numbered impulses a turn, then the Change Phase; speed ``s`` (up to 6) has an arrow
in impulse ``k`` when ``round(k * s / 6)`` passes a whole hex (halves up), so a unit
moves ``s`` hexes a turn, one an impulse (5b1), spread evenly. Speeds above 6 move every
impulse. Impulse II has arrows in exactly columns 2, 5 and 6 (the example of 4b) and
speed 4 moves in impulse IV (the Spitfire's marking in 5d2.2's example).

**Maneuver Chart** (002 '5d2.2'): the maneuver number printed on the control card is a
line of the chart; the hexes to move are ``line x speed / 4`` rounded up, at least 1 (a
Spitfire Mk1, number 2, at speed 4: 2 hexes). The number after the "/" is the same
speed's entry on the card's damaged line (13b3.7), one line lower.
"""

from __future__ import annotations

IMPULSE_RULE = "002 '4b'"
CHART_RULE = "002 '5d2.2'"

IMPULSES = 6  # I..VI; the Change Phase follows (002 '3f5', [7])
TURNS = 8  # 002 3f: "Eight Turns per game"
ROMAN = ("I", "II", "III", "IV", "V", "VI")
TOP_SPEED = 10  # the highest dive speed a control card may print


def _hexes_after(impulse: int, speed: int) -> int:
    """Hexes moved by the end of ``impulse`` (0..6) at ``speed``: k*s/6, halves up."""
    s = min(speed, IMPULSES)
    return (2 * impulse * s + IMPULSES) // (2 * IMPULSES)


def moves(speed: int, impulse: int) -> bool:
    """Whether column ``speed`` has an arrow in ``impulse`` (1..6): 002 4b, 5b."""
    if speed < 1 or not 1 <= impulse <= IMPULSES:
        return False
    return _hexes_after(impulse, speed) > _hexes_after(impulse - 1, speed)


def impulse_chart() -> dict[int, tuple[int, ...]]:
    """The speeds with arrows in each impulse, as the Game Control Card shows them."""
    return {
        k: tuple(s for s in range(1, TOP_SPEED + 1) if moves(s, k)) for k in range(1, IMPULSES + 1)
    }


def hexes(line: int, speed: int) -> int:
    """The Maneuver Chart's entry before the "/": hexes to move to complete a maneuver of
    maneuver number ``line`` begun at ``speed`` (002 5d2.2)."""
    return max(1, -(-line * speed // 4))


def chart_cell(line: int, damaged_line: int, speed: int) -> str:
    """The cell as the card prints it: ``"2/3"``."""
    return f"{hexes(line, speed)}/{hexes(damaged_line, speed)}"

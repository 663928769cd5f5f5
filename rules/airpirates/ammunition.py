"""*Air Pirates* starting ammunition: 13a5's variable starting ammunition and 13a6's
hidden ammunition, each an option (``variable_ammunition``, ``hidden_ammunition``), and
the battle's view per side (``rules.tactical.view_for``, ``log_for``).

13a5: "During scenario set up, for each gun position, roll a die. On a 1 add two
ammunition factors. On a 2, add one factor. On a 3 through 6, no change. On a 7 or 8,
subtract one ammunition factor. On a 9 or 10, subtract two ammunition factors. If the
pilot, for the forward and OF guns, or the RG, for the rear guns ... is an ace, subtract
two; if experienced, subtract one from the die roll. When the crew is green, add two; if
inexperienced, add one to the die roll. No gun position should start the game with less
than one ammunition factor."

13a6: "Starting ammunition information is written down and kept hidden from opponents
until the end of the game."

Readings (docs/rulings.md, 'Air Pirates: starting ammunition'): a "gun position" is each
ammunition row of the control card (forward, oblique forward, rear), an "ammunition
factor" one box of it; a modified roll below 1 reads as 1, above 10 as 10; a row the card
leaves empty is not rolled for. Hidden: the boxes each unit started with and has left;
the boxes marked off are seen by all (every shot is).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.tactical import revealed

from . import bounce as bo
from .units import SIDES

if TYPE_CHECKING:
    from .state import AirPiratesBattle
    from .units import Unit

VARIABLE = "002 '13a5'"
HIDDEN = "002 '13a6'"
ROLLED = "variable starting ammunition"
HIDDEN_ROLL = "starting ammunition kept hidden"
# 13a5: the quality's modifier to the die roll
QUALITY_MODIFIER = {"ace": -2, "experienced": -1, "average": 0, "inexperienced": 1, "green": 2}
# (gun position, the card's ammunition row, its factor row, its boxes used, whose quality)
POSITIONS = (
    ("forward", "ammunition", "gun_factor", "ammunition_used", "quality"),
    ("oblique", "oblique_ammunition", "oblique_gun_factor", "oblique_ammunition_used", "quality"),
    ("rear", "rear_ammunition", "rear_guns", "rear_ammunition_used", "gunner_quality"),
)


def change_for(roll: int) -> int:
    """13a5: the boxes added (negative: taken away) on a modified roll."""
    roll = min(10, max(1, roll))
    return 2 if roll == 1 else 1 if roll == 2 else 0 if roll <= 6 else -1 if roll <= 8 else -2


def starting_ammunition(battle: AirPiratesBattle) -> None:
    """13a5 at set-up (option ``variable_ammunition``): one roll per gun position, the
    card's boxes changed accordingly, never below one; each roll in the log."""
    if "variable_ammunition" not in battle.scenario.options:
        return
    for unit in battle.units:
        for gun, row, factor, _used, whose in POSITIONS:
            if int(unit.card.get(row, 0)) < 1 or int(unit.card.get(factor, 0)) < 1:
                continue
            roll = battle.dice.d10(f"002 13a5 starting ammunition: unit {unit.id} {gun}")
            modifier = QUALITY_MODIFIER[getattr(unit, whose)]
            before = int(unit.card[row])
            unit.card[row] = max(1, before + change_for(roll + modifier))
            battle._record(
                ROLLED, VARIABLE, unit=unit.id, side=unit.side, gun=gun, roll=roll,
                modifier=modifier, card=before, boxes=unit.card[row],
            )  # fmt: skip


def hidden(battle: AirPiratesBattle) -> bool:
    """13a6 keeps starting ammunition hidden now (not once the battle is over, nor from
    one who sees everything: ``rules.tactical.revealed``)."""
    on = "hidden_ammunition" in battle.scenario.options
    return on and not battle.is_over() and not revealed(battle)


def ammunition_visible(
    battle: AirPiratesBattle, unit: Unit, side: int | None
) -> dict[str, dict[str, int]] | None:
    """``unit``'s ammunition by gun position ({"start", "used", "left"}) as ``side`` (None:
    a spectator) may see it now; None while 13a6 keeps it from that side."""
    if hidden(battle) and (side is None or SIDES[side] != unit.side):
        return None
    return {
        gun: {
            "start": int(unit.card.get(row, 0)),
            "used": int(getattr(unit, used)),
            "left": int(unit.card.get(row, 0)) - int(getattr(unit, used)),
        }
        for gun, row, _factor, used, _whose in POSITIONS
        if int(unit.card.get(row, 0)) > 0
    }


def log_for(battle: AirPiratesBattle, side: int | None) -> list[dict[str, Any]]:
    """The log as ``side`` may read it: under 13a6 the other side's 13a5 rolls blanked;
    under the bounce (9f) unseen enemies' altitude and speed blanked (``bounce.py``)."""
    log = bo.redact_log(battle, side)
    if not hidden(battle):
        return log
    mine = SIDES[side] if side is not None else None
    return [e if e.get("event") != ROLLED or e.get("side") == mine else _blanked(e) for e in log]


def _blanked(entry: dict[str, Any]) -> dict[str, Any]:
    """An enemy's 13a5 roll as a side reads it under 13a6: that a roll was made, not its
    die or boxes. Kept in place, so the log a seat has read keeps its positions when the
    game ends and everything is shown (the pages ask for entries since the last one read)."""
    kept = ("turn", "impulse", "phase", "unit", "side", "gun")
    return {**{k: entry[k] for k in kept if k in entry}, "event": HIDDEN_ROLL, "rule": HIDDEN}


def view(battle: AirPiratesBattle, side: int | None) -> dict[str, Any]:
    """What ``side`` may see of the air units now: each one's place, damage and, unless
    13a6 keeps it hidden, its ammunition."""
    hide = bo.hidden(battle, side)
    units = []
    for u in battle.units:
        altitude, speed = bo.piece_text(u, hide)
        units.append(
            {"id": u.id, "side": u.side, "name": u.name, "quality": u.quality,
             "hex": None if u.hex is None else list(u.hex), "facing": u.facing,
             "altitude": altitude, "speed": speed, "damage": dict(u.damage),
             "eliminated": u.eliminated, "ammunition": ammunition_visible(battle, u, side)}
        )  # fmt: skip
    return {
        "viewer": SIDES[side] if side is not None else "spectator",
        "hidden_ammunition": hidden(battle),
        "units": units,
    }

"""An *Air Pirates* log entry in words, for the report and the play page
(``rules.tactical.log_sentence``): what happened, its dice and the rule (002 section).
An event without words here gets the pages' generic sentence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .hexes import FACING_NAMES
from .pages import drawn_hex


def _at(h: Any) -> str:
    """A hex as the battle pages draw it (``pages.drawn_hex``: the gameboard turned, its
    column and row counted from the drawn map's top left), so a reader finds it there."""
    return str(tuple(drawn_hex(h)))


def _unit(uid: Any) -> str:
    return f"unit {uid}"


def _modifiers(values: dict[str, int] | None) -> str:
    if not values:
        return "no modifier"
    return ", ".join(f"{name} {value:+d}" for name, value in values.items())


def _fired(e: dict[str, Any]) -> str:
    rolls = e.get("rolls") or []
    dice = [r[2] for r in rolls[:2]]
    gun = "rear gun" if e.get("gun") == "rear" else "guns"
    if str(e.get("gun", "")).startswith("aimed_"):  # 002 20e
        gun = f"guns at the {str(e['gun']).removeprefix('aimed_')}"
    own, theirs = (e.get("numbers") or [None, None])[:2]
    hits = int(e.get("hits") or 0)
    where = f" ({', '.join(e.get('parts') or [])})" if hits else ""
    d = f"d10 {dice[0]} and {dice[1]}" if len(dice) == 2 else "d10s"
    return (
        f"{_unit(e['unit'])} fires its {gun} at {_unit(e['target'])}: {d}; attack "
        f"{_modifiers(e.get('attack'))}, defence {_modifiers(e.get('defence'))}; firing "
        f"numbers {own} against {theirs}: {hits} hit{'s' if hits != 1 else ''}{where}."
    )


def _bailout(e: dict[str, Any]) -> str:
    if e.get("roll") is None:
        return f"The pilot of {_unit(e['unit'])} cannot bail out (two crew hits)."
    total = e["roll"] + e["modifier"]
    done = "gets out" if e["outcome"] == "survived" else "does not get out"
    return (
        f"The pilot of {_unit(e['unit'])} bails out: d10 {e['roll']} {e['modifier']:+d} = "
        f"{total} against 5: {done}."
    )


def _changed(e: dict[str, Any]) -> str:
    alt, speed = e.get("altitude") or ["?", "?"], e.get("speed") or ["?", "?"]
    return (
        f"{_unit(e['unit'])} changes altitude {alt[0]} to {alt[1]} and speed {speed[0]} to "
        f"{speed[1]}."
    )


def _spotting(e: dict[str, Any]) -> str:
    rolls, numbers = e.get("rolls") or [], e.get("numbers") or []
    made = "a tally" if e["event"] == "tallied" else "not spotted"
    mods = e.get("modifiers")
    told = "hidden" if mods == "hidden" else _modifiers(mods)
    return (
        f"{_unit(e['unit'])} tries to spot {_unit(e['target'])}: d10 {rolls[0]} and {rolls[1]}; "
        f"spotting {told}; spotting numbers {numbers[0]} against {numbers[1]}: {made}."
    )


SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    "sun direction": lambda e: f"{e['side']} puts the sun to the {e['toward']}.",
    "tallied": _spotting,
    "not spotted": _spotting,
    "tally shared": lambda e: (
        f"{_unit(e['unit'])} records its wingman {_unit(e['wingman'])}'s tally on "
        f"{_unit(e['target'])}."
    ),
    "tallies lost": lambda e: (
        f"{_unit(e['unit'])} loses its tally on "
        + ", ".join(_unit(t) for t in e.get("targets") or [])
        + "."
    ),
    "tallies broken": lambda e: (
        f"{_unit(e['unit'])} breaks contact: no enemy keeps a tally on it, and it keeps none."
    ),
    "competitive die roll": lambda e: (
        "Competitive die roll: "
        + ", ".join(f"{r[0].rsplit(': ', 1)[-1]} {r[2]}" for r in e.get("rolls") or [])
        + f"; {e.get('side')} holds the sequence marker."
    ),
    "sequence marker passed": lambda e: f"The sequence marker is passed to {e.get('side')}.",
    "placed": lambda e: (
        f"{_unit(e['unit'])} is placed at {_at(e['hex'])} facing {FACING_NAMES[e['facing'] % 6]}."
    ),
    "marked": lambda e: (
        f"{_unit(e['unit'])} marks {str(e['maneuver']).replace('_', ' ')} (speed "
        f"{e.get('speed')}), to be completed at "
        f"{_at(e['hex'])}."
    ),
    "moved": lambda e: (
        f"{_unit(e['unit'])} moves {_at(e['from'])} to {_at(e['to'])}"
        + (f", completing its {e['completed']}." if e.get("completed") else ".")
    ),
    "fired": _fired,
    "held its fire": lambda e: f"{_unit(e['unit'])} holds its fire.",
    "fire started": lambda e: f"A fire starts in the {e['part']} of {_unit(e['unit'])}.",
    "fire put out": lambda e: (
        f"{_unit(e['unit'])} puts out its fire: d10 {e['roll']} {e['modifier']:+d}."
    ),
    "fire not put out": lambda e: (
        f"{_unit(e['unit'])} cannot put out its fire: d10 {e['roll']} {e['modifier']:+d}."
    ),
    "eliminated": lambda e: f"{_unit(e['unit'])} is eliminated.",
    "bail-out": _bailout,
    "changed altitude and speed": _changed,
    "change phase": lambda e: f"Turn {e['turn']}: the Change Phase.",
    "flak roll": lambda e: (  # the card game's flak before the battle (interception.py)
        f"Flak roll {e['roll_no']}: d10 {e['roll']} against AF {e['af']}: "
        + (
            f"{_unit(e['unit'])} is shot down by the flak."
            if e.get("unit") is not None
            else "a hit, with no attacker left to hit."
            if e.get("hit")
            else "a miss."
        )
    ),
}


def _gunnery(e: dict[str, Any]) -> str:
    hits = int(e.get("hits") or 0)
    where = f" ({', '.join(e.get('parts') or [])})" if hits else ""
    return (
        f"Defensive gunnery of {', '.join(_unit(b) for b in e.get('bombers') or [])} at "
        f"{_unit(e['target'])}: d{e['die']} {e['roll']}: {hits} hit{'s' if hits != 1 else ''}"
        f"{where}."
    )


def _hollywood(e: dict[str, Any]) -> str:
    what = {"broke up": "breaks up and crashes", "lost a level": "loses a level",
            "Hollywood maneuver held": "holds its altitude"}[e["event"]]  # fmt: skip
    crash = " and crashes" if e.get("crashed") and e["event"] == "lost a level" else ""
    return (
        f"{_unit(e['unit'])} tries the Hollywood maneuver: d10 {e['roll']} {e['modifier']:+d} "
        f"against {e['hits']} hits: it {what}{crash}."
    )


# 002 [20] (rules.airpirates.bombers)
SENTENCES.update({
    "defensive fire": _gunnery,
    "crippled": lambda e: (
        f"{_unit(e['unit'])} is crippled"
        + (": it jettisons its bomb load." if e.get("jettisoned") else ".")
    ),
    "Hollywood maneuver held": _hollywood,
    "lost a level": _hollywood,
    "broke up": _hollywood,
    "fire burns on": lambda e: (
        f"The fire burns on in the {e['part']} of {_unit(e['unit'])}: another {e['part']} hit"
        + (", its last box." if e.get("destroyed") else ".")
    ),
})  # fmt: skip

# 002 13a5, 13b3.3.2 (rules.airpirates.ammunition, radio)
SENTENCES.update({
    "variable starting ammunition": lambda e: (
        f"Variable starting ammunition of {_unit(e['unit'])}'s {e['gun']} guns: d10 "
        f"{e['roll']}, quality {e['modifier']:+d}: {e['card']} boxes on the card, "
        f"{e['boxes']} to start."
    ),
    "starting ammunition kept hidden": lambda e: (  # 13a6: an enemy's 13a5 roll
        f"The starting ammunition of {_unit(e['unit'])}'s {e['gun']} guns is rolled and "
        "kept hidden until the end of the game."
    ),
    "R/T damaged": lambda e: f"The R/T of {_unit(e['unit'])} is damaged by the crew hit.",
    "pushed the envelope": lambda e: (  # 002 17c (rules.airpirates.honcho)
        f"{_unit(e['unit'])}'s ace pushes the envelope: {str(e['maneuver']).replace('_', ' ')} "
        f"one line higher, line {e['line']}, {e['hexes']} hexes."
    ),
})  # fmt: skip


def _impulse(entry: dict[str, Any]) -> str:
    """4a: "impulse II" opens an impulse; "turn 2, impulse I" a new turn too."""
    event = str(entry["event"])
    if event.startswith("turn "):
        return f"Turn {entry['turn']} begins: {event.split(', ', 1)[-1]}."
    return f"Turn {entry['turn']}: {event} begins."


def _game_over(entry: dict[str, Any]) -> str:
    return f"Game over: {str(entry['event']).removeprefix('game over: ')}."


def log_sentence(entry: dict[str, Any]) -> str | None:
    """``entry`` in words, citing its rule; None: the pages' generic sentence."""
    event = str(entry.get("event"))
    words = SENTENCES.get(event)
    if words is None and "impulse " in event:  # 4a: each impulse's Move Phase opens
        words = _impulse
    if words is None and event.startswith("game over: "):  # [8]'s end, as the battle says
        words = _game_over
    if words is None:
        return None
    try:
        text = words(entry)
    except (KeyError, IndexError, TypeError, ValueError):  # an entry of an older shape
        return None
    rule = entry.get("rule")
    return f"{text} [{rule}]" if rule else text

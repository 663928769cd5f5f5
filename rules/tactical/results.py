"""The one engagement-result shape every tactical system returns, and its check.

A battle's ``result()`` is a :class:`TacticalResult` whichever game flew it: the
aircraft and kills with the detail each game adds (damage by part, crew hits,
bail-outs, kill credit), read by careers and campaigns alike. :func:`check_result`
names what is wrong with a result's shape, down to the detail's types.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from rules.tactical.counts import is_count

Side = Literal["axis", "allied"]
Fate = Literal["destroyed", "retreated", "damaged", "intact"]


BailoutDie = Literal["d6", "d10", "2d6"]
BAILOUT_DICE: dict[str, int] = {"d6": 6, "d10": 10, "2d6": 12}  # a die's highest face
# survived: the pilot got out (000: survived the roll); failed: did not;
# impossible: no roll allowed (002 13c1, two crew hits)
BAILOUT_OUTCOMES = ("survived", "failed", "impossible")


class Bailout(TypedDict):
    """One pilot's bail-out (or 000 'PILOT SURVIVAL') roll as the game that flew it rolled it."""

    roll: int | None  # the die as rolled, unmodified; None when no roll was allowed
    die: str  # one of BAILOUT_DICE
    modifier: int
    outcome: str  # one of BAILOUT_OUTCOMES
    early: bool  # bailed out before the aircraft was eliminated (002 13c3)


class AircraftDetail(TypedDict, total=False):
    """Each game's detail of one aircraft (optional keys: results stored before them,
    and the Angels 20 engine's own result, lack them; ``rules.angels20.detail``
    fills them for careers)."""

    damage_by_part: dict[str, int]  # hits by the parts its game uses (000: "airframe")
    crew_hits: int  # 002 13b2 crew hits
    cockpit_hits: int  # 001 "C" hits
    fires: int  # 002 13b4 fires burning when it went down
    bailout: Bailout | None  # None: nobody bailed out or rolled
    victory_points: float | None  # what its loss or retreat gave the enemy; None: unknown


class AircraftOutcome(AircraftDetail):
    """What became of one aircraft (and its pilot) in a tactical battle."""

    id: int
    name: str
    side: str
    pilot: str
    pilot_ref: str
    fate: str
    exit_edge: str | None
    scored_exit: bool
    damage: int
    destroyed_by: int | None
    destroyed_by_pilot_ref: str | None
    survival_roll: int | None
    survival_modifier: int | None
    pilot_survived: bool | None


class KillDetail(TypedDict, total=False):
    """Who is credited with a kill and by which rule (optional, as :class:`AircraftDetail`)."""

    credit_rule: str  # a rulebook citation, e.g. "001 'How Kills are Scored'"
    contenders: list[int]  # the aircraft that shared the last attack (one: no roll)
    credit_rolls: list[list[Any]]  # the tie's roll-off, as ``Roll.to_json()`` lists


class KillOutcome(KillDetail):
    """One aircraft shot down: by whom (``attacker`` is credited), in which game turn."""

    attacker: int
    attacker_pilot_ref: str
    target: int
    target_pilot_ref: str
    turn: int


class TacticalResult(TypedDict):
    """The one engagement-result shape every tactical system returns."""

    scenario: str
    kind: str
    winner: str | None  # "axis" / "allied"; None for a draw
    reason: str
    victory_points: dict[str, float]
    turns_played: int
    aircraft: list[AircraftOutcome]
    kills: list[KillOutcome]


RESULT_KEYS = frozenset(TacticalResult.__annotations__)
AIRCRAFT_KEYS = frozenset(AircraftOutcome.__required_keys__)
KILL_KEYS = frozenset(KillOutcome.__required_keys__)
AIRCRAFT_DETAIL_KEYS = frozenset(AircraftDetail.__optional_keys__)
KILL_DETAIL_KEYS = frozenset(KillDetail.__optional_keys__)


def check_result(result: Any) -> list[str]:
    """Problems with a result's shape (empty when it is a valid :class:`TacticalResult`)."""
    problems = []
    if not isinstance(result, dict):
        return ["a result is a JSON object"]
    if set(result) != RESULT_KEYS:
        problems.append(f"result keys {sorted(set(result) ^ RESULT_KEYS)} differ")
    for i, plane in enumerate(result.get("aircraft", [])):
        if set(plane) - AIRCRAFT_DETAIL_KEYS != AIRCRAFT_KEYS:
            differ = sorted((set(plane) - AIRCRAFT_DETAIL_KEYS) ^ AIRCRAFT_KEYS)
            problems.append(f"aircraft keys {differ} differ")
        problems += _detail_problems(plane, f"aircraft[{i}]", _AIRCRAFT_DETAIL_CHECKS)
    for i, kill in enumerate(result.get("kills", [])):
        if set(kill) - KILL_DETAIL_KEYS != KILL_KEYS:
            problems.append(
                f"kill keys {sorted((set(kill) - KILL_DETAIL_KEYS) ^ KILL_KEYS)} differ"
            )
        problems += _detail_problems(kill, f"kills[{i}]", _KILL_DETAIL_CHECKS)
    if result.get("winner") not in (None, "axis", "allied"):
        problems.append(f"winner {result.get('winner')!r} is neither a side nor None")
    return problems


# -- the detail's types, checked by path ("aircraft[0].bailout.die") ----------------


def _parts(value: Any, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path} is an object of part names to hit counts"]
    return [f"{path}.{k} is a count of 0 or more" for k, v in value.items() if not is_count(v)]


def _bailout(value: Any, path: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, dict) or set(value) != set(Bailout.__annotations__):
        return [f"{path} is null or an object with keys {sorted(Bailout.__annotations__)}"]
    problems = []
    die, roll = value["die"], value["roll"]
    if die not in BAILOUT_DICE:
        problems.append(f"{path}.die is one of {sorted(BAILOUT_DICE)}, not {die!r}")
    low = 2 if die == "2d6" else 1
    if roll is not None and not (is_count(roll) and low <= roll <= BAILOUT_DICE.get(die, 12)):
        problems.append(f"{path}.roll is null or a face of the {die} die, not {roll!r}")
    if not isinstance(value["modifier"], int) or isinstance(value["modifier"], bool):
        problems.append(f"{path}.modifier is a whole number")
    if value["outcome"] not in BAILOUT_OUTCOMES:
        problems.append(f"{path}.outcome is one of {list(BAILOUT_OUTCOMES)}")
    if not isinstance(value["early"], bool):
        problems.append(f"{path}.early is true or false")
    return problems


def _victory_points(value: Any, path: str) -> list[str]:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return [] if value is None or number else [f"{path} is null or a number"]


def _counted(value: Any, path: str) -> list[str]:
    return [] if is_count(value) else [f"{path} is a whole number of 0 or more"]


def _citation(value: Any, path: str) -> list[str]:
    good = isinstance(value, str) and len(value) > 6 and value[:3].isdigit() and value[3:5] == " '"
    return (
        []
        if good and value.endswith("'")
        else [f"{path} is a rulebook citation like \"000 'TAILING'\""]
    )


def _ids(value: Any, path: str) -> list[str]:
    good = isinstance(value, list) and all(is_count(v) for v in value)
    return [] if good else [f"{path} is a list of aircraft ids"]


def _rolls(value: Any, path: str) -> list[str]:
    good = isinstance(value, list) and all(isinstance(r, list) and len(r) == 3 for r in value)
    return [] if good else [f"{path} is a list of [purpose, sides, value] rolls"]


_AIRCRAFT_DETAIL_CHECKS = {
    "damage_by_part": _parts,
    "crew_hits": _counted,
    "cockpit_hits": _counted,
    "fires": _counted,
    "bailout": _bailout,
    "victory_points": _victory_points,
}
_KILL_DETAIL_CHECKS = {"credit_rule": _citation, "contenders": _ids, "credit_rolls": _rolls}


def _detail_problems(entry: Any, path: str, checks: dict[str, Any]) -> list[str]:
    if not isinstance(entry, dict):
        return [f"{path} is a JSON object"]
    problems: list[str] = []
    for key, check in checks.items():
        if key in entry:
            problems += check(entry[key], f"{path}.{key}")
    return problems

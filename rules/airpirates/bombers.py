"""002 [20] BOMBER RULES (option ``bombers``): bombers mark first (20a), their damage
(20b), the big target bonus and 30 mm cannon (20c, 20d), the skilled pilot's aimed attack
(20e), defensive gunnery by the bomber classes' dice (20f), crippled bombers and the
Hollywood maneuver (20g), fires (20h) and the bomber classes (20i).

A unit is a bomber when its control card names a bomber class (``bomber_class``, estimated:
docs/rulings.md, 'Air Pirates: the bomber classes (20i)'); without the option every unit
flies as an ordinary air unit ("should a bomber be used as a specific air unit, rather than
controlled by the bomber rules", 6a6). The classes' chart, "shown in appendix 2", is not in
the scan: :data:`CLASSES` rebuilds it (the same ruling).

Functions of the battle (``state.AirPiratesBattle``), as ``collisions.py``'s are: each
records its events in the battle's log with the rule it applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import fire as fr
from . import spotting as sp
from .actions import MANEUVERS
from .hexes import distance
from .units import PARTS, Unit

if TYPE_CHECKING:
    from .state import AirPiratesBattle

OPTION = "bombers"
MOVEMENT = "002 '20a'"
DAMAGE = "002 '20b'"
BIG_TARGET = "002 '20c'"
CANNON = "002 '20d'"
SKILLED = "002 '20e'"
GUNNERY = "002 '20f1'"
JETS = "002 '20f1.1'"
CRIPPLED = "002 '20g'"
HOLLYWOOD = "002 '20g1'"
BREAK_UP = "002 '20g1.4'"
FIRES = "002 '20h'"
CLASS_RULE = "002 '20i' (docs/rulings.md, 'Air Pirates: the bomber classes (20i)')"

DICE = (8, 10, 12, 20)  # 20f1.1: "(from lowest to highest) D8 - D10 - D12 D20"
POSITIONS = ("front", "side", "rear")
HIT = 1  # 20f1: "If the result is a 1, the fighter takes at least one hit"
RANGE = 2  # hexes (the ruling: as the rear guns' 6a5.2 and the forward fan)
JETTISON = 3  # 20g1.2
AIMED = {"aimed_engine": "engine", "aimed_fuel": "fuel", "aimed_crew": "crew"}  # 20e
SKILLED_PILOTS = ("experienced", "ace")


@dataclass(frozen=True)
class BomberClass:
    """One row of the rebuilt chart: the defensive die by the fighter's position, the most
    hits one roll may give with other bombers in range, the maneuver kinds it may mark,
    and the levels of a dive that count towards putting out a fire (20h1)."""

    rule: str
    title: str
    dice: tuple[int, int, int]  # front, side, rear
    most_hits: int
    maneuvers: tuple[str, ...]
    fire_dive: int = 2


EVERY = ("straight", "turn", "tight_turn", "half_loop", "roll")
STEADY = ("straight", "turn")
CLASSES: dict[str, BomberClass] = {
    "light": BomberClass("20i1", "Single Engine Light Bomber", (20, 20, 12), 1, EVERY, 3),
    "obsolescent": BomberClass("20i2", "Obsolescent Bomber", (20, 12, 12), 1, STEADY),
    "fast_medium": BomberClass("20i3", "Fast Medium Bomber", (20, 20, 12), 1, STEADY),
    "medium": BomberClass("20i4", "Medium Bomber", (20, 12, 12), 2, STEADY),
    "late_medium": BomberClass("20i5", "Late War Medium Bomber", (12, 12, 12), 2, STEADY),
    "early_fortress": BomberClass("20i6", "Early Fortress Heavy Bomber", (20, 12, 10), 2, STEADY),
    "late_fortress": BomberClass("20i7", "Late Fortress Heavy Bomber", (12, 12, 10), 3, STEADY),
    "superfortress": BomberClass("20i8", "Superfortress Bomber", (10, 10, 8), 3, STEADY),
    "arado": BomberClass("20i9", "Arado Blitz Bomber", (20, 20, 20), 1, EVERY),
    "recon": BomberClass("20i10", "Single Engined Recon Plane", (20, 20, 12), 1, EVERY),
}


def in_play(battle: AirPiratesBattle) -> bool:
    return OPTION in battle.scenario.options


def bomber_class(unit: Unit) -> str:
    """The card's class, "none" for any other aircraft (and a card stored before the field)."""
    return str(unit.card.get("bomber_class", "none"))


def is_bomber(battle: AirPiratesBattle, unit: Unit) -> bool:
    """Flown under [20]: the option is in play and the card names a bomber class."""
    return in_play(battle) and bomber_class(unit) in CLASSES


def state(unit: Unit) -> dict[str, Any]:
    """The bomber's own record (crippled, by whom, must dive, ordnance jettisoned)."""
    if unit.bomber is None:
        unit.bomber = {}
    return unit.bomber


# -- 20a movement ----------------------------------------------------------------------
def first(battle: AirPiratesBattle, pending: list[Unit]) -> list[Unit]:
    """20a: "Bombers must indicate maneuvers and altitude changes before all other
    aircraft": while a bomber of either side still has to mark or change, only bombers act."""
    if not in_play(battle) or battle.phase not in ("setup_mark", "mark", "change"):
        return pending
    waiting = [u for s in (0, 1) for u in battle.pending(s) if is_bomber(battle, u)]
    return [u for u in pending if is_bomber(battle, u)] if waiting else pending


def order_refusal(battle: AirPiratesBattle, unit: Unit) -> tuple[str, str] | None:
    """Why ``unit`` may not mark or change yet (20a), or None."""
    if not in_play(battle) or is_bomber(battle, unit) or battle.phase not in (
        "setup_mark", "mark", "change"
    ):  # fmt: skip
        return None
    if any(is_bomber(battle, u) for s in (0, 1) for u in battle.pending(s)):
        return MOVEMENT, "bombers indicate maneuvers and altitude changes before all others"
    return None


def maneuver_refusal(battle: AirPiratesBattle, unit: Unit, maneuver: str) -> tuple[str, str] | None:
    """20a, 20i: a bomber marks only the maneuvers of its class (the ruling)."""
    if not is_bomber(battle, unit):
        return None
    kind = MANEUVERS[maneuver][0]
    chart = CLASSES[bomber_class(unit)]
    if kind not in chart.maneuvers:
        return CLASS_RULE, f"a {chart.title} may not perform a {kind.replace('_', ' ')}"
    return None


# -- fire at bombers (20b-20e) -------------------------------------------------------------
def silenced(battle: AirPiratesBattle, unit: Unit) -> bool:
    """20f: under the bomber rules a bomber's guns are its defensive gunnery alone."""
    return is_bomber(battle, unit)


def slot(gun: str) -> str:
    """The gun an aimed attack fires (20e: the forward guns)."""
    return "forward" if gun in AIMED else gun


def cannon_only(unit: Unit) -> bool:
    """20c, 20d: "armed exclusively with 30mm cannon" (the card's field)."""
    return bool(unit.card.get("cannon_30mm_only", False))


def approach(bomber: Unit, fighter: Unit) -> str:
    """Where ``fighter`` is seen from ``bomber``: "front" (the line crosses its front
    hexside alone), "rear" (its rear hexside alone) or "side" (else, and in its hex)."""
    if bomber.hex is None or fighter.hex is None or bomber.hex == fighter.hex:
        return "side"
    crossed = fr.hexsides_crossed(bomber, fighter)
    return "front" if crossed == (0,) else "rear" if crossed == (3,) else "side"


def may_aim(battle: AirPiratesBattle, unit: Unit) -> bool:
    return in_play(battle) and unit.quality in SKILLED_PILOTS and not is_bomber(battle, unit)


def aimed_refusal(
    battle: AirPiratesBattle, firer: Unit, target: Unit, gun: str
) -> tuple[str, str] | None:
    """20e: an experienced or ace pilot attacking a bomber head-on (engines or crew) or
    directly from the rear (engines or fuel) may choose the area hit."""
    if not is_bomber(battle, target):
        return SKILLED, "the skilled pilot attack option is an attack on a bomber"
    if firer.quality not in SKILLED_PILOTS:
        return SKILLED, "only experienced or ace pilots may choose the area hit"
    where = approach(target, firer)
    area = AIMED[gun]
    if where == "side":
        return SKILLED, "the skilled pilot attacks a bomber head-on or directly from the rear"
    if (area == "fuel" and where != "rear") or (area == "crew" and where != "front"):
        return SKILLED, "fuel may be chosen from the tail only, crew head-on only"
    return None


def modifiers(
    battle: AirPiratesBattle, firer: Unit, target: Unit, gun: str, defence: dict[str, int]
) -> tuple[dict[str, int], dict[str, int]]:
    """The attack's extra modifiers and the defence, for a fighter firing at a bomber:
    20c's +1 per engine (none with 30 mm cannon alone, none in an aimed attack, 20e);
    20b's defence factor not reduced by hits."""
    if not is_bomber(battle, target):
        return {}, defence
    extra = {}
    if gun not in AIMED and not cannon_only(firer):
        extra["20c big target"] = int(target.card["engines"])
    quality = fr.DEFENCE_QUALITY[target.quality]
    whole = {"20b defence factor": int(target.card["defence_factor"]), "6c3.3-4 pilot": quality}
    return extra, {k: v for k, v in whole.items() if v}


def aimed_area(gun: str) -> str | None:
    return AIMED.get(gun)


def automatic_miss(gun: str, defender_roll: int) -> bool:
    """20e: "if the bomber rolls an unmodified 10 for the defense roll it is an automatic
    miss"."""
    return gun in AIMED and defender_roll == 10


def extra_boxes(battle: AirPiratesBattle, firer: Unit, target: Unit) -> int:
    """20d: each hit of a fighter armed with 30 mm cannon alone marks two boxes."""
    return 1 if is_bomber(battle, target) and cannon_only(firer) else 0


# -- 20g crippled ------------------------------------------------------------------------
def crippled(unit: Unit) -> bool:
    """20g: "1/2 or more hits in any one area"."""
    return any(2 * unit.damage[p] >= int(unit.card[f"{p}_boxes"]) for p in PARTS)


def check_crippled(battle: AirPiratesBattle, unit: Unit, by: int | None) -> None:
    """After hits on a bomber: the first time it is crippled, it jettisons its bomb load and
    must dive in the next Change Phase (20g)."""
    if not is_bomber(battle, unit) or unit.eliminated or not crippled(unit):
        return
    record = state(unit)
    if record.get("crippled"):
        return
    loaded = bool(battle.scenario.units[unit.id - 1].get("ordnance", bomber_class(unit) != "recon"))
    record.update(crippled=True, by=by, must_dive=True, jettisoned=loaded)
    battle._record("crippled", CRIPPLED, unit=unit.id, jettisoned=loaded)


def change_options(
    battle: AirPiratesBattle, unit: Unit, options: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """20g: a crippled bomber's speeds one below its maximum, and in the Change Phase after
    it was crippled a dive of a level or more, or staying level by the Hollywood maneuver
    (20g1); no climb. Never empty: what 20g leaves nothing of stays allowed."""
    if not is_bomber(battle, unit) or not (unit.bomber or {}).get("crippled"):
        return options
    level, dive = (int(unit.card["level_speed"]) - 1, int(unit.card["dive_speed"]) - 1)
    out = [(a, s) for a, s in options if s <= (dive if a < unit.altitude else level)]
    if unit.bomber and unit.bomber.get("must_dive"):
        out = [(a, s) for a, s in out if a <= unit.altitude]
    if not out:
        lowest = min(s for _, s in options)
        out = [(a, s) for a, s in options if s == lowest and a <= unit.altitude] or options
    return out


def change_refusal(
    battle: AirPiratesBattle, unit: Unit, altitude: int, speed: int, options: list[tuple[int, int]]
) -> tuple[str, str] | None:
    if (altitude, speed) in change_options(battle, unit, options):
        return None
    if altitude > unit.altitude:
        return CRIPPLED, "a crippled bomber must dive at least one level (or stay level, 20g1)"
    return CRIPPLED, "a crippled bomber's maximum speeds are reduced by one"


def hollywood(battle: AirPiratesBattle, unit: Unit, altitude: int) -> int:
    """20g1: the altitude the crippled bomber flies to. Staying at its altitude when it
    must dive is the Hollywood maneuver: d10 (+3 with its ordnance jettisoned, 20g1.2)
    against its hits, engine hits counting two (20g1.1); less loses a level (at altitude 0
    it crashes); an unmodified 1 breaks it up (20g1.4)."""
    record = unit.bomber or {}
    if not is_bomber(battle, unit) or not record.get("must_dive"):
        return altitude
    record["must_dive"] = False
    if altitude < unit.altitude:
        return altitude
    hits = sum(unit.damage.values()) + unit.damage["engine"]
    roll = battle.dice.d10(f"002 20g1.3 Hollywood maneuver: unit {unit.id}")
    modifier = JETTISON if record.get("jettisoned") else 0
    held = roll != 1 and roll + modifier >= hits
    crash = roll == 1 or (not held and unit.altitude == 0)
    event = "broke up" if roll == 1 else "Hollywood maneuver held" if held else "lost a level"
    battle._record(event, BREAK_UP if roll == 1 else HOLLYWOOD, unit=unit.id, roll=roll,
                   modifier=modifier, hits=hits, crashed=crash)  # fmt: skip
    if crash:
        battle._eliminate(unit, record.get("by"), BREAK_UP if roll == 1 else HOLLYWOOD, bail=False)
        return altitude
    return altitude if held else unit.altitude - 1


# -- 20h fires -----------------------------------------------------------------------------
def fire_dive(battle: AirPiratesBattle, unit: Unit, dived: int) -> int:
    """20h1: the levels dived that count towards putting out a fire: two, three for a
    Single Engine Light Bomber."""
    if not is_bomber(battle, unit):
        return dived
    return min(dived, CLASSES[bomber_class(unit)].fire_dive)


def burns_on(battle: AirPiratesBattle, unit: Unit, fire: dict[str, Any]) -> bool:
    """20h: a bomber that does not put out a fire is not destroyed: it takes another hit in
    the burning area, destroyed if that is the area's last box. True when [20] handled it."""
    if not is_bomber(battle, unit):
        return False
    part = str(fire["part"])
    unit.damage[part] += 1
    last = unit.damage[part] >= int(unit.card[f"{part}_boxes"])
    battle._record("fire burns on", FIRES, unit=unit.id, part=part, destroyed=last)
    if last:
        battle._eliminate(unit, int(fire["by"]), FIRES, part=part)
    else:
        check_crippled(battle, unit, int(fire["by"]))
    return True


# -- 20f defensive gunnery -----------------------------------------------------------------
def in_range(bomber: Unit, fighter: Unit) -> bool:
    """The ruling: within two hexes (in its hex too) and one altitude level."""
    if bomber.hex is None or fighter.hex is None:
        return False
    return (
        distance(bomber.hex, fighter.hex) <= RANGE and abs(bomber.altitude - fighter.altitude) <= 1
    )


def die_of(bomber: Unit, fighter: Unit) -> int:
    """20f1, 20g: the bomber class's die for the fighter's position, one type higher when
    the bomber is crippled (its gunnery reduced)."""
    chart = CLASSES[bomber_class(bomber)]
    die = chart.dice[POSITIONS.index(approach(bomber, fighter))]
    if (bomber.bomber or {}).get("crippled"):
        die = higher(die)
    return die


def higher(die: int) -> int:
    """20f1.1: the next higher type of die, "never more than a D20"."""
    return DICE[min(DICE.index(die) + 1, len(DICE) - 1)]


def gunnery(battle: AirPiratesBattle, fighter: Unit) -> dict[str, Any] | None:
    """20f1 for one fighter: the bombers in range, the die most advantageous to them (the
    lowest), the bomber it is rolled for, and the most hits a 1 gives; None out of range.
    With spotting, a bomber counts only with a tally on the fighter (15b9; docs/rulings.md,
    'Air Pirates: spotting meets the bombers')."""
    # 15b9 (option spotting): only gunners with a tally on the fighter fire at it
    bombers = [
        b for b in battle.units
        if not b.eliminated and b.side != fighter.side and is_bomber(battle, b)
        and in_range(b, fighter) and sp.fire_refusal(battle, b, fighter) is None
    ]  # fmt: skip
    if not bombers:
        return None
    best = min(bombers, key=lambda b: (die_of(b, fighter), b.id))
    die = die_of(best, fighter)
    jet = fighter.card["engine_type"] == "jet"
    if jet:
        die = higher(die)
    most = CLASSES[bomber_class(best)].most_hits
    return {"bomber": best.id, "bombers": [b.id for b in bombers], "die": die, "jet": jet,
            "hits": min(most, len(bombers))}  # fmt: skip


def defensive_fire(battle: AirPiratesBattle) -> None:
    """20f: every Fire Phase, after the units' own fire, one roll for each enemy fighter
    in range of any bomber (the ruling on the timing)."""
    from . import effects as fx

    if not in_play(battle):
        return
    for fighter in list(battle.units):
        if fighter.eliminated or is_bomber(battle, fighter) or battle.over:
            continue
        shot = gunnery(battle, fighter)
        if shot is None:
            continue
        start = len(battle.dice.rolls)
        roll = battle.dice.roll(shot["die"], f"002 20f1 defensive gunnery: unit {fighter.id}")
        scored = shot["hits"] if roll == HIT else 0
        bomber = battle.unit(shot["bomber"])
        placed = fx.place_hits(battle, bomber, fighter, scored)
        battle._record(
            "defensive fire", JETS if shot["jet"] else GUNNERY, unit=bomber.id,
            target=fighter.id, bombers=shot["bombers"], die=shot["die"], roll=roll,
            hits=scored, parts=placed["parts"],
            rolls=[r.to_json() for r in battle.dice.rolls[start:]],
        )  # fmt: skip
        # 15b7, 9f: the gunners fired and the fighter was fired upon (spotting.end_fire)
        battle.shots.extend([b, "defensive", fighter.id] for b in shot["bombers"])
        fx.after_hits(battle, bomber, fighter, placed)

"""Estimated *Air Pirates* control cards from historical facts (docs/rulings.md,
"Air Pirates control cards, estimated").

The control cards are not in the rulebook; 002 states a few of their values, which
calibrate these formulas (tests/rules/airpirates/test_estimates.py) and, where 002
names the aircraft, stand as printed values over the estimate (:data:`PRINTED`).
"""

from __future__ import annotations

from typing import Any

from rules.aircraft_facts import BIG, CANNON, FORWARD, HEAVY, OBLIQUE, REAR, SMALL, Facts, Gun

RULING = "docs/rulings.md 'Air Pirates control cards, estimated'"

# 002 13a2: gun factor per gun, in halves (a .303 is 1/2, the total rounded down).
HALF_FACTORS = {SMALL: 1, HEAVY: 2, CANNON: 4, BIG: 6}
# 002 13a1: a box is ~3 s of fire for .303, ~2 s for .50 and larger: rounds per box.
ROUNDS_PER_BOX = {SMALL: 57, HEAVY: 27, CANNON: 20, BIG: 20}
USUAL_ROUNDS = {SMALL: 350, HEAVY: 300, CANNON: 120, BIG: 65}

Estimate = dict[str, tuple[Any, str]]


def gun_factor(guns: tuple[Gun, ...]) -> int:
    """002 13a2: .303/7 mm 1/2 each (rounded down), .50 1, 20 mm 2, 37 mm (30 mm) 3."""
    return sum(HALF_FACTORS[g.calibre] * g.count for g in guns) // 2


def ammunition(guns: tuple[Gun, ...], rounds: str) -> int:
    """Boxes of the position's main guns: rounds per gun over the rounds of one box."""
    if not guns:
        return 0
    main = max(guns, key=lambda g: HALF_FACTORS[g.calibre] * g.count)
    carried = _rounds_for(main.calibre, rounds) or USUAL_ROUNDS[main.calibre]
    return max(1, carried // ROUNDS_PER_BOX[main.calibre])


def _rounds_for(calibre: str, rounds: str) -> int | None:
    """The rounds column: a bare number, or ``20mm: 60; .303: 350``."""
    for part in rounds.split(";"):
        label, _, number = part.rpartition(":")
        digits = "".join(c for c in (number if label else part) if c.isdigit())[:4]
        if not digits:
            continue
        if not label or _label_calibre(label) == calibre:
            return int(digits)
    return None


def _label_calibre(label: str) -> str:
    if any(k in label for k in ("30", "37")) and "mm" in label and ".30" not in label:
        return BIG
    if "20" in label:
        return CANNON
    if any(k in label for k in (".50", "12.7", "13", "15")):
        return HEAVY
    return SMALL


def level_speed(facts: Facts) -> int:
    """One speed per 75 mph of top speed (P-51D 448 mph: 6; Spitfire I 367 mph: 5)."""
    return max(1, min(9, round((facts.max_speed_mph or 300) / 75)))


def turn_number(facts: Facts) -> int:
    """Hexes to complete a turn, by wing loading (lb/sq ft): below 22 one, below 32 two
    (the Spitfire Mk I's printed 2: 24.5), below 42 three, else four."""
    loading = facts.wing_loading
    if loading is None:
        loading = 45.0 if facts.engines > 1 or facts.is_bomber else 30.0
    return 1 if loading < 22 else 2 if loading < 32 else 3 if loading < 42 else 4


def engine_rating(facts: Facts) -> str:
    """Loaded weight per horsepower: up to 5 lb excellent, 6 good, 7.5 average, 9 fair."""
    ratio = facts.lb_per_hp
    if ratio is None:
        return "average"
    for limit, rating in ((5, "excellent"), (6, "good"), (7.5, "average"), (9, "fair")):
        if ratio <= limit:
            return rating
    return "poor"


def defence_factor(facts: Facts) -> int:
    """002 13b1.3 "usually 3 or 4": 4 from 400 mph (the P-51D's printed 4), bombers 2."""
    if facts.is_bomber:
        return 2
    return 4 if (facts.max_speed_mph or 0) >= 400 else 3


def has_radio(facts: Facts) -> bool:
    """002 'AIR UNITS LACKING RADIO/TELEPHON (R/T) COMMUNICATION': Russian 1939-41,
    Japanese 1939-42, the Italian CR.42."""
    nation = facts.nation.lower()
    year = facts.year or 1943
    if "soviet" in nation or "ussr" in nation:
        return year > 1941
    if "japan" in nation:
        return year > 1942
    return "CR.42" not in facts.name


def pilot_armor(facts: Facts) -> bool:
    """The facts' answer; else none for Japanese types to 1942 and any type before 1939."""
    if facts.pilot_armor in ("yes", "partial", "no"):
        return facts.pilot_armor != "no"
    if "japan" in facts.nation.lower() and (facts.year or 1943) <= 1942:
        return False
    return (facts.year or 1940) >= 1939


def self_sealing(facts: Facts) -> str:
    """The facts' answer; else none for Japanese types to 1941 and any type before 1939."""
    if facts.self_sealing in ("yes", "no"):
        return facts.self_sealing
    if "japan" in facts.nation.lower() and (facts.year or 1943) <= 1941:
        return "no"
    return "yes" if (facts.year or 1940) >= 1939 else "no"


def point_value(values: dict[str, Any], facts: Facts) -> int:
    """Top speed / 50 + half the forward and rear gun factors + (defence - 3) + one per
    engine after the first: the P-51D's printed 13 (448/50 + 6/2 + 1 = 12.96)."""
    guns = values["gun_factor"] + values["rear_gun_factor"] * values["rear_guns"]
    raw = (facts.max_speed_mph or 300) / 50 + guns / 2 + values["defence_factor"] - 3
    return max(1, round(raw + facts.engines - 1))


def _speeds_and_altitude(facts: Facts) -> Estimate:
    level = level_speed(facts)
    loading = facts.wing_loading or 35.0
    heavy = loading >= 40 or (facts.power_hp or 0) >= 2000
    ceiling = facts.ceiling_ft or 30000
    climb = facts.climb_ft_min or 2000
    basis = f"{facts.max_speed_mph or 'unknown (300)'} mph top speed"
    return {
        "min_speed": (1 if loading < 30 else 2, f"wing loading {loading:.0f} lb/sq ft"),
        "level_speed": (level, basis),
        "dive_speed": (min(10, level + (2 if heavy else 1)), "level + 1, + 2 heavy or 2000 hp"),
        "max_altitude": (max(1, min(12, ceiling // 4000)), f"ceiling {ceiling} ft / 4000"),
        "climb": (1 if climb < 3000 else 2 if climb < 4500 else 3, f"climb {climb} ft/min"),
        "dive": (3 if heavy else 2, "2 levels, 3 heavy or 2000 hp"),
    }


def _engine(facts: Facts) -> Estimate:
    kind = facts.engine_kind or "inline"
    return {
        "engine_rating": (engine_rating(facts), f"{facts.lb_per_hp or 'unknown'} lb per hp"),
        "engine_type": (kind, "engines column"),
        "engines": (facts.engines, "engines column"),
    }


def _maneuvers(facts: Facts) -> Estimate:
    turn = turn_number(facts)
    basis = f"wing loading {facts.wing_loading or 'unknown'}"
    slow = 1 if engine_rating(facts) in ("poor", "fair") else 0
    numbers = {"turn": turn, "tight_turn": turn + 1, "half_loop": turn + 1 + slow, "roll": turn}
    out: Estimate = {}
    for name, number in numbers.items():
        out[f"{name}_number"] = (number, basis)
        out[f"{name}_number_damaged"] = (number + 1, "one more hex with the rudder hit")
    return out


def _guns(facts: Facts) -> Estimate:
    forward, rear, oblique = (facts.guns_at(p) for p in (FORWARD, REAR, OBLIQUE))
    # one position per listed gun group, or per three guns where the list lumps them
    positions = min(4, max(len(rear), (sum(g.count for g in rear) + 1) // 3))
    per_rear = gun_factor(rear) // positions if positions else 0
    note = "002 13a2 from the armament column"
    return {
        "gun_factor": (gun_factor(forward), note),
        "ammunition": (ammunition(forward, facts.rounds), "002 13a1 from rounds per gun"),
        "rear_guns": (positions, "rear, turret and flexible positions"),
        "rear_gun_factor": (per_rear, note),
        "rear_ammunition": (ammunition(rear, facts.rounds), "002 13a1 from rounds per gun"),
        "oblique_gun_factor": (gun_factor(oblique), note),
        "oblique_ammunition": (ammunition(oblique, facts.rounds), "002 13a1"),
    }


def _damage(facts: Facts) -> Estimate:
    weight = facts.loaded_weight_lb or (30000 if facts.is_bomber else 7000)
    size = 0 if weight <= 15000 else 1 if weight <= 40000 else 2
    crew = facts.crew or (4 if facts.is_bomber else 1)
    return {
        "defence_factor": (defence_factor(facts), f"{facts.max_speed_mph} mph, {facts.role}"),
        "crew": (crew, "crew column"),
        "engine_boxes": (2 if facts.engines == 1 else 3 if facts.engines == 2 else 4, "13b3.2.1"),
        "crew_boxes": (2 + (1 if crew >= 3 else 0), "13c1: two crew hits"),
        "fuel_boxes": (2 + size, f"loaded weight {weight} lb"),
        "wing_boxes": (3 + size, "13b3.1's three, by weight"),
        "fuselage_boxes": (4 + size, "13b3.1's four, by weight"),
        "rudder_boxes": (2, "13b3.7"),
    }


def _equipment(facts: Facts) -> Estimate:
    year = facts.year or 1940
    canopy = year >= 1944 and not facts.is_bomber and facts.engines == 1
    return {
        "pilot_armor": (pilot_armor(facts), f"pilot_armor {facts.pilot_armor or 'blank'}"),
        "self_sealing_tanks": (self_sealing(facts), f"tanks {facts.self_sealing or 'blank'}"),
        "radio": (has_radio(facts), f"{facts.nation} {year}"),
        "all_round_canopy": (canopy, "single-engined types from 1944"),
    }


def bomber_class(facts: Facts) -> str:
    """002 20i's class (docs/rulings.md, 'Air Pirates: the bomber classes (20i)'): "none"
    for an aircraft that is no bomber (its role names no bomber, or names a fighter) nor a
    single-engined recon plane; single-engined: a light bomber (20i1) or recon plane
    (20i10); jet: the Arado Blitz (20i9); a heavy bomber: Superfortress from 100,000 lb
    loaded (20i8), else Early Fortress to 1942 and Late Fortress from 1943 (20i6, 20i7);
    other multi-engined bombers: below 270 mph Obsolescent (20i2), from 330 mph Fast
    Medium (20i3), else from 1943 Late War Medium (20i5), else Medium (20i4)."""
    recon = "recon" in facts.role and "fighter" not in facts.role
    if not facts.is_bomber and not recon:
        return "none"
    if facts.engine_kind == "jet":
        return "arado"
    if facts.engines == 1:
        return "recon" if recon and not facts.is_bomber else "light"
    year, speed = facts.year or 1940, facts.max_speed_mph or 300
    if "heavy" in facts.role:
        if (facts.loaded_weight_lb or 0) >= 100000:
            return "superfortress"
        return "early_fortress" if year <= 1942 else "late_fortress"
    if speed < 270:
        return "obsolescent"
    if speed >= 330:
        return "fast_medium"
    return "late_medium" if year >= 1943 else "medium"


def cannon_30mm_only(facts: Facts) -> bool:
    """20c, 20d: forward guns all of 30 mm or more (the facts' largest calibre)."""
    forward = facts.guns_at(FORWARD)
    return bool(forward) and all(g.calibre == BIG for g in forward)


def _bomber(facts: Facts) -> Estimate:
    return {
        "bomber_class": (bomber_class(facts), f"role {facts.role or 'blank'}, 002 20i"),
        "cannon_30mm_only": (cannon_30mm_only(facts), "forward guns of 30 mm or more alone"),
    }


def estimate_control_card(facts: Facts) -> Estimate:
    """Every field of the control card, each with the basis of its estimate."""
    out: Estimate = {}
    for part in (_speeds_and_altitude, _engine, _maneuvers, _guns, _damage, _equipment, _bomber):
        out.update(part(facts))
    values = {name: value for name, (value, _) in out.items()}
    out["point_value"] = (point_value(values, facts), "speed, guns, defence, engines")
    return out


# Values 002 states, by the name 002 gives the aircraft; they stand over the estimates.
PRINTED: dict[str, dict[str, tuple[Any, str]]] = {}


def _printed(names: tuple[str, ...], field: str, value: Any, where: str) -> None:
    for name in names:
        PRINTED.setdefault(name, {})[field] = (value, f"002_cf8488af3a84ab09.txt ({where})")


_printed(
    ("P-51D",), "point_value", 13, "13c, BAILING OUT example: 'a P-51D (normally \"13\" points)'"
)
_printed(("P-51D",), "defence_factor", 4, "13b1.3: 'a P51D has a defense factor of \"4\"'")
_printed(("Spitfire Mk1",), "turn_number", 2, "5c example: turn maneuver number '2'")
_printed(
    ("Ki-45 KAIa Nick",),
    "rear_gun_factor",
    0,
    "6c REAR GUN FIRING MODIFIERS example: '0 RG factor'",
)
NO_ARMOR = (
    "Ki-10 Perry", "Ki-27 Nate", "Ki-43 I Oscar", "A5M4 Claude", "A6M2 Zero", "A6M3 Hamp",
    "Me109B/D", "Me109E-1", "F2A-1 Buffalo", "Gladiator", "CW-21 Demon", "P-35A",
    "P-43A Lancer", "P-36A",
)  # fmt: skip
_printed(NO_ARMOR, "pilot_armor", False, "13b3.3.1 NO PILOT ARMOR")
NO_TANKS = (
    "Ki-10 Perry", "Ki-27 Nate", "Ki-43 I Oscar", "A5M4 Claude", "A6M2 Zero", "A6M3 Hamp",
    "Gladiator", "CW-21 Demon", "P-35A", "P-36A", "Me109B/D", "Me109E-1", "F2A-1 Buffalo",
)  # fmt: skip
_printed(NO_TANKS, "self_sealing_tanks", "no", "13b3.4.1 NO SELF SEALING TANKS")
_printed(
    ("Ki-43 II Oscar", "Ki-44 Tojo", "P-43A Lancer"),
    "self_sealing_tanks",
    "rudimentary",
    "13b3.4.1: rudimentary or inefficient self-sealing tanks",
)

# The aircraft 002 names (by its own names, as 13b3.3.1, 13b3.4.1, 6c and the examples
# print them), each estimated from its facts rows (later rows fill the first's blanks);
# written to rules/catalog/airpirates_named_cards.csv by rules.build_game_cards.
NAMED_IN_002: dict[str, tuple[str, ...]] = {
    "P-51D": ("North American P-51D Mustang",),
    "Spitfire Mk1": (
        "Supermarine Spitfire Mk I",
        "Supermarine Spitfire I / I.A (Air Force I.A; Air Pirates Mk I)",
    ),
    "Me109B/D": ("Messerschmitt Bf 109B/D",),
    "Me109E-1": ("Messerschmitt Bf 109E-1", "Messerschmitt Bf 109E-3"),
    "Me-110 C-1": ("Messerschmitt Bf 110C-1",),
    "A6M2 Zero": ("Mitsubishi A6M2 Zero (Model 21)",),
    "A6M3 Hamp": ("Mitsubishi A6M3 'Hamp' (Model 32)", "Mitsubishi A6M2 Zero (Model 21)"),
    "A5M4 Claude": ("Mitsubishi A5M4 'Claude'",),
    "Ki-10 Perry": ("Kawasaki Ki-10 'Perry'",),
    "Ki-27 Nate": ("Nakajima Ki-27 'Nate'",),
    "Ki-43 I Oscar": ("Nakajima Ki-43-I 'Oscar'",),
    "Ki-43 II Oscar": ("Nakajima Ki-43-II 'Oscar'", "Nakajima Ki-43-I 'Oscar'"),
    "Ki-44 Tojo": ("Nakajima Ki-44 'Tojo'",),
    "Ki-45 KAIa Nick": ("Kawasaki Ki-45 'Nick'",),
    "Gladiator": ("Gloster Gladiator I",),
    "CW-21 Demon": ("Curtiss-Wright CW-21 Demon",),
    "P-35A": ("Seversky P-35A",),
    "P-36A": ("Curtiss P-36A Hawk / Mohawk",),
    "P-43A Lancer": ("Republic P-43A Lancer",),
    "F2A-1 Buffalo": ("Brewster F2A-1 Buffalo (Finnish B-239)",),
    "F4F-4 Wildcat": ("Grumman F4F-4 Wildcat", "Grumman F4F-3 Wildcat"),
    "LaGG-3": ("Lavochkin LaGG-3",),
    "SM.79": ("Savoia-Marchetti SM.79 Sparviero",),
    "CR.42": ("Fiat CR.42 Falco",),
}

"""The *Air Pirates* aircraft control card (002 '1c' AIRCRAFT CONTROL CARDS, '3d3', '[13]').

The fields a control card prints, as the text describes them: speeds and altitude
limits (3e2-3e4), climb and dive per Change Phase (3e3), the engine power rating
(7a), the maneuver numbers with the rudder-damaged number after the "/" (5c, 13b3.7),
gun factors and ammunition boxes per position (13a), rear and oblique forward guns
(6a5, OBLIQUE FORWARD GUNS), the defence factor (13b1.3), damage boxes by part
(13b2, 13b3.1), pilot armour (13b3.3.1), self-sealing tanks (13b3.4.1), radio
(15b8.3), the all-round vision canopy (spotting) and the point value (14a); for [20] the
bomber class (20i, "recorded on the Aircraft Control Cards for the bombers") and whether the
aircraft is armed with 30 mm cannon alone (20c, 20d).
"""

from __future__ import annotations

from rules.game_cards import CardField, CardSchema, ordered

CARD = "002 'AIRCRAFT CONTROL CARDS'"
LIMITS = "002 'STACKING, SPEED AND ALTITUDE LMIITS'"
MANEUVERS = "002 'MANEUVER MOVEMENT REQUIREMENTS'"
ENGINE = "002 'ENGINE POWER DEFINITIONS'"
GUNS = "002 'AMMUNITION AND GUNFACTORS'"
REAR = "002 'REAR GUNS'"
OBLIQUE = "002 'OBLIQUE FORWARD GUNS'"
DEFENCE = "002 'DEFENDER'S FIRING MODIFIER'"
HITS = "002 'HIT TYPES AND EFFECTS'"
ARMOR = "002 'NO PILOT ARMOR'"
TANKS = "002 'NO SELF SEALING TANKS'"
RADIO = "002 'AIR UNITS LACKING RADIO/TELEPHON (R/T) COMMUNICATION'"
POINTS = "002 'AIR UNIT POINT VALUES'"
CLASSES = "002 '20i'"  # a citation names the section alone (angels.errors.is_citation)
BIG_TARGET = "002 '20c'"

ENGINE_RATINGS = ("poor", "fair", "average", "good", "excellent")
ENGINE_TYPES = ("inline", "radial", "jet")
SELF_SEALING = ("yes", "rudimentary", "no")
# 20i1-20i10, in the text's order (rules.airpirates.bombers.CLASSES); "none": no bomber
BOMBER_CLASSES = (
    "none", "light", "obsolescent", "fast_medium", "medium", "late_medium", "early_fortress",
    "late_fortress", "superfortress", "arado", "recon",
)  # fmt: skip


def _int(name: str, rule: str, low: int, high: int, text: str) -> CardField:
    return CardField(name, "int", rule, low=low, high=high, help=text)


MANEUVER_NAMES = ("turn", "tight_turn", "half_loop", "roll")

CONTROL_CARD_FIELDS: tuple[CardField, ...] = (
    _int("min_speed", LIMITS, 1, 9, "minimum speed (3e2)"),
    _int("level_speed", LIMITS, 1, 9, "level speed (3e4)"),
    _int("dive_speed", LIMITS, 1, 10, "dive speed, never exceeded (3e4)"),
    _int("max_altitude", LIMITS, 1, 12, "highest altitude level (3e3)"),
    _int("climb", LIMITS, 0, 4, "altitude levels climbed per Change Phase (3e3)"),
    _int("dive", LIMITS, 0, 6, "altitude levels dived per Change Phase (3e3)"),
    CardField("engine_rating", "choice", ENGINE, choices=ENGINE_RATINGS, help="7a"),
    CardField(
        "engine_type", "choice", HITS, choices=ENGINE_TYPES, help="fire on an engine hit, 13b3.2"
    ),
    _int("engines", HITS, 1, 4, "twin engines: eliminated by three engine hits (13b3.2.1)"),
    *(
        f
        for m in MANEUVER_NAMES
        for f in (
            _int(f"{m}_number", MANEUVERS, 1, 9, f"hexes to complete a {m.replace('_', ' ')}"),
            _int(f"{m}_number_damaged", MANEUVERS, 1, 10, "the number after the '/' (13b3.7)"),
        )
    ),
    _int("gun_factor", GUNS, 0, 20, "forward guns (13a2)"),
    _int("ammunition", GUNS, 0, 40, "forward ammunition boxes (13a1)"),
    _int("rear_guns", REAR, 0, 4, "rear gun positions (6a5)"),
    _int("rear_gun_factor", REAR, 0, 12, "each rear gun position's factor"),
    _int("rear_ammunition", REAR, 0, 40, "rear ammunition boxes"),
    _int("oblique_gun_factor", OBLIQUE, 0, 12, "oblique forward (OF) guns"),
    _int("oblique_ammunition", OBLIQUE, 0, 40, "OF ammunition boxes"),
    _int("defence_factor", DEFENCE, 0, 6, "basic defence factor, usually 3 or 4 (13b1.3)"),
    _int("crew", HITS, 1, 12, "crew (13b2.1)"),
    _int("engine_boxes", HITS, 1, 6, "engine hits that eliminate (13b3.1)"),
    _int("crew_boxes", HITS, 1, 6, "crew hits"),
    _int("fuel_boxes", HITS, 1, 6, "fuel hits"),
    _int("wing_boxes", HITS, 1, 10, "wing hits"),
    _int("fuselage_boxes", HITS, 1, 12, "fuselage hits"),
    _int("rudder_boxes", HITS, 1, 6, "rudder hits"),
    CardField("pilot_armor", "bool", ARMOR, help="cockpit armour or armoured glass (13b3.3.1)"),
    CardField("self_sealing_tanks", "choice", TANKS, choices=SELF_SEALING, help="13b3.4.1"),
    CardField("radio", "bool", RADIO, help="R/T communication (15b8.3)"),
    CardField("all_round_canopy", "bool", CARD, help="+2 spotting (15b)"),
    _int("point_value", POINTS, 1, 80, "selection and victory points, average pilot (14a)"),
    CardField(
        "bomber_class", "choice", CLASSES, choices=BOMBER_CLASSES, help="20i; none: no bomber"
    ),
    CardField(
        "cannon_30mm_only", "bool", BIG_TARGET, help="armed with 30 mm cannon alone (20c, 20d)"
    ),
)

# fields added after cards were stored (the roster's, a battle's scenario): a card without
# them flies with these values (no bomber, not 30 mm cannon alone)
LATER_FIELDS: dict[str, object] = {"bomber_class": "none", "cannon_30mm_only": False}

CONTROL_CARD = CardSchema(
    game="airpirates",
    title="Air Pirates control card",
    fields=CONTROL_CARD_FIELDS,
    cross_checks=(
        ordered("min_speed", "level_speed", LIMITS),
        ordered("level_speed", "dive_speed", LIMITS),
        *(ordered(f"{m}_number", f"{m}_number_damaged", MANEUVERS) for m in MANEUVER_NAMES),
    ),
)

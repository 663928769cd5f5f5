"""The *Air Force* aircraft data card (001 'INTERPRETING THE AIRCRAFT DATA CARDS').

The card prints four Movement Characteristics screens per altitude band and the
Target Characteristics chart. This block keeps, as a ruling (docs/rulings.md, "Air
Force data cards, estimated"), one summary line of each screen at the aircraft's
best altitude band, the ceiling, and the whole Target Characteristics chart:

- Speed Increment screen: stall, maneuver, level and dive speed (speed factors);
- Maneuverability Requirements screen: hexes before a turn (or slip), bank, half
  roll and half loop, at maneuver speed;
- AirSpeed Change screen: power and brake factors;
- Altitude Change screen: the largest climb at level speed and the largest dive in
  one turn, in hundreds of feet;
- Target Characteristics: hits each part takes (W, F, C, E), gun factors and ranges
  of the fixed forward (FF) and flexible (F) guns, Fire and Silhouette Modifiers;
- general information: engine type, point value (PV), ceiling.
"""

from __future__ import annotations

from rules.game_cards import CardField, CardSchema, ordered

CARD = "001 'INTERPRETING THE AIRCRAFT DATA CARDS'"
SPEEDS = "001 'THE SPEED INCREMENT SCREEN'"
MANEUVERS = "001 'THE MANEUVERABILITY REQUIREMENTS SCREEN'"
AIRSPEED = "001 'THE AIRSPEED CHANGE SCREEN'"
ALTITUDE = "001 'THE ALTITUDE CHANGE SCREEN'"
TARGET = "001 'THE TARGET CHARACTERISTICS CHART'"
GENERAL = "001 'GENERAL AND OPTIONAL INFORMATION'"

ENGINE_TYPES = ("radial", "inline", "jet")


def _int(name: str, rule: str, low: int, high: int, text: str) -> CardField:
    return CardField(name, "int", rule, low=low, high=high, help=text)


DATA_CARD_FIELDS: tuple[CardField, ...] = (
    _int("ceiling", CARD, 50, 500, "ceiling, hundreds of feet (the outermost band)"),
    _int("stall_speed", SPEEDS, 1, 15, "top of the stall speed increment"),
    _int("maneuver_speed", SPEEDS, 1, 15, "top of the maneuver speed increment"),
    _int("level_speed", SPEEDS, 1, 15, "top of the level speed increment"),
    _int("dive_speed", SPEEDS, 1, 16, "top of the dive speed increment"),
    _int("turn_requirement", MANEUVERS, 0, 9, "hexes before a turn or slip"),
    _int("bank_requirement", MANEUVERS, 0, 9, "hexes before a bank"),
    _int("half_roll_requirement", MANEUVERS, 0, 9, "hexes before a half roll"),
    _int("half_loop_requirement", MANEUVERS, 0, 9, "hexes before a half loop"),
    _int("power_factors", AIRSPEED, 0, 6, "power factors in a turn"),
    _int("brake_factors", AIRSPEED, 0, 6, "brake factors in a turn"),
    _int("max_climb", ALTITUDE, 0, 20, "climb at level speed, hundreds of feet a turn"),
    _int("max_dive", ALTITUDE, 1, 60, "dive, hundreds of feet a turn"),
    _int("wing_hits", TARGET, 1, 20, "W"),
    _int("fuselage_hits", TARGET, 1, 20, "F"),
    _int("cockpit_hits", TARGET, 1, 10, "C"),
    _int("engine_hits", TARGET, 1, 12, "E"),
    _int("ff_gun_factor", TARGET, 0, 40, "fixed forward guns, G"),
    _int("ff_gun_range", TARGET, 0, 6, "their range in hexes (0: none)"),
    _int("flexible_gun_factor", TARGET, 0, 40, "flexible guns (F), all arcs together"),
    _int("flexible_gun_range", TARGET, 0, 6, "their range in hexes (0: none)"),
    _int("fire_modifier", TARGET, -3, 3, "gun platform and sights"),
    _int("silhouette_modifier", TARGET, -3, 5, "target size"),
    CardField("engine_type", "choice", GENERAL, choices=ENGINE_TYPES, help="R, I or J"),
    _int("point_value", GENERAL, 1, 150, "PV"),
)

DATA_CARD = CardSchema(
    game="airforce",
    title="Air Force data card",
    fields=DATA_CARD_FIELDS,
    cross_checks=(
        ordered("stall_speed", "maneuver_speed", SPEEDS),
        ordered("maneuver_speed", "level_speed", SPEEDS),
        ordered("level_speed", "dive_speed", SPEEDS),
    ),
)

"""Estimated *Air Force* data cards from historical facts (docs/rulings.md, "Air Force
data cards, estimated"), calibrated on the values 001 prints (the Zero's card: PV 16,
W 5, F 5, C 3, E 3, radial engine; the examples' P-47 turn after 3 hexes at maneuver
speed, the Hurricane II's 2 power and 2 brake factors, the P-47D's 600 ft climb)."""

from __future__ import annotations

from typing import Any

from rules.aircraft_facts import BIG, CANNON, FORWARD, HEAVY, REAR, SMALL, Facts, Gun

RULING = "docs/rulings.md 'Air Force data cards, estimated'"
# gun factor per gun (001 TC "G"): the Zero's 2 x 7.7 mm print "2M" and 2 x 20 mm "4C".
FACTORS = {SMALL: 1, HEAVY: 2, CANNON: 2, BIG: 3}

Estimate = dict[str, tuple[Any, str]]


def gun_factor(guns: tuple[Gun, ...]) -> int:
    return sum(FACTORS[g.calibre] * g.count for g in guns)


def point_value(facts: Facts, guns: int) -> int:
    """Top speed / 25 + forward gun factor / 2 + 2 per extra engine: the Zero's 16
    (331/25 + 6/2 = 16.2)."""
    return max(1, round((facts.max_speed_mph or 300) / 25 + guns / 2 + 2 * (facts.engines - 1)))


def hits(facts: Facts) -> dict[str, int]:
    """Zero (5,490 lb loaded): W 5, F 5, C 3, E 3; one more W and F per 5,000 lb above
    6,000 lb, one more E per engine."""
    weight = facts.loaded_weight_lb or (30000 if facts.is_bomber else 7000)
    extra = max(0, (weight - 6000) // 5000)
    return {
        "wing_hits": min(20, 5 + extra),
        "fuselage_hits": min(20, 5 + extra),
        "cockpit_hits": 3,
        "engine_hits": min(12, 3 * facts.engines),
    }


def _movement(facts: Facts) -> Estimate:
    top = facts.max_speed_mph or 300
    dive = max(4, min(16, round(top / 45)))
    loading = facts.wing_loading or 35.0
    turn = 1 if loading < 22 else 2 if loading < 32 else 3 if loading < 45 else 4
    ratio = facts.lb_per_hp or 7.0
    power = 3 if ratio <= 5 else 2 if ratio <= 7.5 else 1
    climb = facts.climb_ft_min or 2000
    basis = f"{top} mph top speed"
    return {
        "ceiling": (max(50, min(500, (facts.ceiling_ft or 30000) // 100)), "service ceiling"),
        "stall_speed": (max(1, dive // 4), basis),
        "maneuver_speed": (max(1, dive // 2), basis),
        "level_speed": (dive - 2, basis),
        "dive_speed": (dive, basis),
        "turn_requirement": (turn, f"wing loading {loading:.0f} lb/sq ft (P-47: 3)"),
        "bank_requirement": (max(0, turn - 2), "turn - 2"),
        "half_roll_requirement": (max(0, turn - 1), "turn - 1"),
        "half_loop_requirement": (turn + 1, "turn + 1"),
        "power_factors": (power, f"{ratio:.1f} lb per hp (Hurricane II: 2)"),
        "brake_factors": (2, "the Hurricane II's 2"),
        "max_climb": (max(1, min(20, round(climb / 500))), f"{climb} ft/min (P-47D: 6)"),
        "max_dive": (max(5, min(60, round(dive * 3))), "three hundred feet per dive speed"),
    }


def _target(facts: Facts) -> Estimate:
    forward, rear = facts.guns_at(FORWARD), facts.guns_at(REAR)
    weight = facts.loaded_weight_lb or (30000 if facts.is_bomber else 7000)
    out: Estimate = {name: (n, "by weight and engines") for name, n in hits(facts).items()}
    out.update(
        {
            "ff_gun_factor": (min(40, gun_factor(forward)), "M 1 per MG, 2 per heavy MG or 20 mm"),
            "ff_gun_range": (4 if forward else 0, "the Zero's (4)"),
            "flexible_gun_factor": (min(40, gun_factor(rear)), "as FF"),
            "flexible_gun_range": (5 if rear else 0, "the flexible guns' (5)"),
            "fire_modifier": (0 if facts.engines == 1 else 1, "twins are steadier"),
            "silhouette_modifier": (min(5, max(-3, (weight - 6000) // 10000)), "by weight"),
            "engine_type": (facts.engine_kind or "inline", "engines column"),
        }
    )
    return out


def estimate_data_card(facts: Facts) -> Estimate:
    """Every field of the data card, each with the basis of its estimate."""
    out = {**_movement(facts), **_target(facts)}
    points = point_value(facts, out["ff_gun_factor"][0] + out["flexible_gun_factor"][0])
    out["point_value"] = (points, "speed, guns, engines (Zero: 16)")
    return out


# Values 001 prints, by the name 001 gives the aircraft; they stand over the estimates.
_ZERO = "001_51eb6fd84fe43c42.txt (AIR FORCE DATA CARD 14A, Zero)"
PRINTED: dict[str, dict[str, tuple[Any, str]]] = {
    "Zero": {
        "point_value": (16, _ZERO),
        "wing_hits": (5, _ZERO),
        "fuselage_hits": (5, _ZERO),
        "cockpit_hits": (3, _ZERO),
        "engine_hits": (3, _ZERO),
        "engine_type": ("radial", _ZERO),
    }
}

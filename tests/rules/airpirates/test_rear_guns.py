"""002 6a5 rear guns and 6c2 their modifiers, with the text's two worked examples."""

import pytest
from airpirates_helpers import battle, mark_all, move_all, unit

from rules.airpirates import fire as fr
from rules.airpirates.actions import Fire, IllegalAction, Mark
from rules.airpirates.units import catalog_card

TWIN = "Bf 110C"  # the catalog's Me-110 C: one rear gun
WILDCAT = "USMC F4F-4 Wildcat"


def nick():
    """A Ki-45 KAIa "Nick" (not in the catalog): a twin's card with the rear gun factor 002
    prints for it, "0 RG factor" (6c2.2.6), and an ace rear gunner."""
    card = dict(catalog_card(TWIN), rear_gun_factor=0)
    return {"side": "axis", "name": "Ki-45 KAIa Nick", "card": card, "gunner_quality": "ace",
            "speed": 4, "altitude": 3}  # fmt: skip


def test_6c2_2_6_the_nick_example_totals_minus_3():
    # "a Ki.45KAIa "Nick" with an ace rear gunner is at altitude 3 plotted for a tight left
    # turn. It targets a F4F-4 at altitude level 4 and a range of two hexes. The firing line
    # crosses a side hex-side. The final firing modifier equals "-3""
    b = battle(
        [nick(), unit("allied", WILDCAT, speed=3, altitude=4)],
        [((10, 8), 0), ((8, 8), 5)],  # the Wildcat two hexes behind, flying north-east
    )

    b.apply(Mark(1, "tight_left"))
    nick_, wildcat = b.unit(1), b.unit(2)
    assert fr.hexsides_crossed(wildcat, nick_) == (1,)  # its front-right: a side hexside
    assert fr.rear_refusal(nick_, wildcat, b.fire_phase_number()) is None
    parts = fr.rear_modifier(nick_, wildcat, "tight_turn")
    assert parts == {
        "6c2.2.2 range": -2,
        "6c2.2.3 altitude": -2,
        "6c2.2.4-5 maneuver": -3,
        "6c2.2.6 gunner": 4,
    }
    assert sum(parts.values()) == -3


@pytest.mark.parametrize(
    ("kind", "modifier"),
    [("straight", 0), ("turn", -1), ("tight_turn", -3), ("roll", -3), ("half_loop", -3)],
)
def test_6c2_2_4_and_5_the_firing_units_maneuver(kind, modifier):
    b = battle([nick(), unit("allied", WILDCAT, altitude=3)], [((10, 8), 0), ((9, 8), 0)])
    parts = fr.rear_modifier(b.unit(1), b.unit(2), kind)
    assert parts.get("6c2.2.4-5 maneuver", 0) == modifier
    assert parts["6c2.2.1 hexside"] == 2  # adjacent behind, flying at it: its front hexside


@pytest.mark.parametrize(
    ("quality", "modifier"),
    [("green", -2), ("inexperienced", -1), ("average", 0), ("experienced", 2), ("ace", 4)],
)
def test_6c2_2_6_the_rear_gunners_quality(quality, modifier):
    gunner = dict(nick(), gunner_quality=quality)
    b = battle([gunner, unit("allied", WILDCAT, altitude=3)], [((10, 8), 0), ((9, 8), 0)])
    assert fr.rear_modifier(b.unit(1), b.unit(2), None).get("6c2.2.6 gunner", 0) == modifier


def test_6c2_2_1_a_target_flying_away_is_minus_1():
    b = battle([nick(), unit("allied", WILDCAT, altitude=3)], [((10, 8), 0), ((9, 8), 3)])
    assert fr.rear_modifier(b.unit(1), b.unit(2), None)["6c2.2.1 hexside"] == -1


def test_6a5_2_the_rear_sector_within_two_hexes_same_or_one_higher():
    b = battle([nick(), unit("allied", WILDCAT, altitude=3)], [((10, 8), 0), ((7, 8), 0)])
    gun, target = b.unit(1), b.unit(2)
    assert fr.rear_refusal(gun, target, 5)[0] == "002 '6a5.2'"  # three hexes
    target.hex = (11, 8)  # ahead: not the rear sector
    assert fr.rear_refusal(gun, target, 5)[0] == "002 '6a5.2'"
    target.hex = (9, 8)
    assert fr.rear_refusal(gun, target, 5) is None
    target.altitude = 2  # one lower: only where the card's notes allow (6a5.2.1)
    assert fr.rear_refusal(gun, target, 5)[0] == "002 '6a5.2'"
    target.hex, target.altitude = gun.hex, 3  # same hex: must be one higher
    assert fr.rear_refusal(gun, target, 5)[0] == "002 '6a5.2'"
    target.altitude = 4
    assert fr.rear_refusal(gun, target, 5) is None


def test_6a5_1_the_me110_fires_in_turn_1_impulse_vi_and_next_in_turn_2_impulse_ii():
    # "the rear gun of a Me-110 C-I fires at a target during the firing phase of turn 1,
    # impulse VI. The rear gun may not be used again until the firing phase of turn 2,
    # impulse II."
    me110 = dict(unit("axis", TWIN, speed=2, altitude=3))
    b = battle([me110, unit("allied", WILDCAT, speed=3, altitude=3)], [((10, 8), 0), ((9, 8), 0)])
    gun, target = b.unit(1), b.unit(2)
    b.turn, b.impulse = 1, 6
    vi = b.fire_phase_number()
    gun.rear_fired_phase = vi
    b.turn, b.impulse = 2, 1
    assert fr.rear_refusal(gun, target, b.fire_phase_number())[0] == "002 '6a5.1'"
    b.impulse = 2
    assert fr.rear_refusal(gun, target, b.fire_phase_number()) is None


def test_a_rear_gun_fires_in_the_fire_phase_and_waits_a_phase():
    me110 = unit("axis", TWIN, speed=4, altitude=3)
    b = battle(
        [me110, unit("allied", WILDCAT, speed=4, altitude=3)],
        [((10, 8), 0), ((8, 8), 0)],  # the Wildcat two hexes behind
        marker="axis",
    )
    mark_all(b, {})
    move_all(b)  # impulse I: both move one hex and complete their straights
    assert b.phase == "fire"
    listed = b.legal_actions()
    assert Fire(1, 2, "rear") in listed and Fire(2, 1) not in listed  # the Wildcat: 2 hexes
    b.apply(Fire(1, 2, "rear"))
    fired = [e for e in b.log if e["event"] == "fired"][0]
    assert fired["gun"] == "rear" and fired["attack"]["6c2.2.2 range"] == -2
    assert b.unit(1).rear_ammunition_used == 1 and b.unit(1).ammunition_used == 0
    with pytest.raises(IllegalAction):
        b.apply(Fire(1, 2, "rear"))


def test_6a5_4_not_at_the_forward_guns_target():
    b = battle([nick(), unit("allied", WILDCAT, altitude=3)], [((10, 8), 0), ((9, 8), 0)])
    b.phase, b.completed = "fire", {1: "straight"}
    b.shots.append([1, "forward", 2])
    assert b._fire_refusal(b.unit(1), b.unit(2), "rear")[0] == "002 '6a5.4'"

"""002 [6] the Fire Phase: who may fire, the modifiers, the opposed d10 rolls and hits by
multiples, hit location (13b2) and elimination (6f2, 13b3.1)."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates import fire as fr
from rules.airpirates.actions import Fire, Hold, IllegalAction, PassMarker
from rules.dice import ScriptedDice
from rules.tactical import check_result


def test_6e_hits_by_multiples():
    assert fr.hits(5, 5) == 0  # "equals or exceeds ... no hits. A miss!"
    assert fr.hits(5, 6) == 0
    assert fr.hits(7, 5) == 1  # more, but not two times
    assert fr.hits(10, 5) == 2  # "two times, but not by three times-two hits"
    assert fr.hits(14, 5) == 2
    assert fr.hits(15, 5) == 3  # "three times, but not by four times. three hits"
    assert fr.hits(12, 1) == 12


def test_6d_a_firing_number_below_1_counts_as_1():
    assert fr.firing_number(2, -5) == 1
    assert fr.firing_number(2, 3) == 5


def test_13b2_hit_location_table():
    parts = [fr.location(r) for r in range(1, 11)]
    assert parts == ["engine", "engine", "crew", "fuel", "wing", "wing",
                     "fuselage", "fuselage", "fuselage", "rudder"]  # fmt: skip


def tail_chase(ammunition_used=0, **spit):
    """The Spitfire (allied, 2) two hexes behind a Bf 109E (axis, 1), both flying east."""
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4, **spit)],
        [((10, 8), 0), ((8, 8), 0)],
        marker="allied",
    )
    b.unit(2).ammunition_used = ammunition_used
    mark_all(b, {})
    move_all(b)  # impulse I: only speed 4 moves; the Spitfire completes its straight
    return b


def test_6a_a_unit_that_just_completed_a_maneuver_may_fire():
    b = tail_chase()
    assert b.phase == "fire" and b.current_side() == 1
    assert b.legal_actions() == [PassMarker(), Fire(2, 1), Hold(2)]


def test_6a_only_a_unit_that_completed_a_maneuver_fires():
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((10, 8), 0), ((7, 8), 0)],
        marker="allied",
    )
    mark_all(b, {2: "turn_right"})  # two hexes at speed 4: not complete after one
    move_all(b)
    assert b.phase != "fire" and b.unit(2).marker is not None


def test_6c_the_firers_modifiers_tail_shot():
    b = tail_chase()
    spit, bf = b.unit(2), b.unit(1)
    # gun factor 4 (eight .303s, 13a2.1) and +1 for a shot across the target's rear hexside
    assert fr.attack_modifier(spit, bf) == {"6c1.1 gun factor": 4, "6c1.3 deflection": 1}
    assert fr.defence_modifier(bf) == {"6c3.2 defence factor": 3}


@pytest.mark.parametrize(
    ("quality", "attack", "defence"),
    [("green", -1, 0), ("inexperienced", 0, 0), ("average", 0, 0), ("experienced", 2, 1),
     ("ace", 4, 2)],
)  # fmt: skip
def test_6c1_5_to_7_and_6c3_pilot_quality(quality, attack, defence):
    b = tail_chase(quality=quality)
    spit, bf = b.unit(2), b.unit(1)
    assert fr.attack_modifier(spit, bf).get("6c1.5-7 pilot", 0) == attack
    assert fr.defence_modifier(spit).get("6c3.3-4 pilot", 0) == defence


def test_6c1_8_a_wounded_pilot_and_6c3_2_defence_reduced_by_hits():
    b = tail_chase()
    spit, bf = b.unit(2), b.unit(1)
    spit.damage["crew"] = 1
    assert fr.attack_modifier(spit, bf)["6c1.8 wounded"] == -1
    bf.damage.update(wing=2, fuselage=3, engine=1, crew=1)  # 7 hits: "only adds 0"
    assert fr.defence_modifier(bf) == {}


def test_13b1_3_the_p51ds_defence_4_with_5_hits_adds_0():
    b = tail_chase()
    bf = b.unit(1)
    bf.card["defence_factor"] = 4
    bf.damage.update(fuselage=3, wing=2)
    assert fr.defence_modifier(bf) == {}


def test_6c1_2_one_altitude_apart_is_minus_2_and_two_apart_no_fire():
    b = tail_chase()
    spit, bf = b.unit(2), b.unit(1)
    bf.altitude = spit.altitude + 1
    assert fr.attack_modifier(spit, bf)["6c1.2 altitude"] == -2
    bf.altitude = spit.altitude + 2
    why = fr.refusal(spit, bf, b.entered)
    assert why is not None and why[0] == "002 '6a1'"


def test_6d_6e_the_opposed_rolls_scripted():
    b = tail_chase()
    b.dice = ScriptedDice([8, 2, 7, 10, 4])  # firer 8+5 = 13, target 2+3 = 5: 2 hits
    b.apply(Fire(2, 1))
    fired = [e for e in b.log if e["event"] == "fired"][0]
    assert fired["numbers"] == [13, 5] and fired["hits"] == 2
    assert fired["parts"] == ["fuselage", "rudder"]
    assert [r[0] for r in fired["rolls"]][:2] == [
        "002 6d firing number: unit 2",
        "002 6d firing number: unit 1 (target)",
    ]
    assert b.unit(1).damage["rudder"] == 1 and b.unit(2).ammunition_used == 1  # 13a3


def test_6e_a_miss_when_the_target_equals():
    b = tail_chase()
    b.dice = ScriptedDice([1, 3])  # 1+5 = 6 against 3+3 = 6
    b.apply(Fire(2, 1))
    assert [e for e in b.log if e["event"] == "fired"][0]["hits"] == 0
    assert sum(b.unit(1).damage.values()) == 0


def test_6f2_eliminated_when_a_part_reaches_its_boxes_and_8_scores_10():
    b = tail_chase()
    b.unit(1).damage["engine"] = 1
    b.dice = ScriptedDice([10, 2, 1, 7, 7])  # 15 against 2 + (3 - 1 hit) = 4: 3 hits
    b.apply(Fire(2, 1))
    assert b.unit(1).eliminated and b.is_over()
    result = b.result()
    assert check_result(result) == []
    assert result["victory_points"]["allied"] == 10 and result["winner"] == "allied"
    assert result["kills"][0]["attacker"] == 2 and result["aircraft"][0]["fate"] == "destroyed"


def test_13a3_no_fire_without_ammunition():
    b = tail_chase(ammunition_used=5)  # the Spitfire's five boxes all marked off
    assert b.phase == "mark"  # nothing to decide: the Fire Phase is passed over
    b.phase, b.completed = "fire", {2: "straight"}
    with pytest.raises(IllegalAction) as refused:
        b.apply(Fire(2, 1))
    assert refused.value.rule == "002 '13a3'"


def test_6a1_a_target_outside_the_firing_positions():
    b = tail_chase()
    spit, bf = b.unit(2), b.unit(1)
    bf.hex = (9, 10)  # two rows south: beside, not ahead
    why = fr.refusal(spit, bf, b.entered)
    assert why is not None and why[0] == "002 '6a1'"
    with pytest.raises(IllegalAction) as refused:
        b.apply(Fire(2, 1))
    assert refused.value.rule == "002 '6a1'"


def test_6a3_2_same_hex_same_altitude_the_last_to_enter_facing_alike():
    b = tail_chase()
    spit, bf = b.unit(2), b.unit(1)
    bf.hex = spit.hex
    b.entered[1] = -1  # the Bf 109 was there first
    assert fr.refusal(spit, bf, b.entered) is None
    bf.facing = 3
    assert fr.refusal(spit, bf, b.entered)[0] == "002 '6a3.2'"
    bf.facing = 0
    b.entered[1] = b.entered[2] + 1  # entered after the Spitfire
    assert fr.refusal(spit, bf, b.entered)[0] == "002 '6a3.2'"


def test_6a4_same_hex_one_altitude_apart_whatever_the_facings():
    b = tail_chase()
    spit, bf = b.unit(2), b.unit(1)
    bf.hex, bf.facing, bf.altitude = spit.hex, 3, spit.altitude + 1
    assert fr.refusal(spit, bf, b.entered) is None
    assert fr.attack_modifier(spit, bf)["6c1.2 altitude"] == -2


def test_holding_fire_ends_the_units_fire_phase():
    b = tail_chase()
    b.apply(Hold(2))
    assert b.phase == "mark"


def head_on(options, speeds):
    """A Bf 109E (axis, 1) flying west at the Spitfire (allied, 2) flying east, one hex
    apart: 15a's example 'target "A" at a speed of "7" and firing unit "B" at "5"'."""
    units = [unit("axis", BF109, speed=5), unit("allied", SPITFIRE, speed=5)]
    b = battle(units, [((10, 8), 3), ((9, 8), 0)], marker="allied")
    b.scenario = type(b.scenario)(**{**b.scenario.__dict__, "options": options})
    b.unit(1).speed, b.unit(2).speed = speeds
    return b


def test_15a_closing_at_12_allows_no_fire():
    b = head_on(("head_on",), (7, 5))
    spit, bf = b.unit(2), b.unit(1)
    assert fr.red_dot(spit, bf)
    why = fr.refusal(spit, bf, b.entered, head_on=True)
    assert why is not None and why[0] == "002 '15a'" and "12" in why[1]
    b.phase, b.completed = "fire", {2: "straight"}
    with pytest.raises(IllegalAction) as refused:
        b.apply(Fire(2, 1))
    assert refused.value.rule == "002 '15a'"


def test_15a_closing_at_11_may_fire():
    b = head_on(("head_on",), (6, 5))
    assert fr.refusal(b.unit(2), b.unit(1), b.entered, head_on=True) is None


def test_15a_off_head_on_fire_at_any_closing_speed():
    b = head_on((), (7, 5))
    assert fr.refusal(b.unit(2), b.unit(1), b.entered) is None
    b.phase, b.completed = "fire", {2: "straight"}
    assert Fire(2, 1) in b.legal_actions()


def test_15a_not_a_red_dot_from_behind():
    b = head_on(("head_on",), (7, 5))
    b.unit(1).facing = 0  # flying away: the line crosses its rear hexside
    assert not fr.red_dot(b.unit(2), b.unit(1))
    assert fr.refusal(b.unit(2), b.unit(1), b.entered, head_on=True) is None


def test_options_are_checked_and_kept_in_the_scenario():
    from rules.airpirates.units import Scenario

    data = {"units": [unit("axis", BF109), unit("allied", SPITFIRE)], "options": ["head_on"]}
    assert Scenario.from_json(data).to_json()["options"] == ["head_on"]
    with pytest.raises(ValueError, match="options"):
        Scenario.from_json({**data, "options": ["no such rule"]})

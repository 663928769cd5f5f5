"""002 15b spotting (option ``spotting``): the Spotting Phase, every modifier of 15b3, the
opposed rolls, tallies shared by wingmen and lost by fire, fire only at a tallied unit;
the sun's direction at the set-up (9a1.7); 17b's break-contact alternative."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates import spotting as sp
from rules.airpirates.actions import (
    BreakContact,
    EndAnnouncements,
    EndSpotting,
    Fire,
    Hold,
    IllegalAction,
    PassMarker,
    Spot,
    Sun,
)
from rules.airpirates.state import PHASES, new_battle
from rules.airpirates.units import Scenario, basic_game
from rules.airpirates.words import log_sentence
from rules.dice import ScriptedDice


def spotting_battle(units, places, *, options=("spotting",), sun=None, marker="axis"):
    """A hand-placed battle (``airpirates_helpers.battle``) with spotting on."""
    b = battle(units, places, marker=marker)
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    b.spotting = sp.initial(b)
    b.spotting["sun"] = sun
    return b


def duel(**kw):
    """A Bf 109E (unit 1) three hexes behind a Spitfire (unit 2), both flying east at
    speed 2 (no move in impulse I): impulse I's Spotting Phase, the axis to act."""
    b = spotting_battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=2)],
        [((5, 5), 0), ((8, 5), 0)],
        **kw,
    )
    mark_all(b, {})
    assert move_all(b) == [] and b.phase == "spot"
    return b


# -- the phase and the set-up ------------------------------------------------------------
def test_15b1_the_spotting_phase_comes_between_move_and_fire():
    assert PHASES.index("move") < PHASES.index("spot") < PHASES.index("fire")
    b = duel()
    assert b.phase_name() == "Spotting Phase of impulse I"
    assert b.legal_actions() == [PassMarker(), Spot(1, 2), EndSpotting()]


def test_off_there_is_no_sun_and_no_spotting_phase():
    b = new_battle(basic_game("Bf 109E Wingman", "Hurricane Mk I"), 3)
    assert b.phase == "place" and b.spotting is None and "spotting" not in b.to_json()
    off = battle([unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=2)],
                 [((5, 3), 0), ((5, 12), 0)])  # fmt: skip
    seen = set()
    while off.turn < 2:
        seen.add(off.phase)
        move_all(off) if off.phase == "move" else mark_all(off, {})
    assert "spot" not in seen and "move" in seen


def test_9a1_7_the_holder_indicates_the_sun_at_the_set_up():
    scenario = {**basic_game("Bf 109E Wingman", "Hurricane Mk I"), "options": ["spotting"]}
    scenario["sequence_marker"] = "allied"
    b = new_battle(scenario, 3)
    assert b.phase == "sun" and b.current_side() == 1
    assert b.legal_actions() == [Sun(d) for d in range(6)]  # no passing the marker
    with pytest.raises(IllegalAction) as refused:
        b.apply(PassMarker())
    assert refused.value.rule == "002 '9a1.7'"
    b.apply(Sun(4))
    assert b.spotting["sun"] == 4 and b.phase == "place"
    assert b.log[-1]["event"] == "sun direction" and b.log[-1]["toward"] == "NW"
    with pytest.raises(IllegalAction, match="set-up"):
        b.apply(Sun(2))


# -- 15b3: every modifier ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("quality", "modifier"),
    [("green", -2), ("inexperienced", -1), ("average", 0), ("experienced", 2), ("ace", 4)],
)
def test_15b3_1_pilot_quality(quality, modifier):
    b = duel()
    b.unit(1).quality = quality
    b.unit(1).hex = (7, 5)  # one hex behind: range -1 alone beside the pilot
    assert sp.modifiers(b.unit(1), b.unit(2), None) == {
        "15b3.3 range": -1,
        **({"15b3.1 pilot": modifier} if modifier else {}),
    }


def test_15b3_2_minus_two_per_altitude_level_the_books_example():
    b = duel()
    b.unit(1).altitude, b.unit(2).altitude = 4, 2  # "a two altitude level difference"
    assert sp.modifiers(b.unit(1), b.unit(2), None)["15b3.2 altitude"] == -4


def test_15b3_3_minus_one_per_hex_of_range_the_books_example():
    b = duel()
    assert sp.modifiers(b.unit(1), b.unit(2), None) == {"15b3.3 range": -3}  # three hexes
    b.unit(1).hex = b.unit(2).hex
    assert sp.modifiers(b.unit(1), b.unit(2), None) == {}  # same hex: range 0, not behind


@pytest.mark.parametrize(
    ("sun", "target_altitude", "modifier"),
    [(0, 4, -5), (0, 3, 0), (0, 2, 0), (3, 4, 0), (None, 4, 0)],
)
def test_15b3_4_into_the_sun(sun, target_altitude, modifier):
    """-5 when the target faces the sun's direction and is higher than the spotter."""
    b = duel(sun=sun)
    b.unit(1).altitude, b.unit(2).altitude = 3, target_altitude  # the Spitfire faces 0 (E)
    got = sp.modifiers(b.unit(1), b.unit(2), sun).get("15b3.4 into the sun", 0)
    assert got == modifier


def test_15b3_5_all_round_vision_canopy():
    b = duel()
    b.unit(1).card["all_round_canopy"] = True
    assert sp.modifiers(b.unit(1), b.unit(2), None)["15b3.5 all-round vision canopy"] == 2


def test_15b3_6_target_in_the_rear_sector():
    b = duel()
    assert "15b3.6 rear sector" not in sp.modifiers(b.unit(1), b.unit(2), None)  # ahead
    assert sp.modifiers(b.unit(2), b.unit(1), None)["15b3.6 rear sector"] == -3  # behind


# -- 15b4, 15b5: the rolls -----------------------------------------------------------------
@pytest.mark.parametrize(("rolls", "made"), [([7, 3], True), ([6, 3], False), ([9, 8], False)])
def test_15b5_the_spotter_must_roll_more_than_the_target(rolls, made):
    b = duel()
    b.dice = ScriptedDice(rolls)
    b.apply(Spot(1, 2))  # range -3: 7 - 3 = 4 > 3 tallies; 6 - 3 = 3, equal, fails
    entry = b.log[-1]
    assert entry["event"] == ("tallied" if made else "not spotted")
    assert entry["numbers"] == [max(1, rolls[0] - 3), rolls[1]]
    assert sp.has_tally(b, b.unit(1), b.unit(2)) is made
    with pytest.raises(IllegalAction):  # 15b2: one attempt a phase
        b.apply(Spot(1, 2))


def test_15b4_a_spotting_number_below_one_counts_as_one():
    b = duel()
    b.unit(1).altitude = 0
    b.unit(2).altitude = 4  # -8 and -3: 2 - 11 counts as 1, as the target's 1
    b.dice = ScriptedDice([2, 1])
    b.apply(Spot(1, 2))
    assert b.log[-1]["numbers"] == [1, 1] and b.log[-1]["event"] == "not spotted"


# -- 15b9: fire only at a tallied unit, +4 when unseen -------------------------------------
def to_fire(b, rolls):
    b.dice = ScriptedDice(rolls)
    while b.phase == "spot":
        b.apply(EndSpotting() if b.current_side() == 1 else Spot(1, 2))
    return b


def slow(side, aircraft):
    """A unit at speed 3, which moves (and so completes a straight of one hex) in impulse I."""
    return unit(side, aircraft, speed=3)


def close_duel(**kw):
    """The Bf 109E two hexes behind the Spitfire, both at speed 3 (moving in impulse I)."""
    b = spotting_battle(
        [slow("axis", BF109), slow("allied", SPITFIRE)], [((5, 5), 0), ((7, 5), 0)], **kw
    )
    mark_all(b, {})
    move_all(b)  # both complete their straight (speed 1: one hex)
    assert b.phase == "spot"
    return b


def test_15b9_no_fire_without_a_tally():
    b = to_fire(close_duel(), [1, 10])  # the attempt fails: no Fire Phase for anyone
    assert b.phase == "mark" and not any(e["event"] == "fired" for e in b.log)
    b = spotting_battle(
        [slow("axis", BF109), slow("allied", SPITFIRE), slow("allied", SPITFIRE)],
        [((5, 5), 0), ((7, 5), 0), ((7, 6), 0)],  # both Spitfires in the Bf 109E's sights
    )
    mark_all(b, {})
    move_all(b)
    b.spotting["tallies"] = [[1, 2]]
    b.apply(EndSpotting())
    b.apply(EndSpotting())
    assert b.phase == "fire" and Fire(1, 2) in b.legal_actions()
    assert Fire(1, 3) not in b.legal_actions()
    with pytest.raises(IllegalAction) as refused:
        b.apply(Fire(1, 3))
    assert refused.value.rule == "002 '15b9'" and "no tally" in refused.value.message


def test_15b9_plus_four_when_the_target_has_no_tally_on_the_firer():
    b = to_fire(close_duel(), [10, 1])
    assert b.phase == "fire" and Fire(1, 2) in b.legal_actions()
    b.dice = ScriptedDice([1, 10])
    b.apply(Fire(1, 2))
    assert b.log[-1]["attack"]["15b9 target has no tally"] == 4
    b2 = to_fire(close_duel(), [10, 1])
    b2.spotting["tallies"].append([2, 1])  # the Spitfire has seen it too
    b2.dice = ScriptedDice([1, 10])
    b2.apply(Fire(1, 2))
    assert "15b9 target has no tally" not in b2.log[-1]["attack"]


# -- 15b7: losing tallies ---------------------------------------------------------------------
def three_units():
    """Two Bf 109Es (units 1 and 2), each with a Spitfire (3 and 4) two hexes ahead."""
    b = spotting_battle(
        [slow("axis", BF109), slow("axis", BF109), slow("allied", SPITFIRE),
         slow("allied", SPITFIRE)],
        [((5, 5), 0), ((5, 9), 0), ((7, 5), 0), ((7, 9), 0)],
    )  # fmt: skip
    b.spotting["wingmen"] = []  # each alone: no sharing in this test
    mark_all(b, {})
    move_all(b)
    return b


def test_15b7_tallies_are_lost_at_the_end_of_the_fire_phase():
    b = three_units()
    b.spotting["tallies"] = [[1, 3], [1, 4], [2, 4], [3, 1], [3, 2], [4, 1]]
    b.apply(EndSpotting())
    b.apply(EndSpotting())
    b.dice = ScriptedDice([1, 10])
    b.apply(Fire(1, 3))
    assert [1, 4] in b.spotting["tallies"]  # 15b7.3: lost only at the Fire Phase's end
    b.apply(Hold(2))
    assert b.phase != "fire"
    # 15b7.1: unit 1 keeps only its target; 15b7.2: unit 3 keeps only its firer, seen before;
    # unit 2 held its fire and unit 4 was not fired at: theirs are kept
    assert b.spotting["tallies"] == [[1, 3], [2, 4], [3, 1], [4, 1]]
    lost = {e["unit"]: e["targets"] for e in b.log if e["event"] == "tallies lost"}
    assert lost == {1: [4], 3: [2]}


# -- 15b8: wingmen -----------------------------------------------------------------------------
def test_15b8_1_identical_units_of_a_side_are_wingmen():
    b = new_battle({**basic_game("Bf 109E Wingman", "Hurricane Mk I"), "options": ["spotting"]}, 1)
    assert b.spotting["wingmen"] == [[1, 2], [3, 4]]


def wing_pair(radio=True, apart=((5, 5), (5, 6))):
    b = spotting_battle(
        [unit("axis", BF109, speed=2), unit("axis", BF109, speed=2),
         unit("allied", SPITFIRE, speed=2)],
        [(apart[0], 0), (apart[1], 0), ((8, 5), 0)],
    )  # fmt: skip
    for u in b.units[:2]:
        u.card["radio"] = radio
    mark_all(b, {})
    return b


def test_15b8_2_a_wingman_records_the_tally_with_radio():
    b = wing_pair(apart=((5, 5), (5, 12)))  # far apart: the radio carries it
    b.dice = ScriptedDice([10, 1])
    b.apply(Spot(1, 3))
    assert sp.has_tally(b, b.unit(2), b.unit(3))
    assert b.log[-1]["event"] == "tally shared" and b.log[-1]["wingman"] == 1


@pytest.mark.parametrize(
    ("apart", "shared"), [(((5, 5), (5, 6)), True), (((5, 5), (5, 12)), False)]
)
def test_17a_without_radio_only_within_two_hexes_at_one_altitude(apart, shared):
    b = wing_pair(radio=False, apart=apart)
    b.dice = ScriptedDice([10, 1])
    b.apply(Spot(1, 3))
    assert sp.has_tally(b, b.unit(2), b.unit(3)) is shared


# -- 17b: the break-contact alternative ----------------------------------------------------
def to_turn_two(options):
    b = spotting_battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=2)],
        [((5, 3), 0), ((5, 12), 0)],
        options=options,
        marker="allied",
    )
    while b.turn < 2:
        if b.phase == "move":
            move_all(b)
        elif b.phase == "spot":
            b.apply(EndSpotting())
        else:
            mark_all(b, {})
    return b


@pytest.mark.parametrize("alternative", [True, False])
def test_17b_breaking_contact_erases_the_tallies_and_the_unit_stays(alternative):
    options = ["spotting", "break_contact"] + (["break_tallies"] if alternative else [])
    b = to_turn_two(options)
    b.spotting["tallies"] = [[1, 2], [2, 1]]
    assert b.phase == "break"
    b.apply(EndAnnouncements())
    b.dice = ScriptedDice([10, 1])
    b.apply(BreakContact(1))
    spit = b.unit(1)
    assert spit.eliminated is not alternative and spit.disengaged is not alternative
    if alternative:
        assert b.spotting["tallies"] == [] and b.log[-1]["event"] == "tallies broken"
        assert not b.is_over() and spit.hex is not None


def test_options_that_need_others_are_refused():
    base = basic_game("Bf 109E Wingman", "Hurricane Mk I")
    for options in (["bounce"], ["break_tallies", "spotting"], ["break_tallies"]):
        with pytest.raises(ValueError, match="needs the options"):
            Scenario.from_json({**base, "options": options})


def test_the_log_tells_the_sun_and_each_attempt_in_words():
    b = duel(sun=1)
    b.dice = ScriptedDice([9, 2])
    b.apply(Spot(1, 2))
    sentence = log_sentence(b.log[-1])
    assert sentence == (
        "unit 1 tries to spot unit 2: d10 9 and 2; spotting 15b3.3 range -3; spotting numbers "
        "6 against 2: a tally. [002 '15b5']"
    )
    assert log_sentence({"event": "sun direction", "side": "axis", "toward": "SE",
                         "rule": "002 '9a1.7'"}) == "axis puts the sun to the SE. [002 '9a1.7']"  # fmt: skip
    lost = {"event": "tallies lost", "unit": 3, "targets": [2, 4], "rule": "002 '15b7'"}
    assert log_sentence(lost) == "unit 3 loses its tally on unit 2, unit 4. [002 '15b7']"

"""002 13a5 variable starting ammunition, 13a6 hidden ammunition (the view per side) and
13b3.3.2 / 17a R/T, each an option: fixed dice, each option on and off."""

from dataclasses import replace

import pytest
from airpirates_helpers import SPITFIRE, battle, mark_all, move_all, unit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.airpirates import radio as rd
from rules.airpirates import spotting as sp
from rules.airpirates.actions import Fire
from rules.airpirates.ammunition import ammunition_visible, change_for
from rules.airpirates.fire import defence_modifier
from rules.airpirates.state import AirPiratesBattle, new_battle, replay
from rules.airpirates.system import RandomPilot
from rules.airpirates.units import Scenario, Unit, basic_game, catalog_card
from rules.dice import ScriptedDice
from rules.tactical import seen_whole

BF110 = "Bf 110C"  # forward 6 boxes, a rear gun with 6 boxes
MINE = ("hidden_ammunition", "honcho", "radio", "variable_ammunition")


def setup(options, script, *, axis=None, allied=None):
    """A Bf 110C (axis, unit 1) against a Spitfire Mk I (allied, unit 2), the marker given
    (no 2a roll), set up with the scripted dice."""
    units = [
        {**unit("axis", BF110), **(axis or {})},
        {**unit("allied", SPITFIRE), **(allied or {})},
    ]
    scenario = {"name": "t", "units": units, "sequence_marker": "axis", "options": options}
    dice = ScriptedDice(script)
    b = AirPiratesBattle(Scenario.from_json(scenario), 1, dice)
    assert dice.remaining == 0
    return b


def test_change_by_modified_roll():
    assert [change_for(r) for r in range(-1, 13)] == [
        2,
        2,
        2,
        1,
        0,
        0,
        0,
        0,
        -1,
        -1,
        -2,
        -2,
        -2,
        -2,
    ]


def test_variable_ammunition_rolls_each_gun_position_with_quality():
    # Bf 110C: ace pilot 1-2 -> 1: +2 (6 -> 8); green gunner 9+2: -2 (6 -> 4);
    # Spitfire, average pilot: 10: -2 (5 -> 3)
    b = setup(["variable_ammunition"], [1, 9, 10],
              axis={"quality": "ace", "gunner_quality": "green"})  # fmt: skip
    assert b.unit(1).card["ammunition"] == 8 and b.unit(1).card["rear_ammunition"] == 4
    assert b.unit(2).card["ammunition"] == 3
    rolled = [e for e in b.log if e["event"] == "variable starting ammunition"]
    assert [(e["unit"], e["gun"], e["roll"], e["modifier"], e["boxes"]) for e in rolled] == [
        (1, "forward", 1, -2, 8), (1, "rear", 9, 2, 4), (2, "forward", 10, 0, 3)
    ]  # fmt: skip
    assert all(e["rule"] == "002 '13a5'" for e in rolled)
    assert [r.purpose for r in b.dice.rolls][0] == "002 13a5 starting ammunition: unit 1 forward"


def test_variable_ammunition_never_below_one_box():
    card = dict(catalog_card(SPITFIRE), ammunition=1)
    b = setup(["variable_ammunition"], [5, 4, 10], allied={"card": card})
    assert b.unit(2).card["ammunition"] == 1  # 1 - 2, "no less than one"


def test_without_the_option_no_roll_and_the_card_boxes():
    b = setup([], [])  # no die rolled: a roll would run the script out
    assert b.unit(1).card["ammunition"] == 6 and b.unit(2).card["ammunition"] == 5
    assert not any(e["event"] == "variable starting ammunition" for e in b.log)


def test_hidden_ammunition_kept_from_the_other_side_until_the_end():
    b = setup(["hidden_ammunition", "variable_ammunition"], [2, 5, 8])
    axis_view, allied_view = b.view(0), b.view(1)
    assert axis_view["units"][0]["ammunition"]["forward"] == {"start": 7, "used": 0, "left": 7}
    assert axis_view["units"][1]["ammunition"] is None
    assert allied_view["units"][0]["ammunition"] is None
    assert allied_view["units"][1]["ammunition"] == {"forward": {"start": 4, "used": 0, "left": 4}}
    assert b.view(None)["units"][0]["ammunition"] is None  # a spectator sees neither
    whole = seen_whole(b).view(None)["units"]  # one person flying both sides sees both
    assert [u["ammunition"]["forward"]["start"] for u in whole] == [7, 4]
    assert b.view(None)["units"][1]["ammunition"] is None  # the battle itself unmarked
    assert {e["unit"] for e in b.log_for(0) if e["event"].startswith("variable")} == {1}
    assert {e["unit"] for e in b.log_for(1) if e["event"].startswith("variable")} == {2}
    # the enemy's rolls are blanked in place, not dropped: the log keeps its positions
    blanked = [e for e in b.log_for(0) if e["event"] == "starting ammunition kept hidden"]
    assert {e["unit"] for e in blanked} == {2} and len(b.log_for(0)) == len(b.log)
    assert not any(k in e for e in blanked for k in ("roll", "boxes", "card", "modifier"))
    b._end("test")
    assert b.view(1)["units"][0]["ammunition"]["rear"]["start"] == 6
    assert len(b.log_for(1)) == len(b.log)


def test_without_hidden_ammunition_everyone_sees_it():
    b = setup(["variable_ammunition"], [2, 5, 8])
    for side in (0, 1, None):
        assert ammunition_visible(b, b.unit(2), side) == {
            "forward": {"start": 4, "used": 0, "left": 4}
        }
        assert b.log_for(side) == b.log


# -- 13b3.3.2, 17a ----------------------------------------------------------------------


def chase(options):
    """The Spitfire (allied, 2) two hexes behind the Bf 110C (axis, 1) in the Fire Phase."""
    target = dict(unit("axis", BF110, speed=2))
    target["card"] = dict(catalog_card(BF110), pilot_armor=True)
    b = battle([target, unit("allied", SPITFIRE, speed=4)], [((10, 8), 0), ((8, 8), 0)],
               marker="allied")  # fmt: skip
    b.scenario = replace(b.scenario, options=tuple(options))
    mark_all(b, {})
    move_all(b)
    assert b.phase == "fire"
    return b


def pilot_hit(b, *more):
    """One hit on the crew, the pilot hit (13b2.1's d10 1), then ``more`` dice."""
    defence = sum(defence_modifier(b.unit(1)).values())
    b.dice = ScriptedDice([2, 4 - defence, 3, 1, *more])
    b.apply(Fire(2, 1))
    assert b.dice.remaining == 0
    return b.unit(1)


def test_a_ten_after_a_single_crew_hit_damages_the_rt():
    b = chase(["radio"])
    target = pilot_hit(b, 10)
    assert target.damage["crew"] == 1 and target.radio_damaged and not rd.has_radio(target)
    assert not sp.has_radio(b, target)  # 15b8.3: the wingmen's tallies read it
    assert [e for e in b.log if e["event"] == "R/T damaged"][0]["rule"] == "002 '13b3.3.2'"
    assert Unit.from_json(target.to_json()).radio_damaged  # kept in the record


def test_below_ten_the_rt_works():
    target = pilot_hit(chase(["radio"]), 9)
    assert target.damage["crew"] == 1 and rd.has_radio(target)


def test_without_the_option_no_rt_roll():
    b = chase([])
    target = pilot_hit(b)  # the script would run out if a die were rolled
    assert rd.has_radio(target) and "radio_damaged" not in target.to_json()


def test_a_card_without_radio_lacks_it():
    lacking = dict(catalog_card(SPITFIRE), radio=False)
    b = setup([], [], allied={"card": lacking})
    assert not rd.has_radio(b.unit(2)) and rd.has_radio(b.unit(1))


# -- property: every option of mine on (17c's too), random play ends and replays -------


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_random_battles_with_these_options_end_and_replay(seed):
    aces = basic_game("Bf 110C", "Hurricane Mk I", quality="ace")  # 17c: aces may push
    b = new_battle({**aces, "options": list(MINE)}, seed)
    pilots = [RandomPilot(seed), RandomPilot(seed + 1)]
    while not b.is_over():
        b.apply(pilots[b.current_side()].choose(b))
    assert all(u.marker is None or u.honcho is not None or "honcho" not in u.marker
               for u in b.units)  # fmt: skip
    assert replay(b.scenario, b.seed, b.actions).to_json() == b.to_json()
    assert [e["event"] for e in b.log].count("variable starting ammunition") == 6


@pytest.mark.parametrize("seed", [3, 8])
def test_the_ammunition_rolled_is_what_the_guns_may_fire(seed):
    """Random play: no unit fires more boxes than it started with."""
    scenario = {**basic_game("Bf 110C", "Hurricane Mk I"), "options": ["variable_ammunition"]}
    b = new_battle(scenario, seed)
    pilots = [RandomPilot(seed), RandomPilot(seed + 1)]
    while not b.is_over():
        b.apply(pilots[b.current_side()].choose(b))
    for u in b.units:
        assert u.ammunition_used <= u.card["ammunition"]
        assert u.rear_ammunition_used <= u.card["rear_ammunition"]

"""002 13d2 ramming (option ``ramming``): a Russian, Japanese or Polish pilot who moved
into an enemy's hex at its altitude may announce a ram in the Fire Phase instead of firing;
resolved after it: d10 + his speed + his quality against the target's d10 + its speed
+4 with a tally on him (-4 without); the target's equal or more fails (13d2.2); a ram
that succeeds eliminates both units, the kill the rammer's."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates import collisions as co
from rules.airpirates.actions import Fire, action_from_json
from rules.airpirates.units import Scenario
from rules.dice import ScriptedDice

RAM = Fire(2, 1, "ram")


def closing(options=("ramming",), nation="Soviet", quality="average", altitude=3):
    """A Bf 109E (axis, 1, speed 2: still in impulse I) and a Spitfire (allied, 2, speed
    4) flown by a ``nation`` pilot that moves into its hex in impulse I."""
    target = unit("axis", BF109, speed=2, altitude=altitude)
    rammer = unit("allied", SPITFIRE, speed=4, altitude=3, nation=nation, quality=quality)
    b = battle([target, rammer], [((10, 8), 0), ((9, 8), 0)], marker="allied")
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    mark_all(b, {})
    move_all(b)
    assert b.phase == "fire" and b.unit(1).hex == b.unit(2).hex
    return b


def ram(b, rolls):
    b.dice = ScriptedDice(rolls)
    b.apply(RAM)
    assert b.dice.remaining == 0
    return [e for e in b.log if e["rule"] == "002 '13d2.2'"][-1]


def test_13d2_a_ram_that_beats_the_target_eliminates_both():
    b = closing()
    assert RAM in b.legal_actions()
    out = ram(b, [9, 5])  # 9 + 4 = 13 against 5 + 2 + 4 (it kept its tally) = 11
    assert out["event"] == "rammed" and out["modifiers"] == [4, 6]
    assert b.unit(1).eliminated and b.unit(2).eliminated
    assert {"attacker": 2, "target": 1, "turn": 1} in b.kills
    assert b.is_over()


def test_13d2_2_the_target_equal_or_more_fails():
    b = closing()
    out = ram(b, [7, 5])  # 11 against 11
    assert out["event"] == "ram failed"
    assert not b.unit(1).eliminated and not b.unit(2).eliminated
    assert b.phase == "mark"


def test_13d2_1_2_the_rammers_quality_counts():
    b = closing(quality="ace")
    out = ram(b, [5, 5])  # 5 + 4 + 2 = 11 against 11: still fails
    assert out["modifiers"][0] == 6 and out["event"] == "ram failed"


def test_13d2_1_4_a_target_without_a_tally_subtracts_four():
    b = closing()
    b.shots = [[1, "forward", 2]]  # the target fired: it lost its tally (the ruling)
    b.dice = ScriptedDice([1, 10])
    co.ram(b, b.unit(2), b.unit(1))  # 1 + 4 = 5 against 10 + 2 - 4 = 8
    out = b.log[-1]
    assert out["modifiers"] == [4, -2] and out["event"] == "ram failed"


def test_13d2_the_rammer_fires_no_gun_and_the_pilots_may_bail_out():
    b = closing(options=("bailout", "ramming"))
    ram(b, [9, 5, 3, 3])  # rammed; bail-outs 3 + 2 each: survived (13c3)
    assert b.unit(2).ammunition_used == 0
    assert [b.unit(u).bailout["outcome"] for u in (1, 2)] == ["survived", "survived"]


@pytest.mark.parametrize(
    ("options", "nation", "altitude"),
    [((), "Soviet", 3), (("ramming",), "British", 3), (("ramming",), "", 3),
     (("ramming",), "Japanese", 4)],
)  # fmt: skip
def test_13d2_no_ram_without_the_option_a_ramming_nation_or_the_same_altitude(
    options, nation, altitude
):
    b = closing(options, nation, altitude=altitude)
    assert RAM not in b.legal_actions()
    error = b.refusal(RAM)
    assert error is not None
    if options:
        assert error.rule == "002 '13d2'"


def test_13d2_no_ram_after_firing():
    b = closing()
    b.dice = ScriptedDice([1, 10])
    b.apply(Fire(2, 1))
    assert b.phase == "mark"  # nothing left: the ram is gone with the tally


def test_a_ram_round_trips_as_json():
    assert action_from_json(RAM.to_json()) == RAM
    assert str(RAM) == "unit 2 tries to ram unit 1"

"""Survival rule sets (rules/careers/survival.py) with fixed dice."""

from __future__ import annotations

import pytest

from rules.careers import OUTCOMES, roll_survival
from rules.dice import Dice, DiceError, ScriptedDice


def roll(rule_set, script, **kwargs):
    dice = ScriptedDice(script)
    outcome = roll_survival(rule_set, dice=dice, **kwargs)
    assert dice.remaining == 0, "every scripted die must be used"
    assert outcome.outcome in OUTCOMES
    assert [r.value for r in outcome.rolls] == list(script)
    assert outcome.rolls_json == [r.to_json() for r in outcome.rolls]
    assert outcome.explanation.endswith(".")
    return outcome


# -- Angels 20 (000 PILOT SURVIVAL) ---------------------------------------------
@pytest.mark.parametrize(
    ("territory", "die", "total", "survives"),
    [
        ("friendly", 2, 3, False),
        ("friendly", 3, 4, True),
        ("neutral", 3, 3, False),
        ("neutral", 4, 4, True),
        ("enemy", 4, 3, False),
        ("enemy", 5, 4, True),
    ],
)
def test_angels20_territory_modifiers(territory, die, total, survives):
    # Fate / rescue / wound dice follow; 6s keep every branch short and alive.
    dice = ScriptedDice([die, 6, 6, 6])
    outcome = roll_survival("angels20", dice=dice, territory=territory)
    assert outcome.total == total
    assert outcome.target == 4
    assert outcome.explanation.split("; ")[1].startswith("survives") is survives


def test_angels20_friendly_clean_survival_returns():
    out = roll("angels20", [4], territory="friendly")
    assert (out.outcome, out.wounded_turns, out.total) == ("returned", 0, 5)
    assert out.modifiers == (("friendly territory", 1),)


def test_angels20_bare_survival_is_wounded():
    out = roll("angels20", [3, 5], territory="friendly")
    assert (out.outcome, out.wounded_turns) == ("wounded", 3)
    out = roll("angels20", [3, 1], territory="friendly")
    assert (out.outcome, out.wounded_turns) == ("wounded", 1)


def test_angels20_failure_fate():
    assert roll("angels20", [2, 3], territory="friendly").outcome == "killed"
    out = roll("angels20", [2, 4, 2], territory="friendly")
    assert (out.outcome, out.wounded_turns) == ("seriously_wounded", 5)
    assert roll("angels20", [4, 1], territory="enemy").outcome == "killed"
    assert roll("angels20", [4, 6], territory="enemy").outcome == "captured"
    assert roll("angels20", [1, 4], territory="neutral").outcome == "missing"
    assert roll("angels20", [1, 2], territory="neutral").outcome == "killed"


def test_angels20_survivor_over_enemy_territory_is_captured():
    out = roll("angels20", [6], territory="enemy")
    assert (out.outcome, out.total, out.wounded_turns) == ("captured", 5, 0)
    # Barely surviving over enemy territory: captured, no wound roll.
    assert roll("angels20", [5], territory="enemy").outcome == "captured"


def test_angels20_neutral_rescue():
    assert roll("angels20", [6, 4], territory="neutral").outcome == "returned"
    assert roll("angels20", [6, 3], territory="neutral").outcome == "missing"
    out = roll("angels20", [4, 5, 6], territory="neutral")
    assert (out.outcome, out.wounded_turns) == ("wounded", 3)


def test_angels20_ignores_hits():
    out = roll("angels20", [4], territory="friendly", cockpit_hits=2, crew_hits=1, fires=1)
    assert out.outcome == "returned"


# -- Air Force bailing-out table (001 XIX) ------------------------------------------
@pytest.mark.parametrize(
    ("hits", "last_success"),
    [(0, 5), (1, 4), (2, 2), (3, 2)],
)
def test_air_force_table_columns(hits, last_success):
    for die in range(1, 7):
        script = [die]
        if die <= last_success and hits:
            script.append(6)  # wound length
        out = roll("air_force", script, territory="friendly", cockpit_hits=hits)
        assert out.survived is (die <= last_success), (hits, die)
        assert out.target == last_success
        if die > last_success:
            assert out.outcome == "killed"


def test_air_force_wounds_from_cockpit_hits():
    assert roll("air_force", [5], territory="friendly").outcome == "returned"
    out = roll("air_force", [4, 2], territory="friendly", cockpit_hits=1)
    assert (out.outcome, out.wounded_turns) == ("wounded", 1)
    out = roll("air_force", [1, 6], territory="friendly", cockpit_hits=2)
    assert (out.outcome, out.wounded_turns) == ("seriously_wounded", 9)


def test_air_force_enemy_territory_always_captured():
    assert roll("air_force", [1], territory="enemy").outcome == "captured"
    assert roll("air_force", [2], territory="enemy", cockpit_hits=2).outcome == "captured"
    assert roll("air_force", [6], territory="enemy").outcome == "killed"


def test_air_force_neutral_rescue_or_missing():
    assert roll("air_force", [3, 4], territory="neutral").outcome == "returned"
    assert roll("air_force", [3, 1], territory="neutral").outcome == "missing"


def test_air_force_ignores_air_pirates_inputs():
    assert roll("air_force", [5], territory="friendly", crew_hits=2, fires=3).outcome == "returned"


# -- Air Pirates (002 13c) ----------------------------------------------------------
def test_air_pirates_two_crew_hits_no_bail_out():
    out = roll("air_pirates", [], territory="friendly", crew_hits=2)
    assert (out.outcome, out.total, out.target, out.rolls) == ("killed", None, None, ())
    assert (
        roll("air_pirates", [], territory="friendly", crew_hits=3, bailed_out_early=True).outcome
        == "killed"
    )


@pytest.mark.parametrize(
    ("die", "kwargs", "total", "ok"),
    [
        (5, {}, 5, True),
        (4, {}, 4, False),
        (10, {}, 10, True),
        (8, {"crew_hits": 1}, 5, True),
        (7, {"crew_hits": 1}, 4, False),
        (9, {"fires": 2}, 5, True),
        (8, {"fires": 2}, 4, False),
        (3, {"bailed_out_early": True}, 5, True),
        (2, {"bailed_out_early": True}, 4, False),
        (10, {"crew_hits": 1, "fires": 1, "bailed_out_early": True}, 7, True),
        (10, {"bailed_out_early": True}, 12, True),
    ],
)
def test_air_pirates_modifiers(die, kwargs, total, ok):
    dice = ScriptedDice([die, 6])  # 6: wound length when a crew hit wounds
    out = roll_survival("air_pirates", dice=dice, territory="friendly", **kwargs)
    assert out.total == total
    assert out.target == 5
    assert out.survived is ok
    if not ok:
        assert out.outcome == "killed"
        assert out.victory_point_reduction == 0


def test_air_pirates_outcomes_by_area():
    out = roll("air_pirates", [7], territory="friendly")
    assert (out.outcome, out.victory_point_reduction) == ("returned", 5)
    out = roll("air_pirates", [7], territory="enemy")
    assert (out.outcome, out.victory_point_reduction) == ("captured", 2)
    out = roll("air_pirates", [7, 5], territory="neutral")
    assert (out.outcome, out.victory_point_reduction) == ("returned", 3)
    out = roll("air_pirates", [7, 2], territory="neutral")
    assert (out.outcome, out.victory_point_reduction) == ("missing", 3)


def test_air_pirates_crew_hit_wounds():
    out = roll("air_pirates", [9, 4], territory="friendly", crew_hits=1)
    assert (out.outcome, out.wounded_turns) == ("wounded", 2)
    assert out.modifiers == (("1 crew hit(s)", -3),)


def test_air_pirates_early_bail_out_loses_the_aircraft():
    out = roll("air_pirates", [3], territory="friendly", bailed_out_early=True)
    assert out.outcome == "returned"
    assert out.aircraft_lost
    assert "13c3" in out.explanation


# -- common ---------------------------------------------------------------------
def test_rolls_kept_even_when_dice_do_not_record():
    dice = Dice(7, record=False)
    out = roll_survival("angels20", dice=dice, territory="friendly")
    assert len(out.rolls) >= 1
    assert dice.rolls == []


def test_seeded_dice_replay_exactly():
    a = roll_survival("air_pirates", dice=Dice(42), territory="neutral", crew_hits=1)
    b = roll_survival("air_pirates", dice=Dice(42), territory="neutral", crew_hits=1)
    assert a == b
    assert a.to_json()["rolls"] == b.rolls_json


def test_bad_arguments():
    with pytest.raises(ValueError):
        roll_survival("house_rules", dice=Dice(1), territory="friendly")
    with pytest.raises(ValueError):
        roll_survival("angels20", dice=Dice(1), territory="sea")
    with pytest.raises(ValueError):
        roll_survival("air_force", dice=Dice(1), territory="enemy", cockpit_hits=-1)


def test_scripted_dice_never_pass_on_unscripted_rolls():
    with pytest.raises(DiceError):
        roll_survival("angels20", dice=ScriptedDice([3]), territory="friendly")


def test_every_outcome_is_reachable():
    seen = {
        roll("angels20", [4], territory="friendly").outcome,
        roll("angels20", [3, 1], territory="friendly").outcome,
        roll("angels20", [2, 4, 1], territory="friendly").outcome,
        roll("angels20", [6], territory="enemy").outcome,
        roll("angels20", [1, 1], territory="enemy").outcome,
        roll("angels20", [6, 1], territory="neutral").outcome,
    }
    assert seen == set(OUTCOMES)

"""002 [8] and [14] victory points, 13c bailing out."""

import pytest
from airpirates_helpers import BF109, battle, mark_all, move_all, unit

from rules.airpirates import victory as vp
from rules.airpirates.actions import Fire
from rules.airpirates.units import Scenario
from rules.dice import ScriptedDice
from rules.tactical import check_result

MUSTANG = "P-51 Mustang"  # the catalog's P-51D: 13 points, printed (13c2.1)


def chase(options=(), ground="neutral", quality="ace", crew=0):
    """A Bf 109E (axis, 1) two hexes behind a P-51D (allied, 2) with one engine hit."""
    b = battle(
        [unit("axis", BF109, speed=4), unit("allied", MUSTANG, speed=2, quality=quality)],
        [((8, 8), 0), ((10, 8), 0)],
        marker="axis",
    )
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options),
                                     "ground": ground})  # fmt: skip
    b.unit(2).damage.update(engine=1, crew=crew)
    mark_all(b, {})
    move_all(b)
    assert b.phase == "fire"
    return b


@pytest.mark.parametrize(
    ("quality", "points"),
    [("green", 11), ("inexperienced", 12), ("average", 13), ("experienced", 14), ("ace", 15)],
)
def test_14b_the_p51d_worth_13_changes_with_its_pilot(quality, points):
    b = chase(quality=quality)
    assert vp.unit_value(b.unit(2)) == points


def test_13c2_1_the_p51d_ace_bailing_out_over_friendly_ground_gives_10():
    # "a P-51D (normally "13" points) with an ace pilot ("+2" points ...) is worth a total
    # of "15" ... the pilot bails out ("-5" ...), so the eliminated air unit provides the
    # opponent with only "10" victory' points."
    b = chase(options=("bailout", "points"), ground="allied")
    # 10 + 5 + 1 (rear hexside) = 16 against 1 + (4 - 1 hit) + 2 (ace) = 6: two hits, the
    # first in the engine: eliminated; the bail-out d10 5 with no modifier gets him out
    b.dice = ScriptedDice([10, 1, 1, 7, 5])
    b.apply(Fire(1, 2))
    assert b.is_over()
    result = b.result()
    assert check_result(result) == []
    assert result["victory_points"]["axis"] == 10
    mustang = result["aircraft"][1]
    assert mustang["bailout"] == {"roll": 5, "die": "d10", "modifier": 0,
                                  "outcome": "survived", "early": False}  # fmt: skip
    assert mustang["pilot_survived"] is True and mustang["victory_points"] == 10


@pytest.mark.parametrize(("ground", "points"), [("allied", 10), ("neutral", 12), ("axis", 13)])
def test_13c2_the_ground_under_the_bail_out(ground, points):
    b = chase(options=("bailout", "points"), ground=ground)
    b.dice = ScriptedDice([10, 1, 1, 7, 9])
    b.apply(Fire(1, 2))
    assert b.victory_points()["axis"] == points  # 15 less 5, 3 or 2


def test_13c1_a_failed_bail_out_and_crew_hits():
    b = chase(options=("bailout", "points"), ground="allied", crew=1)
    b.dice = ScriptedDice([10, 4, 1, 7, 7])  # 16 against 4 + 2 + 2: two hits; 7 - 3 = 4 fails
    b.apply(Fire(1, 2))
    assert b.unit(2).bailout["outcome"] == "failed" and b.unit(2).bailout["modifier"] == -3
    assert b.victory_points()["axis"] == 15


def test_13c1_no_bail_out_with_two_crew_hits():
    b = chase(options=("bailout",), crew=1)
    b.dice = ScriptedDice([10, 4, 1, 3])  # the second hit in the crew: no roll follows
    b.apply(Fire(1, 2))
    assert b.unit(2).bailout == {"roll": None, "die": "d10", "modifier": -6,
                                 "outcome": "impossible", "early": False}  # fmt: skip


def test_without_the_options_an_elimination_is_10_and_nobody_rolls():
    b = chase()
    b.dice = ScriptedDice([10, 1, 1, 7])
    b.apply(Fire(1, 2))
    assert b.unit(2).bailout is None and b.victory_points() == {"axis": 10.0, "allied": 0.0}
    assert b.result()["aircraft"][1]["pilot_survived"] is None


def test_8_one_point_per_hit_on_uneliminated_units():
    b = chase()
    b.dice = ScriptedDice([2, 1, 7])  # 2 + 6 = 8 against 6: one hit, in the fuselage
    b.apply(Fire(1, 2))
    assert b.victory_points() == {"axis": 2.0, "allied": 0.0}  # the engine hit and this one


def test_13c3_an_early_bail_out_adds_2():
    b = chase()
    assert vp.bail_out_modifier(b.unit(2), fires=1, early=True) == 0  # -2 fire, +2 early
    assert vp.bail_out(b.unit(2), 3, early=True)["outcome"] == "survived"

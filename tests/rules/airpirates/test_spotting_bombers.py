"""Where spotting (15b) meets the bombers ([20]) and the scenario's word on the bounce (9f):
a bomber's gunners fire only at a fighter they have tallied (15b9), with no counterpart of
15b9's +4; their fire counts for 15b7 and 9f; a scenario may free a unit from the bounce
("bounced": false) and name its wingmen ("wingman": an index in its units)."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates import bombers as bb
from rules.airpirates import bounce as bo
from rules.airpirates import spotting as sp
from rules.airpirates.actions import EndSpotting, Hold
from rules.airpirates.state import AirPiratesBattle
from rules.airpirates.units import Scenario
from rules.dice import ScriptedDice

HE111 = "Heinkel He 111"  # a Medium Bomber (20i4): rear die D12, two hits at most
BEHIND = (8, 8)  # two hexes behind the bomber at (10, 8) facing east: the D12


def bomber_battle(options, *, tallies=(), extra=(), places=()):
    """An He 111 (unit 1, axis) at (10, 8) facing east, a Spitfire (unit 2, allied) two
    hexes behind it, all at speed 2 and altitude 3 (nobody moves in impulse I); ``extra``
    units stand at ``places``. ``tallies`` are recorded by hand with spotting on."""
    units = [unit("axis", HE111, speed=2, altitude=3),
             unit("allied", SPITFIRE, speed=2, altitude=3), *extra]  # fmt: skip
    b = battle(units, [((10, 8), 0), (BEHIND, 0), *places], marker="allied")
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    b.spotting = sp.initial(b)
    if b.spotting is not None:
        b.spotting["tallies"] = sorted(list(t) for t in tallies)
    return b


def through_fire(b, dice):
    """Impulse I to the end of its Fire Phase: nobody spots, nobody fires."""
    b.dice = ScriptedDice(dice)
    mark_all(b, {})
    while b.impulse == 1:
        if b.phase == "move":
            assert move_all(b) == []
        elif b.phase == "spot":
            b.apply(EndSpotting())
        else:
            assert b.phase == "fire"
            b.apply(Hold(b.pending(b.current_side())[0].id))


def gunnery(b):
    return [e for e in b.log if e["event"] == "defensive fire"]


# -- 15b9: the gunners need a tally --------------------------------------------------------
def test_without_a_tally_on_the_fighter_the_bombers_gunners_do_not_fire():
    b = bomber_battle(("bombers", "spotting"), tallies=[[2, 1]])
    through_fire(b, [])  # no die rolled at all
    assert gunnery(b) == [] and sum(b.unit(2).damage.values()) == 0


def test_with_a_tally_the_gunners_fire_and_a_1_hits():
    b = bomber_battle(("bombers", "spotting"), tallies=[[1, 2]])
    through_fire(b, [1, 5])  # the D12 shows 1; 13b2 location 5: wing
    shot = gunnery(b)[0]
    assert (shot["die"], shot["roll"], shot["hits"], shot["parts"]) == (12, 1, 1, ["wing"])
    assert b.unit(2).damage["wing"] == 1


def test_only_the_bombers_with_a_tally_count_in_the_formation():
    """Two Medium Bombers in range, one with a tally: a 1 gives one hit, not two."""
    b = bomber_battle(("bombers", "spotting"), tallies=[[3, 2]],
                      extra=[unit("axis", HE111, speed=2, altitude=3)],
                      places=[((9, 9), 0)])  # fmt: skip
    b.spotting["wingmen"] = []  # identical bombers would share the tally (15b8.2)
    through_fire(b, [1, 5])
    shot = gunnery(b)[0]
    assert (shot["unit"], shot["bombers"], shot["hits"]) == (3, [3], 1)
    both = bomber_battle(("bombers", "spotting"), tallies=[[1, 2], [3, 2]],
                         extra=[unit("axis", HE111, speed=2, altitude=3)],
                         places=[((9, 9), 0)])  # fmt: skip
    through_fire(both, [1, 5, 5])
    assert (gunnery(both)[0]["bombers"], gunnery(both)[0]["hits"]) == ([1, 3], 2)


def test_no_counterpart_of_the_plus_4_the_die_is_the_same_whether_seen_or_not():
    unseen = bomber_battle(("bombers", "spotting"), tallies=[[1, 2]])
    seen = bomber_battle(("bombers", "spotting"), tallies=[[1, 2], [2, 1]])
    for b in (unseen, seen):
        through_fire(b, [2])
        assert (gunnery(b)[0]["die"], gunnery(b)[0]["hits"]) == (12, 0)


def test_a_fighter_firing_at_a_bomber_that_has_not_seen_it_has_the_plus_4():
    """15b9's +4 stands for the fighter: the bomber's crew has no tally on it."""
    unseen = bomber_battle(("bombers", "spotting"), tallies=[[2, 1]])
    seen = bomber_battle(("bombers", "spotting"), tallies=[[1, 2], [2, 1]])
    assert sp.surprise(unseen, unseen.unit(2), unseen.unit(1)) == {"15b9 target has no tally": 4}
    assert sp.surprise(seen, seen.unit(2), seen.unit(1)) == {}


# -- 15b7 and 9f: the gunners' fire counts ---------------------------------------------------
def test_the_gunners_fire_keeps_and_loses_tallies_and_lets_the_bounce_go():
    """15b7.1: the bomber keeps its tally on the fighter, loses the one on a far fighter;
    15b7.2: the fighter keeps its tally on the bomber, loses the other; 9f: fired upon."""
    far = unit("allied", SPITFIRE, speed=2, altitude=3)
    b = bomber_battle(("bombers", "bounce", "spotting"), extra=[far], places=[((2, 2), 0)],
                      tallies=[[1, 2], [1, 3], [2, 1]])  # fmt: skip
    b.spotting["wingmen"] = []  # the two Spitfires fly alone here
    assert bo.held(b, b.unit(2))
    through_fire(b, [2])
    assert b.spotting["tallies"] == [[1, 2], [2, 1]]
    assert 2 in b.spotting["free"] and 3 not in b.spotting["free"]


# -- each option alone as before ---------------------------------------------------------------
def test_bombers_alone_fire_without_tallies():
    b = bomber_battle(("bombers",))
    assert b.spotting is None
    through_fire(b, [1, 5])
    assert gunnery(b)[0]["hits"] == 1


def test_spotting_alone_a_bomber_has_no_defensive_gunnery():
    b = bomber_battle(("spotting",), tallies=[[1, 2]])
    assert not bb.is_bomber(b, b.unit(1))
    through_fire(b, [])
    assert gunnery(b) == []


# -- 9f: the scenario's exemption; 15b8.1: the scenario's wingmen --------------------------
def four(extra=None):
    """Three identical Bf 109Es (axis) and a Spitfire, spotting and the bounce on;
    ``extra`` adds fields to units by index."""
    units = [unit("axis", BF109, speed=2, **(extra or {}).get(i, {})) for i in range(3)]
    return {"name": "t", "units": [*units, unit("allied", SPITFIRE, speed=2)],
            "options": ["bounce", "spotting"], "sequence_marker": "axis"}  # fmt: skip


def test_by_default_the_bounce_holds_all_and_identical_cards_pair():
    b = AirPiratesBattle(Scenario.from_json(four()), 1)
    assert b.spotting["free"] == [] and b.spotting["wingmen"] == [[1, 2]]


def test_a_unit_the_scenario_frees_is_not_held_by_the_bounce():
    b = battle(four({1: {"bounced": False}})["units"],
               [((5, 5), 0), ((5, 7), 0), ((5, 9), 0), ((12, 5), 3)])  # fmt: skip
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": ["bounce", "spotting"]})
    b.spotting = sp.initial(b)
    assert b.spotting["free"] == [2]
    assert not bo.held(b, b.unit(2)) and bo.held(b, b.unit(1))
    mark_all(b, {2: "turn_left"})
    assert [e["maneuver"] for e in b.log if e["event"] == "marked" and e["unit"] == 2]
    assert bo.mark_refusal(b, b.unit(1), "turn_left") is not None


@pytest.mark.parametrize("value", ["no", 0, None])
def test_bounced_must_be_true_or_false(value):
    with pytest.raises(ValueError, match=r"units\[1\]\.bounced must be true or false .*9f"):
        Scenario.from_json(four({1: {"bounced": value}}))


def test_a_scenario_names_its_wingmen():
    """units[0] and units[2] are wingmen; units[1], identical, has none."""
    b = AirPiratesBattle(Scenario.from_json(four({0: {"wingman": 2}})), 1)
    assert b.spotting["wingmen"] == [[1, 3]]
    assert sp.wingman(b, b.unit(1)) is b.unit(3) and sp.wingman(b, b.unit(2)) is None
    sp.add_tally(b, b.unit(3), b.unit(4))  # the tally frees unit 3 and its wingman (9f)
    assert b.spotting["free"] == [1, 3]
    both = AirPiratesBattle(Scenario.from_json(four({0: {"wingman": 2}, 2: {"wingman": 0}})), 1)
    assert both.spotting["wingmen"] == [[1, 3]]


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        ({0: {"wingman": 0}}, "must be the index in units of another air unit"),
        ({0: {"wingman": 7}}, "must be the index in units of another air unit"),
        ({0: {"wingman": True}}, "must be the index in units of another air unit"),
        ({0: {"wingman": 3}}, "wingmen are identical air units of one side"),
        ({0: {"wingman": 1}, 2: {"wingman": 1}}, "one wingman at most"),
    ],
)
def test_a_wingman_the_rules_do_not_allow_is_refused(extra, why):
    with pytest.raises(ValueError, match=f"{why}.*15b8.1"):
        Scenario.from_json(four(extra))


def test_a_wingman_of_another_aircraft_is_refused():
    data = four({0: {"wingman": 1}})
    data["units"][1] = unit("axis", "Messerschmitt Bf 110", speed=2)
    with pytest.raises(ValueError, match="identical air units of one side"):
        Scenario.from_json(data)


def test_a_named_pair_replays_from_json():
    b = AirPiratesBattle(Scenario.from_json(four({0: {"wingman": 2, "bounced": False}})), 1)
    again = Scenario.from_json(b.scenario.to_json())
    replayed = AirPiratesBattle(again, 1)
    assert replayed.spotting["wingmen"] == [[1, 3]] and replayed.spotting["free"] == [1]

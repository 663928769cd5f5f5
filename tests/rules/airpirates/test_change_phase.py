"""002 [7] the Change Phase: the Engine Chart (7a, 7b), the limits of 3e2-3e4, damage
(13b3.2, 13b3.2.1, 13b3.3), fires put out by diving (13b4) and the zoom climb (17d)."""

import json
import random

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, unit

from rules.airpirates import change as ch
from rules.airpirates.actions import Change, Hold, IllegalAction, Mark, Move, action_from_json
from rules.airpirates.state import AirPiratesBattle, new_battle
from rules.airpirates.system import AIRPIRATES
from rules.airpirates.units import Scenario, basic_game, catalog_card
from rules.dice import ScriptedDice

P40 = "Curtis P-40 Warhawk"  # a "fair" engine: 17d's example
BF110 = "Bf 110C"  # twin engines (13b3.2.1)

# the chart as this engine prints it (docs/rulings.md, the Engine Chart)
CHART = {
    "Climb 3 Levels": ["-5", "-5..-4", "-5..-4", "-5..-3", "-5..-3", "-5..-2"],
    "Climb 2 Levels": ["-4..-3", "-4..-3", "-4..-2", "-4..-2", "-4..-1", "-4..-1"],
    "Climb 1 Level": ["-3..-2", "-3..-1", "-3..-1", "-3..+0", "-3..+0", "-3..+1"],
    "Level": ["-2..+0", "-2..+0", "-2..+1", "-2..+1", "-2..+2", "-2..+2"],
    "Dive 1 Level": ["-1..+1", "-1..+2", "-1..+2", "-1..+3", "-1..+3", "-1..+4"],
    "Dive 2 Levels": ["-1..+3", "-1..+3", "-1..+4", "-1..+4", "-1..+5", "-1..+5"],
}


def to_change(b):
    """Fly straight on, holding fire, to the next Change Phase."""
    while b.phase != "change":
        assert not b.is_over()
        u = b.pending(b.current_side())[0]
        if b.phase == "move":
            b.apply(Move(u.id))
        elif b.phase == "fire":
            b.apply(Hold(u.id))
        else:
            b.apply(Mark(u.id, "straight"))
    return b


def pair(aircraft=SPITFIRE, options=(), altitude=3, speed=None, **card):
    """Unit 1 (axis, ``aircraft``) and a Bf 109E far away, in turn 1's Change Phase."""
    mine = unit("axis", aircraft, altitude=altitude)
    mine["card"] = {**catalog_card(aircraft), **card}
    if speed is not None:
        mine["speed"] = speed
    b = battle([mine, unit("allied", BF109, speed=2)], [((3, 3), 0), ((3, 12), 0)])
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    return to_change(b)


def refused(b, altitude, speed, uid=1):
    with pytest.raises(IllegalAction) as error:
        b.apply(Change(uid, altitude, speed))
    return error.value


def finish(b):
    """The other units fly on as steadily as they may."""
    while b.phase == "change":
        u = b.pending(b.current_side())[0]
        b.apply(Change(u.id, *ch.steady(u, b.zooms(u))))


# -- the Engine Chart (7a, 7b, 13b3.2, 17d, 20h1) ------------------------------------
def test_7b_the_engine_chart_as_rebuilt():
    chart = ch.engine_chart(climb=3, dive=2)
    assert {row: list(cells.values()) for row, cells in chart.items()} == CHART
    assert list(chart["Level"]) == ["damaged", "poor", "fair", "average", "good", "excellent"]


def test_7a_a_better_rating_never_does_worse_and_13b3_2_damaged_is_the_worst():
    for change in range(-4, 5):
        highs = [ch.chart_cell(change, c)[1] for c in ch.COLUMNS]
        assert highs == sorted(highs)
        assert ch.chart_cell(change, "damaged") <= ch.chart_cell(change, "poor")
    for column in ch.COLUMNS:  # each level climbed costs speed, each dived gains it
        highs = [ch.chart_cell(change, column)[1] for change in range(4, -3, -1)]
        assert highs == sorted(highs) and len(set(highs)) == len(highs)
    for worse, better in zip(ch.COLUMNS[:-1], ch.COLUMNS[1:], strict=True):  # neighbours
        assert any(ch.chart_cell(c, worse) != ch.chart_cell(c, better) for c in range(-2, 4))


def test_20h1_a_dive_of_3_levels_uses_the_dive_2_row():
    for column in ch.COLUMNS:
        assert ch.chart_cell(-3, column) == ch.chart_cell(-2, column)
    assert ch.engine_chart(dive=3)["Dive 3 Levels"] == ch.engine_chart()["Dive 2 Levels"]


def test_7a_one_rating_for_level_climb_and_dive_damaged_from_the_first_engine_hit():
    b = pair(P40)
    u = b.unit(1)
    assert ch.ratings(u) == {"level": "fair", "climb": "fair", "dive": "fair"}
    u.damage["engine"] = 1
    assert ch.ratings(u) == {"level": "damaged", "climb": "damaged", "dive": "damaged"}
    assert ch.ratings(u, zoom=True)["climb"] == "poor"  # a zoom: one column right


def test_17d_a_fair_engine_zoom_climbs_as_average():
    # "An aircraft with an "Fair" engine performance would increase its climb rating to
    # "Average" in a "Zoom Climb"."
    u = pair(P40).unit(1)
    assert ch.ratings(u, zoom=True) == {"level": "fair", "climb": "average", "dive": "fair"}
    u.card["engine_rating"] = "excellent"
    assert ch.ratings(u, zoom=True)["climb"] == "excellent"  # no rating above it


# -- the phase ---------------------------------------------------------------------
def test_7_after_impulse_vi_each_unit_changes_the_holder_first():
    b = pair()
    assert b.turn == 1 and b.impulse == 6 and b.phase_name() == "Change Phase of turn 1"
    legal = b.legal_actions()
    assert str(legal[0]) == "pass the sequence marker"
    assert str(legal[1]).startswith("unit 1: altitude")
    assert {type(a) for a in legal[1:]} == {Change} and {a.unit for a in legal[1:]} == {1}
    error = refused(b, 3, 2, uid=2)
    assert error.rule == "002 '3a1'"
    b.apply(Change(1, 4, 5))
    assert b.unit(1).altitude == 4 and b.phase == "change" and b.current_side() == 1
    b.apply(Change(2, 1, 2))
    assert b.turn == 2 and b.phase == "move"
    logged = [e for e in b.log if e["event"] == "changed altitude and speed"]
    assert logged[0] == {"turn": 1, "impulse": 6, "phase": "change", "unit": 1,
                         "event": "changed altitude and speed", "rule": "002 [7]",
                         "altitude": [3, 4], "speed": [5, 5], "dived": 0}  # fmt: skip


def test_3a2_the_holder_may_pass_the_marker_in_the_change_phase():
    b = pair()
    b.apply(action_from_json({"kind": "pass"}))
    assert b.current_side() == 1 and b.pending(1)[0].id == 2


def test_3f_no_marking_in_the_change_phase():
    b = pair()
    with pytest.raises(IllegalAction) as error:
        b.apply(Mark(1, "straight"))
    assert error.value.rule == "002 '3f'"


def test_the_change_as_json_and_the_state_round_trip():
    b = pair()
    b.apply(action_from_json({"kind": "change", "unit": 1, "altitude": 2, "speed": 6}))
    again = AirPiratesBattle.from_json(json.loads(json.dumps(b.to_json())))
    assert again.to_json() == b.to_json() and again.legal_actions() == b.legal_actions()
    assert again.unit(1).last_change == {"turn": 1, "dived": 1, "speed": 6, "at_max": True}
    with pytest.raises(ValueError, match="altitude"):
        action_from_json({"kind": "change", "unit": 1, "altitude": "2", "speed": 6})


# -- 3e2, 3e3, 3e4 -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("altitude", "start", "rule", "words"),
    [(-1, 0, "002 '3e3'", "outside 0"), (9, 8, "002 '3e3'", "outside 0"),
     (5, 3, "002 '3e3'", "climb of 1"), (0, 3, "002 '3e3'", "dive of 2")],
)  # fmt: skip
def test_3e3_altitude_0_to_the_card_and_its_climb_and_dive(altitude, start, rule, words):
    b = pair(altitude=start)  # the Spitfire: ceiling 8, climb 1, dive 2
    error = refused(b, altitude, 5)
    assert error.rule == rule and words in error.message
    heights = {a for a, _ in ch.options(b.unit(1))}
    assert heights == set(range(max(0, start - 2), min(8, start + 1) + 1))


def test_3e3_a_bigger_climb_on_the_card_is_allowed():
    b = pair(climb=2, engine_rating="excellent")
    b.apply(Change(1, 5, 3))  # climb 2 levels: -4..-1 from 5
    assert b.unit(1).altitude == 5


def test_3e2_no_speed_below_the_minimum():
    b = pair(BF109, speed=2, engine_rating="fair")  # minimum 2
    assert refused(b, 3, 1).rule == "002 '3e2'"
    assert ch.speeds(b.unit(1), 4) == []  # climb 1 (fair): -3..-1 from speed 2
    assert ch.speeds(b.unit(1), 4, zoom=True) == [2]  # as average: -3..0
    error = refused(b, 4, 2)
    assert error.rule == "002 '3e2'" and "climb 1 level" in error.message


def test_3e4_above_level_speed_only_with_a_dive_never_above_dive_speed():
    b = pair(engine_rating="excellent")  # level 5, dive 6
    error = refused(b, 3, 6)
    assert error.rule == "002 '3e4'" and "only a dive" in error.message
    assert refused(b, 2, 7).rule == "002 '3e4'"
    assert ch.speeds(b.unit(1), 2) == [4, 5, 6]  # dive 1: -1..+4, to the dive speed
    b.apply(Change(1, 2, 6))
    assert b.unit(1).speed == 6


def test_3e4_a_speed_above_level_is_kept_not_increased():
    b = pair(engine_rating="excellent")
    u = b.unit(1)
    u.speed = 6  # dived in an earlier Change Phase: above its level speed 5
    assert ch.speeds(u, 3) == [4, 5, 6]
    b.apply(Change(1, 3, 6))
    assert u.speed == 6


def test_3e4_a_speed_beyond_every_limit_comes_down_to_it():
    b = pair(BF110)  # twin: level 4, dive 5
    u = b.unit(1)
    u.damage["engine"] = 2
    u.speed = 5  # dived before the second engine hit: now above dive speed 3 and level 2
    assert ch.speeds(u, 3) == [3] and ch.speeds(u, 2) == [3]


def test_7b_the_speed_must_be_in_the_chart_cell():
    b = pair(P40)  # fair: level -2..+1, climb 1 -3..-1, dive 1 -1..+2 (to dive speed 6)
    u = b.unit(1)
    assert ch.speeds(u, 3) == [3, 4, 5] and ch.speeds(u, 4) == [2, 3, 4]
    assert ch.speeds(u, 2) == [4, 5, 6]
    error = refused(b, 4, 5)
    assert error.rule.startswith("002 '7b'")
    assert (
        error.message
        == "the Engine Chart's fair column allows speed 2 to 4 with climb 1 level from speed 5"
    )  # noqa: E501
    assert len(b.legal_actions()) == 1 + len(ch.options(u))


# -- damage --------------------------------------------------------------------------
def test_13b3_2_one_engine_hit_uses_the_damaged_column():
    b = pair(P40)
    u = b.unit(1)
    u.damage["engine"] = 1
    assert ch.speeds(u, 3) == [3, 4, 5] and ch.speeds(u, 4) == [2, 3]
    error = refused(b, 4, 4)
    assert error.rule == "002 '13b3.2'" and "damaged column" in error.message
    b.apply(Change(1, 4, 3))


@pytest.mark.parametrize(("hits", "level", "dive"), [(0, 4, 5), (1, 4, 5), (2, 2, 3)])
def test_13b3_2_1_a_twin_with_two_engine_hits_loses_two_speeds(hits, level, dive):
    b = pair(BF110, speed=2)
    u = b.unit(1)
    u.damage["engine"] = hits
    assert ch.speed_limits(u) == {"minimum": 2, "level": level, "dive": dive}
    if hits == 2:
        assert refused(b, 3, 3).rule == "002 '13b3.2.1'"
        assert refused(b, 2, 4).rule == "002 '13b3.2.1'"
        b.apply(Change(1, 2, 3))


def test_13b3_2_1_a_single_engined_unit_is_not_reduced():
    u = pair(SPITFIRE).unit(1)
    u.damage["engine"] = 2  # would be eliminated in play; the limits stay
    assert ch.speed_limits(u)["level"] == 5


@pytest.mark.parametrize("crew", [0, 1])
def test_13b3_3_a_crew_hit_allows_one_level_a_turn(crew):
    b = pair(altitude=4)  # the Spitfire dives 2
    b.unit(1).damage["crew"] = crew
    if crew:
        error = refused(b, 2, 6)
        assert error.rule == "002 '13b3.3'"
        assert {a for a, _ in ch.options(b.unit(1))} == {3, 4, 5}
    else:
        b.apply(Change(1, 2, 6))


# -- 13b4: fires ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("altitude", "roll", "out"),
    [(3, 8, False), (3, 9, True), (2, 7, True), (2, 6, False), (1, 5, True), (1, 4, False)],
)
def test_13b4_plus_2_per_level_dived_puts_out_a_fire(altitude, roll, out):
    b = pair()
    u = b.unit(1)
    u.fires.append({"part": "engine", "turn": 1, "by": 2})
    u.damage["engine"] = 1
    b.dice = ScriptedDice([roll])
    b.apply(Change(1, altitude, ch.speeds(u, altitude)[0]))
    assert b.dice.remaining == 0
    entry = [e for e in b.log if e["event"].startswith("fire ")][-1]
    assert entry["modifier"] == 2 * (3 - altitude) and entry["roll"] == roll
    assert u.eliminated is not out and bool(u.fires) is not out
    if not out:
        assert b.is_over() and b.kills == [{"attacker": 2, "target": 1, "turn": 1}]


# -- 17d: zoom climb ------------------------------------------------------------------
def zoom_battle(options, dive_speed=6, slow=False):
    """A P-40 (fair, level 5, dive 6) dives one level in turn 1's Change Phase to
    ``dive_speed``, flies turn 2 (a tight turn if ``slow``), and is in its Change Phase."""
    b = pair(P40, options=options, tight_turn_number=2)  # 3 hexes at speed 6
    b.apply(Change(1, 2, dive_speed))
    finish(b)
    if slow:
        while b.phase != "mark":
            to_change_step(b)
        b.apply(Mark(1, "tight_right"))
    return to_change(b)


def to_change_step(b):
    u = b.pending(b.current_side())[0]
    b.apply(Move(u.id) if b.phase == "move" else Mark(u.id, "straight"))


def test_17d_a_zoom_climb_keeps_the_dive_speed():
    b = zoom_battle(("zoom_climb",))
    u = b.unit(1)
    assert b.turn == 2 and u.speed == 6 and b.zooms(u)
    assert ch.speeds(u, 3, zoom=True) == [3, 4, 5, 6]  # average: -3..0
    b.apply(Change(1, 3, 6))
    assert u.altitude == 3 and u.speed == 6
    assert [e for e in b.log if e["event"] == "changed altitude and speed"][-1]["rule"] == (
        "002 '17d' ZOOM CLIMB"
    )


def test_17d_off_the_climb_is_the_fair_column():
    b = zoom_battle(())
    assert not b.zooms(b.unit(1))
    error = refused(b, 3, 6)
    assert error.rule.startswith("002 '7b'") and "speed 3 to 5" in error.message
    assert "zoom" not in error.message


def test_17d_only_after_a_dive_at_the_maximum_speed():
    b = zoom_battle(("zoom_climb",), dive_speed=5)
    assert not b.zooms(b.unit(1)) and refused(b, 3, 5).rule.startswith("002 '7b'")


def test_17d_not_after_a_maneuver_that_slowed_it():
    b = zoom_battle(("zoom_climb",), slow=True)
    u = b.unit(1)
    assert u.speed == 5 and not b.zooms(u)


def test_17d_only_the_next_change_phase():
    b = zoom_battle(("zoom_climb",))
    b.apply(Change(1, 2, 6))  # level: no zoom used
    finish(b)
    to_change(b)
    assert b.turn == 3 and not b.zooms(b.unit(1))


# -- the engine plays it --------------------------------------------------------------
def test_every_listed_change_is_accepted_and_random_pilots_fly_the_phase():
    scenario = {**basic_game("Bf 110C", "Spitfire Mk I Ace"), "options": ["zoom_climb"]}
    for seed in (1, 2):
        b = new_battle(scenario, seed)
        pilots = [AIRPIRATES.computer_pilot("random", seed * 10 + s) for s in (0, 1)]
        pick = random.Random(seed)
        while not b.is_over():
            legal = b.legal_actions()
            if b.phase == "change":
                sample = pick.sample(legal, min(5, len(legal)))
                assert all(b.refusal(a) is None for a in sample)
            b.apply(pilots[b.current_side()].choose(b))
        changes = [e for e in b.log if e["event"] == "changed altitude and speed"]
        assert changes and any(e["altitude"][0] != e["altitude"][1] for e in changes)
        for e in changes:
            top = catalog_card("Bf 110C" if e["unit"] <= 2 else SPITFIRE)["dive_speed"]
            assert e["speed"][1] <= top

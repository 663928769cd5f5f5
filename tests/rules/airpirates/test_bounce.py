"""002 9f the bounce (option ``bounce``, with ``spotting``): straight, level and at the
initial speed until the unit or its wingman makes a tally or is fired upon; altitude and
speed hidden from the enemy until spotted."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, mark_all, move_all, unit
from test_spotting import slow, spotting_battle

from rules.airpirates import bounce as bo
from rules.airpirates import spotting as sp
from rules.airpirates.actions import Change, EndSpotting, Fire, Hold, IllegalAction, Mark, Spot
from rules.airpirates.system import AIRPIRATES
from rules.dice import ScriptedDice
from rules.tactical import reveal

BOUNCE = ("spotting", "bounce")


def pairs(speed=2, options=BOUNCE):
    """Two Bf 109E wingmen (1, 2) and two Spitfire wingmen (3, 4), far apart, all flying
    east at ``speed``."""
    make = slow if speed == 3 else (lambda side, name: unit(side, name, speed=speed))
    return spotting_battle(
        [make("axis", BF109), make("axis", BF109), make("allied", SPITFIRE),
         make("allied", SPITFIRE)],
        [((3, 4), 0), ((3, 6), 0), ((5, 4), 0), ((5, 12), 0)],
        options=options,
    )  # fmt: skip


def test_a_held_unit_marks_only_the_straight():
    b = pairs()
    assert b.phase == "setup_mark"
    side = b.current_side()
    uid = b.pending(side)[0].id
    assert {a.maneuver for a in b.legal_actions() if isinstance(a, Mark)} == {"straight"}
    with pytest.raises(IllegalAction) as refused:
        b.apply(Mark(uid, "turn_left"))
    assert refused.value.rule == "002 '9f'"


def test_off_every_maneuver_may_be_marked():
    b = pairs(options=("spotting",))
    marks = {a.maneuver for a in b.legal_actions() if isinstance(a, Mark)}
    assert {"straight", "turn_left", "roll_right"} <= marks


def to_change(b):
    while b.phase != "change":
        if b.phase == "move":
            move_all(b)
        elif b.phase == "spot":
            b.apply(EndSpotting())
        else:
            mark_all(b, {})
    return b


def test_a_held_unit_keeps_its_altitude_and_initial_speed_in_the_change_phase():
    b = to_change(pairs())
    side = b.current_side()
    u = b.pending(side)[0]
    changes = [a for a in b.legal_actions() if isinstance(a, Change) and a.unit == u.id]
    assert changes == [Change(u.id, u.altitude, 2)]
    with pytest.raises(IllegalAction) as refused:
        b.apply(Change(u.id, u.altitude + 1, 2))
    assert refused.value.rule == "002 '9f'"


def test_a_tally_lets_the_unit_and_its_wingman_go():
    b = pairs()
    mark_all(b, {})
    assert b.phase == "spot"
    b.dice = ScriptedDice([10, 1])
    b.apply(Spot(1, 3))
    assert not bo.held(b, b.unit(1)) and not bo.held(b, b.unit(2))  # 9f: "or its wingman"
    assert bo.held(b, b.unit(3)) and bo.held(b, b.unit(4))  # seen, not seeing
    assert b._mark_refusal(b.unit(2), "turn_left") is None
    assert b._mark_refusal(b.unit(3), "turn_left")[0] == "002 '9f'"


def test_being_fired_upon_lets_the_unit_and_its_wingman_go():
    b = pairs(speed=3)
    mark_all(b, {})
    move_all(b)
    b.spotting["tallies"] = [[1, 3]]  # recorded by hand: the bounce still holds all four
    assert all(bo.held(b, u) for u in b.units)
    b.apply(EndSpotting())
    b.apply(EndSpotting())
    b.dice = ScriptedDice([1, 10])
    b.apply(Fire(1, 3))
    while b.phase == "fire":
        b.apply(Hold(b.pending(b.current_side())[0].id))
    assert not bo.held(b, b.unit(3)) and not bo.held(b, b.unit(4))


def test_altitude_and_speed_are_hidden_until_spotted():
    b = pairs()
    mark_all(b, {})
    assert bo.hidden(b, 0) == {3, 4} and bo.hidden(b, 1) == {1, 2}
    assert bo.hidden(b, None) == {1, 2, 3, 4}  # a spectator: no more than both sides know
    board = AIRPIRATES.battle_from_json(b.to_json()).describe_board(0)
    spit = next(p for p in board["pieces"] if p["id"] == 3)
    own = next(p for p in board["pieces"] if p["id"] == 1)
    assert (spit["altitude"], spit["speed"], spit["label"]) == ("?", "?", "#3 A? S?")
    assert own["altitude"] == str(b.unit(1).altitude)
    marked = next(e for e in b.log if e["event"] == "marked" and e["unit"] == 3)
    assert bo.redact_entry(marked, bo.hidden(b, 0))["speed"] == bo.HIDDEN
    assert bo.redact_entry(marked, bo.hidden(b, 1))["speed"] == 2
    b.dice = ScriptedDice([10, 1])
    b.apply(Spot(1, 3))
    assert bo.hidden(b, 0) == {4}  # seen for good, even once the tally is lost
    assert bo.hidden(b, None) == {1, 2, 4}  # the axis has seen unit 3: so may a spectator
    b.spotting["tallies"] = []
    assert bo.hidden(b, 0) == {4}
    assert bo.hidden(reveal(b), None) == bo.hidden(b, 0) == set()  # a finished record


def test_spotting_without_the_bounce_hides_nothing():
    b = pairs(options=("spotting",))
    assert bo.hidden(b, 0) == set() and not bo.held(b, b.unit(1))
    assert sp.on(b)


def test_the_log_a_side_reads_blanks_what_tells_an_unseen_enemys_altitude_and_speed():
    b = to_change(pairs())
    b.apply(Change(b.pending(b.current_side())[0].id, 1, 2))
    axis = bo.redact_log(b, 0)
    assert len(axis) == len(b.log)  # redacted, never dropped
    theirs = [e for e in axis if e.get("unit") in (3, 4)]
    assert {e["speed"] for e in theirs if e["event"] == "marked"} == {bo.HIDDEN}
    ours = [e for e in axis if e.get("unit") in (1, 2) and e["event"] == "marked"]
    assert {e["speed"] for e in ours} == {2}
    spectator = bo.redact_log(b, None)  # no more than both sides know: every speed blanked
    assert {e["speed"] for e in spectator if e["event"] == "marked"} == {bo.HIDDEN}
    assert bo.redact_log(reveal(b), None) == b.log

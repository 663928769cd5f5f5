"""Kill credit (rules/careers/credit.py) and awards (rules/careers/awards.py)."""

from __future__ import annotations

import pytest

from rules.careers import Attack, Award, PilotRecord, awards_due, credit_kill
from rules.dice import ScriptedDice


def test_last_aircraft_to_fire_gets_the_kill():
    credit = credit_kill(
        [Attack("ace", 1), Attack("wingman", 3), Attack("ace", 2)], dice=ScriptedDice()
    )
    assert credit.shooter == "wingman"
    assert not credit.by_die
    assert credit.rolls == ()


def test_sequence_within_a_turn_orders_attacks():
    credit = credit_kill([("a", 2, 1), ("b", 2, 0)], dice=ScriptedDice())
    assert credit.shooter == "a"


def test_tie_settled_by_recorded_die():
    dice = ScriptedDice([2, 5])
    credit = credit_kill([("a", 1), ("b", 2), ("c", 2)], dice=dice)
    assert credit.shooter == "c"
    assert credit.contenders == ("b", "c")
    assert credit.by_die
    assert credit.rolls_json == [
        ["kill credit roll-off: b", 6, 2],
        ["kill credit roll-off: c", 6, 5],
    ]
    assert dice.rolls == list(credit.rolls)


def test_tie_on_the_die_rolls_again_among_the_highest():
    credit = credit_kill([(1, 4), (2, 4), (3, 4)], dice=ScriptedDice([6, 6, 1, 3, 4]))
    assert credit.shooter == 2
    assert [r.value for r in credit.rolls] == [6, 6, 1, 3, 4]


def test_same_shooter_twice_at_the_end_is_no_tie():
    credit = credit_kill([("a", 3), ("a", 3)], dice=ScriptedDice())
    assert credit.shooter == "a" and not credit.by_die


def test_no_attacks_is_an_error():
    with pytest.raises(ValueError):
        credit_kill([], dice=ScriptedDice())
    with pytest.raises(ValueError):
        credit_kill([("a",)], dice=ScriptedDice())


AWARDS = [
    Award("Iron Cross", "Germany", "kills", 5),
    Award("DFC", "United Kingdom", "kills", 5),
    Award("Campaign Medal", None, "missions", 10),
    Award("Knight's Cross", "Germany", "kills", 20),
]


def test_awards_due_by_nation_and_threshold():
    record = PilotRecord(air_kills=5, missions=10)
    due = awards_due(record, "Germany", AWARDS, already_granted=())
    assert [a.name for a in due] == ["Iron Cross", "Campaign Medal"]
    assert [a.name for a in awards_due(record, "United Kingdom", AWARDS)] == [
        "DFC",
        "Campaign Medal",
    ]


def test_awards_boundaries_and_already_granted():
    assert awards_due(PilotRecord(air_kills=4, missions=9), "Germany", AWARDS) == []
    record = PilotRecord(air_kills=20, missions=10)
    due = awards_due(record, "germany", AWARDS, already_granted=["Iron Cross", AWARDS[2]])
    assert [a.name for a in due] == ["Knight's Cross"]


def test_award_kills_are_confirmed_air_kills_only():
    record = PilotRecord(air_kills=4, bombing_successes=9, ground_kills=2)
    assert awards_due(record, "Germany", AWARDS) == []


def test_award_validation():
    with pytest.raises(ValueError):
        Award("X", None, "sorties", 1)
    with pytest.raises(ValueError):
        Award("X", None, "kills", 0)
    with pytest.raises(ValueError):
        Award(" ", None, "kills", 1)

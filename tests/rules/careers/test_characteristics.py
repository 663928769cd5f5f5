"""Pilot characteristics determination (rules/careers/characteristics.py)."""

from __future__ import annotations

import pytest

from rules.careers import Characteristics, roll_characteristics, table_column
from rules.careers.characteristics import DETERMINATION_TABLE, NATION_COLUMNS
from rules.dice import Dice, ScriptedDice


@pytest.mark.parametrize(
    ("nation", "year", "month", "column"),
    [
        ("Germany", 1940, None, 1),
        ("Germany", 1942, 12, 1),
        ("Germany", 1943, 3, 2),
        ("Germany", 1943, 9, 3),
        ("Germany", 1944, None, 3),
        ("Germany", 1945, None, 4),
        ("United States", 1941, None, 3),
        ("United States", 1942, 5, 3),
        ("United States", 1942, 8, 2),
        ("United States", 1943, None, 2),
        ("United States", 1944, None, 1),
        ("United Kingdom", 1939, None, 1),
        ("United Kingdom", 1940, None, 2),
        ("United Kingdom", 1942, 6, 2),
        ("United Kingdom", 1942, 7, 1),
        ("United Kingdom", 1945, None, 1),
        ("Japan", 1941, None, 1),
        ("Japan", 1942, 10, 2),
        ("Japan", 1944, None, 3),
        ("Japan", 1945, None, 4),
        ("Italy", 1940, None, 1),
        ("Italy", 1942, None, 2),
        ("Italy", 1943, None, 3),
        ("Soviet Union", 1941, None, 3),
        ("Soviet Union", 1944, None, 2),
        ("France", 1940, None, 1),
        ("France", 1941, None, 2),
        ("Poland", 1939, None, 1),
        ("Poland", 1940, None, 2),
        ("China", 1938, None, 3),
        ("China", 1944, None, 2),
        ("Finland", 1941, None, 1),
        ("Finland", 1944, None, 2),
        ("Ruritania", 1942, None, 2),
        ("USA", 1944, None, 1),
        ("germany", 1950, None, 4),
        ("Britain", 1936, None, 1),
    ],
)
def test_columns(nation, year, month, column):
    assert table_column(nation, year, month) == column


def test_every_product_nation_has_a_schedule():
    assert set(NATION_COLUMNS) == {
        "United Kingdom",
        "United States",
        "Germany",
        "Italy",
        "Japan",
        "Soviet Union",
        "France",
        "Poland",
        "China",
        "Finland",
    }
    with pytest.raises(ValueError):
        table_column("Germany", 1943, 13)


def test_germany_1940_die_one_with_ace():
    result = roll_characteristics("Germany", 1940, dice=ScriptedDice([1, 1]))
    assert result.column == 1
    assert result.characteristics == Characteristics(
        vision=True, reflex=True, training=2, experience=True, ace=True
    )
    assert result.characteristics.code == "ETTRV"
    assert [r.to_json() for r in result.rolls] == [
        ["pilot characteristics (column 1)", 6, 1],
        ["experience re-roll (1 = Ace)", 6, 1],
    ]
    assert result.ace and result.experience


def test_germany_1945_has_no_experience_reroll():
    result = roll_characteristics("Germany", 1945, dice=ScriptedDice([2]))
    assert result.column == 4
    assert result.characteristics == Characteristics(training=1)
    assert len(result.rolls) == 1


def test_united_states_1943_e_without_ace():
    result = roll_characteristics("United States", 1943, dice=ScriptedDice([4, 2]))
    assert result.column == 2
    assert result.characteristics == Characteristics(training=1, experience=True)
    assert not result.ace
    assert "not an Ace" in result.explanation


def test_united_kingdom_1941_nothing_on_six():
    result = roll_characteristics("United Kingdom", 1941, dice=ScriptedDice([6]))
    assert result.characteristics == Characteristics()
    assert result.characteristics.code == "•"


def test_japan_late_1944_reflex_and_vision():
    result = roll_characteristics("Japan", 1944, month=11, dice=ScriptedDice([4]))
    assert result.column == 3
    assert result.characteristics == Characteristics(vision=True, reflex=True)


def test_table_rows_are_well_formed():
    assert sorted(DETERMINATION_TABLE) == [1, 2, 3, 4, 5, 6]
    for row in DETERMINATION_TABLE.values():
        assert len(row) == 4
        for code in row:
            Characteristics.from_code(code)


def test_codes_round_trip_and_reject_unknown_letters():
    for code in ("ETTRV", "ETR", "TR", "RV", "T", "ETT"):
        assert Characteristics.from_code(code).code == code
    with pytest.raises(ValueError):
        Characteristics.from_code("XZ")
    with pytest.raises(ValueError):
        Characteristics(training=3)


def test_seeded_roll_replays():
    a = roll_characteristics("Finland", 1942, dice=Dice(5))
    b = roll_characteristics("Finland", 1942, dice=Dice(5))
    assert a == b

"""The impulse chart and the Maneuver Chart rebuilt from 002's text (docs/rulings.md,
"Air Pirates: the impulse chart", "Air Pirates: the Maneuver Chart")."""

import pytest

from rules.airpirates.charts import IMPULSES, ROMAN, chart_cell, hexes, impulse_chart, moves


def test_a_turn_has_six_numbered_impulses():
    # 002 6a5.1: a rear gun fired in turn 1 impulse VI next fires in turn 2 impulse II, the
    # fire phase of turn 2 impulse I being the consecutive one: VI is a turn's last impulse
    assert IMPULSES == 6 and ROMAN[-1] == "VI"
    assert set(impulse_chart()) == {1, 2, 3, 4, 5, 6}


def test_4b_example_an_impulse_with_arrows_in_columns_2_5_and_6_only():
    # 002 4b: "if during an Impulse, there are arrows located in columns 2, 5, and 6 only
    # all air units moving at speeds 2, 5 and 6 are moved"
    second = impulse_chart()[2]
    assert [s for s in second if s <= 6] == [2, 5, 6]


def test_speed_4_moves_in_impulse_iv():
    # 002 5d2.2: the Spitfire at speed 4 is marked in the Maneuver Marking Phase of impulse
    # IV, which it reaches by completing a maneuver in that impulse's Move Phase
    assert moves(4, 4)


@pytest.mark.parametrize("speed", range(1, 11))
def test_a_unit_moves_its_speed_in_hexes_a_turn_one_an_impulse(speed):
    # 002 5b1: exactly one hex an impulse; six impulses hold at most six hexes
    assert sum(moves(speed, k) for k in range(1, 7)) == min(speed, 6)


def test_a_faster_unit_is_never_behind_a_slower_one_during_a_turn():
    for speed in range(2, 11):
        for k in range(1, 7):
            done = sum(moves(speed, j) for j in range(1, k + 1))
            assert done >= sum(moves(speed - 1, j) for j in range(1, k + 1))


def test_no_arrows_outside_the_six_impulses_or_below_speed_1():
    assert not moves(4, 0) and not moves(4, 7) and not moves(0, 3)


def test_the_spitfire_mk1_needs_two_hexes_at_speed_4():
    # 002 5d2.2: "maneuver number ... is a 2. This shows that the Spitfire Mk1 must be moved
    # 2 hexes"
    assert hexes(2, 4) == 2


def test_maneuver_chart_grows_with_speed_and_line_and_is_at_least_one():
    for line in range(1, 10):
        row = [hexes(line, s) for s in range(1, 11)]
        assert row == sorted(row) and min(row) >= 1
    for speed in range(1, 11):
        column = [hexes(line, speed) for line in range(1, 10)]
        assert column == sorted(column)
    assert [hexes(1, s) for s in range(1, 11)] == [1, 1, 1, 1, 2, 2, 2, 2, 3, 3]


def test_a_chart_cell_prints_the_damaged_number_after_the_slash():
    # 002 5d2.2: "The first number found (before the "/" symbol) ... The number after the
    # "/" is used for aircraft with damaged rudders"
    assert chart_cell(2, 3, 4) == "2/3"
    assert chart_cell(3, 4, 6) == "5/6"

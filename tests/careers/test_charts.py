"""The careers' SVG charts say their figures in words a reader hovers over."""

from careers.charts import kills_over_turns_svg


def test_a_pilots_kills_over_turns_name_one_kill_and_several_kills():
    svg = kills_over_turns_svg([("turn 1", 0), ("turn 2", 1), ("turn 3", 3)])
    assert "<title>turn 1: 0 kills</title>" in svg
    assert "<title>turn 2: 1 kill</title>" in svg
    assert "<title>turn 3: 3 kills</title>" in svg

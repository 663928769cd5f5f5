"""The competent pilot's aimed attack at a bomber (002 20e, option bombers): it chooses the
area whose hit is likeliest to bring the bomber down, and counts 20c's big target bonus of
a plain attack (before, a plain and an aimed attack were valued alike: a coin decided)."""

import pytest
from test_airpirates_bombers import fire_phase

from rules.airpirates.actions import Fire
from rules.airpirates.pilots import CompetentPilot
from rules.airpirates.pilots.tactical import shot_worth


def behind_the_heinkel(last_box=None):
    """An experienced pilot's Spitfire directly behind an He 111 in the Fire Phase (20e:
    engine or fuel may be chosen from there), the bomber's ``last_box`` part one box from
    its last."""
    b = fire_phase((7, 8), quality="experienced")
    if last_box:
        b.unit(1).damage[last_box] = int(b.unit(1).card[f"{last_box}_boxes"]) - 1
    return b


@pytest.mark.parametrize(
    ("last_box", "chosen"),
    [("engine", "aimed_engine"), ("fuel", "aimed_fuel"), ("crew", "forward")],
)
def test_aims_where_one_hit_brings_the_bomber_down(last_box, chosen):
    # crew is chosen head-on only (20e): from behind the plain attack, whose hits may
    # strike the crew, beats aiming at an undamaged engine or tank
    assert CompetentPilot(1).choose(behind_the_heinkel(last_box)) == Fire(2, 1, chosen)


def test_the_big_target_bonus_counts_in_a_plain_attack():
    b = behind_the_heinkel()
    spitfire, heinkel = b.unit(2), b.unit(1)
    with_bonus = shot_worth(b, spitfire, heinkel, "forward")
    b.scenario = b.scenario.__class__.from_json({**b.scenario.to_json(), "options": []})
    assert with_bonus > shot_worth(b, spitfire, heinkel, "forward")  # 20c: +2, two engines

"""3e2 with 5d4/5d6: a half loop or tight turn marked above the minimum speed, whose unit
the Change Phase slowed to its minimum before the maneuver completed, leaves the speed at
the minimum (ruling "A slowing maneuver at the minimum speed"). Before, the unit flew
below its minimum and had no legal change in the next Change Phase: the battle stuck
(about 1 battle in 70 of random play)."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, unit

from rules.airpirates import change, maneuvers
from rules.airpirates.actions import Mark


@pytest.mark.parametrize("maneuver", ["half_loop", "tight_left"])
def test_completing_a_slowing_maneuver_at_the_minimum_keeps_the_minimum(maneuver):
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((20, 2), 0), ((8, 8), 0)],
    )
    b.apply(Mark(1, "straight"))
    b.apply(Mark(2, maneuver))
    spit = b.unit(2)
    least = int(spit.card["min_speed"])
    spit.speed = least  # as a Change Phase between marking and completing may leave it
    while spit.marker is not None:
        event = maneuvers.step(spit)
    assert event["completed"] == maneuver and spit.speed == least
    assert change.options(spit), "the next Change Phase has a legal change"


def test_above_the_minimum_the_maneuver_still_costs_a_speed():
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((20, 2), 0), ((8, 8), 0)],
    )
    b.apply(Mark(1, "straight"))
    b.apply(Mark(2, "half_loop"))
    spit = b.unit(2)
    while spit.marker is not None:
        maneuvers.step(spit)
    assert spit.speed == 3

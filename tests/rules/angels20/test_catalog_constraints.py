"""Every constraint the rulebook's worked examples put on the catalog, pinned
against the one aircraft table the engine and the catalog share
(``rules/catalog/angels20_aircraft.csv``, read by ``rules.angels20.CATALOGUE``).

Sources: 000 "EXAMPLE OF PLAY" (turns 1-3; a Far East duel of an A6M2 "Zeke"
and a Ki-61 "Tony" against a P-40C Flying Tiger and a Hurricane Mk I) and
000 "Movement Example 2" (P-40) and "Movement Example 3" (Bf 109); the list is
docs/rulings.md, "Constraints from the worked examples" and "Estimated stat cards".
"""

from __future__ import annotations

import pytest

from rules.angels20 import CATALOGUE

ZEKE, TONY, P40, HURRICANE = 'A6M2 "Zeke"', 'Ki-61 "Tony"', "P-40C Flying Tiger", "Hurricane Mk I"


def _normal(name: str, speed: int) -> bool:
    card = CATALOGUE[name]
    return card.speed_min <= speed <= card.speed_max


def _high(name: str, speed: int) -> bool:
    card = CATALOGUE[name]
    return card.high_speed_min is not None and card.high_speed_min <= speed <= (
        card.high_speed_max or 0
    )


@pytest.mark.parametrize(
    ("name", "speed", "high", "where"),
    [
        (HURRICANE, 4, True, "turn 1: 'speed 4 (high speed) for the Hurricane'"),
        (ZEKE, 4, True, "turn 1: 'speed 4 (high speed) for the Zeke'; 13 'just enough'"),
        (TONY, 3, False, "turn 1: the Tony's Break at speed 3, 13 'easily succeeds'"),
        (P40, 4, False, "turn 1: the P-40 'chooses speed 4' -- no '(high speed)' -- two normal turns"),
        (HURRICANE, 2, False, "turn 2: speed 2"),
        (TONY, 2, False, "turn 2: speed 2, Tight Turn 12 succeeds (needs 10)"),
        (P40, 2, False, "turn 2 and 3: speed 2"),
        (ZEKE, 2, False, "turn 2: speed 2"),
        (HURRICANE, 3, False, "turn 3: speed 3"),
        (ZEKE, 3, False, "turn 3: speed 3, a Tight Turn she 'easily succeeds on'"),
        (P40, 5, True, "Movement Example 2: 'speed of 5 ... which is high speed for the P-40'"),
    ],
)  # fmt: skip
def test_the_speeds_the_worked_examples_fly(name, speed, high, where):
    assert (_high(name, speed), _normal(name, speed)) == (high, not high), where


def test_the_values_the_example_of_play_states():
    zeke, tony, p40, hurricane = (CATALOGUE[n] for n in (ZEKE, TONY, P40, HURRICANE))
    # Zeke: "a better pilot than the Hurricane"; 4 dice at range 2, 7 at range 1; Turn +6
    assert (zeke.pilot, zeke.attack[:2], zeke.turn) == ("veteran", (7, 4), 6)
    assert {"Killer Instinct", "Expert Dogfighter"} <= set(zeke.abilities)
    # Tony: "an Average pilot"; six dice at range 1; armor 3, vital 6; Turn +4, Roll +5
    assert (tony.pilot, tony.attack[0], tony.armor, tony.vital_armor) == ("average", 6, 3, 6)
    assert (tony.turn, tony.roll) == (4, 5)
    # P-40: "a Veteran pilot"; five dice at range 2; armor 4, vital armor 7; Roll +5
    assert (p40.pilot, p40.attack[1], p40.armor, p40.vital_armor, p40.roll) == (
        "veteran", 5, 4, 7, 5,
    )  # fmt: skip
    # Hurricane: average (the Zeke's pilot is better, the P-40's veteran gets +1 on the
    # Tony only); two dice at range 3; armor 3; Turn +5
    assert (hurricane.pilot, hurricane.attack[2], hurricane.armor, hurricane.turn) == (
        "average", 2, 3, 5,
    )  # fmt: skip


def test_hit_points_the_example_of_play_needs():
    # 1 damage leaves the Hurricane (turn 1) and the Tony (turn 1, then it fires) uncrippled
    # (no -2 maneuver or attack penalty after it: at least 2 hit points left) ...
    assert CATALOGUE[HURRICANE].hits >= 3
    assert CATALOGUE[TONY].hits >= 3
    # ... and the P-40 "stays in the air after taking 1 point of damage" (turn 3)
    assert CATALOGUE[P40].hits >= 2


def test_movement_example_3_bf_109_roll():
    # "the Bf 109's Roll rating is +4" (the Wingman card; the Ace is the same airframe)
    assert CATALOGUE["Bf 109E Wingman"].roll == 4
    assert CATALOGUE["Bf 109E Ace"].roll == 4


def test_one_airframe_flies_one_speed():
    # ruling "Rule F — same airframe": the P-40's siblings share its speeds
    speeds = {
        (c.speed_min, c.speed_max, c.high_speed_min, c.high_speed_max)
        for c in (CATALOGUE[n] for n in ("P-40B Rookie", P40, "Lend-Lease Tomahawk Mk. II"))
    }
    assert speeds == {(2, 4, 5, 5)}

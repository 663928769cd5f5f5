"""Clouds (000 "CLOUDS", "RANDOM CLOUD ARRANGEMENT"), with scripted dice, on and off."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engine_helpers import at, battle, events, plane, play, pre
from optional_helpers import BF, HURRI, INIT, INIT_ALLIED, fly, purposes

from rules.angels20 import (
    Activate,
    Attack,
    CloudShape,
    Decline,
    IllegalAction,
    Maneuver,
    Rules,
)
from rules.angels20.actions import STRAIGHT, EnterClouds, MovePlan
from rules.angels20.attacks import can_attack
from rules.angels20.plans import legal_move_plans
from rules.angels20.state import CLOUD_CHART, CLOUD_COLUMN

RULEBOOK = Path(__file__).resolve().parents[4] / "shared" / "rules" / "000_3e786b822f6e109d.txt"


# ====================================================================== clouds

# altitude 1 clear, 2 solid, 3 heavy, 4 light, 5-6 clear
BANDS = ("clear", "solid", "heavy", "light", "clear", "clear")


def cloud_battle(alt: int, dice, rules: Rules | None = None, attempt: bool = True):
    """Hurricane #1 (Allies, moving first) ends its move at altitude ``alt``;
    the Bf 109 #0 flies far away in clear air at altitude 6."""
    s = battle(
        [plane(BF, "axis", 10, 0, 0, alt=6), pre(HURRI, "allied", 0, 0, 0, alt=alt)],
        INIT + list(dice),
        rules if rules is not None else Rules(clouds=BANDS),
    )
    fly(s, clouds={1} if attempt else ())
    return s


def test_solid_band_is_in_the_clouds_without_a_roll():
    """000 "CLOUDS" / Solid: in a solid band at the end of its move it is in the clouds."""
    s = cloud_battle(2, [])
    (c,) = events(s, "clouds_check")
    assert (c["plane"], c["band"], c["roll"], c["in_clouds"]) == (1, "solid", None, True)
    assert s.planes[1].cloud and not s.planes[0].cloud
    assert "clouds" not in purposes(s)
    assert events(s, "clouds") == [{"e": "clouds", "turn": 0, "bands": list(BANDS), "roll": None}]


@pytest.mark.parametrize(
    "alt, band, roll, inside",
    [(3, "heavy", 2, False), (3, "heavy", 3, True), (4, "light", 4, False), (4, "light", 5, True)],
)
def test_heavy_needs_three_light_needs_five(alt, band, roll, inside):
    """000 "CLOUDS" / Heavy: "on a roll of 3 or higher"; Light: "5 or higher"."""
    s = battle(
        [plane(BF, "axis", 10, 0, 0, alt=6), pre(HURRI, "allied", 0, 0, 0, alt=alt)],
        INIT + [roll],
        Rules(clouds=BANDS),
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    # the move is complete: the only choice is whether to try
    assert s.awaiting_cloud and s.legal_actions() == [EnterClouds(False), EnterClouds(True)]
    with pytest.raises(IllegalAction) as err:
        s.apply(STRAIGHT)
    assert "CLOUDS" in err.value.rule
    s.apply(EnterClouds(True))
    (c,) = events(s, "clouds_check")
    assert (c["band"], c["roll"], c["need"], c["in_clouds"]) == (
        band,
        roll,
        {3: 3, 4: 5}[alt],
        inside,
    )
    assert s.planes[1].cloud is inside


@pytest.mark.parametrize("alt", [3, 4])
def test_choosing_not_to_attempt_rolls_nothing(alt):
    """000 "CLOUDS": in a heavy or light band the aircraft "can attempt" to enter
    the clouds (ruling "Clouds": a choice); declining rolls no die."""
    s = cloud_battle(alt, [], attempt=False)
    (c,) = events(s, "clouds_check")
    assert (c["roll"], c["in_clouds"]) == (None, False)
    assert not s.planes[1].cloud and "clouds" not in purposes(s)


@pytest.mark.parametrize("alt", [1, 5, 6])
def test_clear_band_never_in_the_clouds(alt):
    """000 "CLOUDS" / Clear: "is not in the clouds" - and no choice is offered."""
    s = cloud_battle(alt, [])
    assert events(s, "clouds_check") == [] and not s.planes[1].cloud


def test_no_clouds_rule_no_checks():
    """000 "CLOUDS" is a special condition: without it no band, no choice, no roll."""
    for alt in (2, 3, 4):
        s = cloud_battle(alt, [], rules=Rules())
        assert events(s, "clouds_check") == [] and events(s, "clouds") == []
        assert not s.planes[1].cloud and "clouds" not in purposes(s)
        assert s.cloud_bands == ("clear",) * 6


def four_at_heavy(dice, clouds=()):
    """Two Bf 109s each 2 hexes behind a Hurricane, all at altitude 3 (heavy band):
    #0 behind #1, #2 behind #3. The Allies are first player."""
    s = battle(
        [
            pre(BF, "axis", 0, 2, 0),
            pre(HURRI, "allied", 0, 0, 0),
            pre(BF, "axis", 5, 2, 0),
            pre(HURRI, "allied", 5, 0, 0),
        ],
        INIT + list(dice),
        Rules(clouds=BANDS, tailing=True),
        pad=False,
    )
    fly(s, clouds=clouds)
    return s


@pytest.mark.parametrize("hidden", [0, 1])
def test_in_the_clouds_cannot_attack_or_be_attacked(hidden):
    """000 "EFFECTS OF BEING IN THE CLOUDS": "It can't attack or be attacked." The
    Bf 109 #0 has the Hurricane #1 at its 12 o'clock, range 2; whichever of the two
    is in the clouds, the attack is refused naming the rule."""
    s = four_at_heavy([3], clouds={hidden})
    assert s.planes[hidden].cloud and s.planes[1 - hidden].cloud is False
    assert not s.tailing(0, 1) and s.tailing(2, 3)  # neither tails nor is tailed
    assert s.phase == "attack" and s.current_side() == 0
    assert s.legal_actions() == [Attack(2, 3), Decline()]
    assert not can_attack(s, 0, 1)
    with pytest.raises(IllegalAction) as err:
        s.apply(Attack(0, 1))
    assert err.value.rule == "000 'EFFECTS OF BEING IN THE CLOUDS'"


def test_out_of_the_clouds_the_same_attack_is_legal():
    """000 "EFFECTS OF BEING IN THE CLOUDS" - absence: nobody in the clouds, the
    attack of the test above is open."""
    s = four_at_heavy([])
    assert not any(p.cloud for p in s.planes)
    assert s.legal_actions() == [Attack(0, 1), Attack(2, 3), Decline()]


def test_in_the_clouds_no_tailing_and_no_initiative_bonus():
    """000 "EFFECTS OF BEING IN THE CLOUDS": "It can't tail enemy aircraft or be
    tailed" - so the 000 "TAILING" count drops at the next initiative; the aircraft
    stays in the clouds until it moves again."""
    # Hurricane #1 hides (roll 3); #0 can't attack it; #2 attacks #3 (5 misses);
    # turn 2: 3 + 3 + 2 (tailing #3) beats 3 + 3
    s = four_at_heavy([3] + [1] * 5 + [3, 3, 3, 3], clouds={1})
    assert not s.tailing(0, 1) and s.tailing(2, 3)
    s.apply(Attack(2, 3))
    init = events(s, "initiative")[-1]
    assert init["turn"] == 2 and init["tailing"] == {"axis": 1, "allied": 0}
    assert init["bonus"] == {"axis": 2, "allied": 0} and init["winner"] == "axis"
    assert s.planes[1].cloud and not s.tailing(0, 1)  # it has not moved again
    assert s.phase == "movement" and s.current_side() == 1
    s.apply(Activate(1, 2))
    assert s.planes[1].cloud is False


def test_tailing_bonus_depends_on_the_clouds():
    """000 "EFFECTS OF BEING IN THE CLOUDS" vs. clear air: with the lone pair, the
    Bf 109 tails the Hurricane (+2) unless the Hurricane is in the clouds."""

    def pair(clouds, dice):
        s = battle(
            [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
            INIT + dice,
            Rules(clouds=BANDS, tailing=True),
            pad=False,
        )
        fly(s, clouds=clouds)
        if s.phase == "attack":
            s.apply(Decline())
        return s

    s = pair({1}, [3, 3, 3, 4, 4])  # Hurricane in the clouds; turn 2: 6 vs 8
    assert not s.tailing(0, 1)
    init = events(s, "initiative")[-1]
    assert init["tailing"] == {"axis": 0, "allied": 0} and init["winner"] == "allied"
    s = pair((), [3, 3, 4, 4])  # no clouds: 6 + 2 vs 8, the tie goes to the tailer
    assert s.tailing(0, 1)
    init = events(s, "initiative")[-1]
    assert init["bonus"] == {"axis": 2, "allied": 0} and init["winner"] == "axis"


def test_leaves_the_clouds_when_it_next_moves():
    """000 "EFFECTS OF BEING IN THE CLOUDS": "It remains in the clouds until it
    moves again" (and must attempt again to stay)."""
    s = cloud_battle(3, [5])
    assert s.planes[1].cloud and s.turn == 2  # through the attack phase and initiative
    s.apply(Activate(1, 2))  # Allies first (Axis won the turn-2 initiative)
    assert s.planes[1].cloud is False
    play(s, STRAIGHT, STRAIGHT, EnterClouds(False))
    assert s.planes[1].cloud is False
    # a solid band puts it straight back into the clouds
    s = cloud_battle(2, [])
    play(s, Activate(1, 2))
    assert s.planes[1].cloud is False
    play(s, STRAIGHT, STRAIGHT)
    assert s.planes[1].cloud is True


# the chart as printed in 000 "RANDOM CLOUD ARRANGEMENT": altitude -> columns 1, 2, 3-4, 5-6
BOOK_CHART = {
    1: ("light", "clear", "clear", "clear"),
    2: ("solid", "solid", "heavy", "light"),
    3: ("heavy", "heavy", "light", "light"),
    4: ("heavy", "light", "clear", "clear"),
    5: ("light", "clear", "clear", "clear"),
    6: ("clear", "clear", "clear", "clear"),
}


def test_transcribed_chart_matches_the_book_text():
    """000 "RANDOM CLOUD ARRANGEMENT": every row of the chart, read from the rulebook."""
    if not RULEBOOK.exists():
        pytest.skip("the rulebook text is not on this machine")
    text = RULEBOOK.read_text()
    start = text.index("RANDOM CLOUD ARRANGEMENT")
    block = text[start : text.index("FLAK FIELDS", start)]
    header = re.search(r"^\s*1\t2\t3-4\t5-6\s*$", block, re.M)
    assert header, "the chart's columns are 1, 2, 3-4, 5-6"
    rows = dict(
        (int(m.group(1)), tuple(w.lower() for w in m.group(2).split()))
        for m in re.finditer(r"^Altitude (\d)\t(.*)$", block, re.M)
    )
    assert rows == BOOK_CHART


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_random_cloud_chart(roll):
    """000 "RANDOM CLOUD ARRANGEMENT": one d6 at set-up picks the column
    (1, 2, 3-4, 5-6); the bands follow the printed chart row by row."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 5, 0, 0)],
        [roll] + INIT,
        Rules(random_clouds=True),
    )
    column = {1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}[roll]
    expected = tuple(BOOK_CHART[alt][column] for alt in range(1, 7))
    assert s.cloud_bands == expected
    assert CLOUD_CHART[CLOUD_COLUMN[roll]] == expected
    (c,) = events(s, "clouds")
    assert c["roll"] == roll and c["bands"] == list(expected)
    assert purposes(s)[0] == "cloud chart"  # before the first initiative


def test_random_cloud_chart_in_play():
    """000 "RANDOM CLOUD ARRANGEMENT" then 000 "CLOUDS": column 1 makes altitude 2
    solid, so a Hurricane ending its move there is in the clouds with no roll."""
    s = battle(
        [plane(BF, "axis", 10, 0, 0, alt=6), pre(HURRI, "allied", 0, 0, 0, alt=2)],
        [1] + INIT,
        Rules(random_clouds=True),
    )
    fly(s)
    assert events(s, "clouds_check")[0]["band"] == "solid" and s.planes[1].cloud


def test_no_random_chart_without_the_rule():
    """000 "RANDOM CLOUD ARRANGEMENT" is optional: off, no die at set-up."""
    s = battle([plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 5, 0, 0)], INIT, Rules())
    assert purposes(s)[0] == "initiative axis" and events(s, "clouds") == []


def test_placed_cloud_shapes():
    """000 "CLOUDS" (markers on the map; ruling "Placed clouds"): ending inside a
    placed cloud's hexes and altitudes is being in the clouds, with no roll; next
    to it, or above it, is not."""
    cloud = CloudShape(hexes=(at(0, 0), at(0, -1)), base=2, top=3)
    s = battle(
        [
            pre(BF, "axis", 0, 0, 0, alt=3),  # ends in the cloud
            pre(BF, "axis", 0, -1, 0, alt=4),  # ends in a cloud hex, above the top
            pre(HURRI, "allied", 1, 0, 0, alt=3),  # ends next to the cloud
            pre(HURRI, "allied", 0, -1, 3, alt=2),  # ends in the cloud, lower part
        ],
        INIT,
        Rules(cloud_shapes=(cloud,)),
    )
    assert s.cloud_bands == ("clear",) * 6
    fly(s)
    assert [p.cloud for p in s.planes] == [True, False, False, True]
    assert {(e["plane"], e["band"], e["roll"]) for e in events(s, "clouds_check")} == {
        (0, "placed", None),
        (3, "placed", None),
    }
    assert "clouds" not in purposes(s)
    # without the placed cloud: nobody in the clouds
    s = battle(
        [pre(BF, "axis", 0, 0, 0, alt=3), pre(HURRI, "allied", 0, -1, 3, alt=2)], INIT, Rules()
    )
    fly(s)
    assert not any(p.cloud for p in s.planes) and events(s, "clouds_check") == []


def test_move_plan_clouds_flag():
    """000 "CLOUDS" for whole-move plans (ruling "Whole-move plans"): a plan ending in
    a heavy band comes with and without the attempt; clouds=True rolls, clouds=False
    does not; a clear band offers no attempt."""
    ac = [pre(BF, "axis", 0, 0, 0, alt=3), plane(HURRI, "allied", 10, 0, 0, alt=6)]
    s = battle(ac, INIT_ALLIED + [3], Rules(clouds=BANDS))
    plans = legal_move_plans(s, 0)
    straight = [p for p in plans if p.speed == 2 and p.steps == (STRAIGHT, STRAIGHT)]
    assert sorted(p.clouds for p in straight) == [False, True]
    s.apply(MovePlan(0, 2, (STRAIGHT, STRAIGHT), "none", True))
    c = events(s, "clouds_check")[0]
    assert (c["roll"], c["need"], c["in_clouds"]) == (3, 3, True) and s.planes[0].cloud
    s = battle(ac, INIT_ALLIED, Rules(clouds=BANDS))
    s.apply(MovePlan(0, 2, (STRAIGHT, STRAIGHT), "none", False))
    c = events(s, "clouds_check")[0]
    assert (c["roll"], c["in_clouds"]) == (None, False) and "clouds" not in purposes(s)
    assert s.mover == -1 and s.planes[0].moved
    # the Hurricane at altitude 6 (clear) has no plan with an attempt
    s.apply(MovePlan(1, 2, (STRAIGHT, STRAIGHT), "none", False))
    # no clouds rule: no plan ever offers an attempt
    s = battle(ac, INIT_ALLIED, Rules())
    assert not any(p.clouds for p in legal_move_plans(s))
    s = battle(ac, INIT_ALLIED, Rules(clouds=BANDS))
    s.apply(MovePlan(0, 2, (STRAIGHT, STRAIGHT)))
    assert s.current_side() == 1
    plans = legal_move_plans(s, 1)
    assert not any(p.clouds for p in plans if all(st == STRAIGHT for st in p.steps))
    # ... but a Power Dive that may end at altitude 4 (light) comes with the attempt
    dive = Maneuver("power_dive", 2)
    assert {p.clouds for p in plans if dive in p.steps} == {False, True}

"""Optional rules and special conditions of 000, each with scripted dice showing its
effect when switched on and its absence when off (000 "OPTIONAL RULE: MIDAIR
COLLISION", "OPTIONAL RULES", "SPECIAL CONDITIONS"; the later-edition sixes of
*Bandits High*; the territory of "PILOT SURVIVAL")."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from engine_helpers import at, at_attack, axial, battle, events, plane, play, pre, where

from rules.angels20 import (
    CATALOGUE,
    Activate,
    Attack,
    ChoosePosition,
    CloudShape,
    Decline,
    EndMove,
    IllegalAction,
    Maneuver,
    Rules,
)
from rules.angels20.actions import STRAIGHT, Direct, EnterClouds, MovePlan
from rules.angels20.hexmap import DIRECTIONS
from rules.angels20.state import CLOUD_CHART, CLOUD_COLUMN, BattleState

BF, HURRI = "Bf 109E Wingman", "Hurricane Mk I"
INIT = [6, 6, 1, 1]  # the Axis wins the initiative: the Allies move and attack first
INIT_ALLIED = [1, 1, 6, 6]  # the Allies win: the Axis moves first
RULEBOOK = Path(__file__).resolve().parents[4] / "shared" / "rules" / "000_3e786b822f6e109d.txt"


def fly(s, speed: int = 2, clouds=()) -> None:
    """Fly every aircraft straight at ``speed`` until the Movement phase ends.

    The aircraft whose ids are in ``clouds`` try to enter the clouds when asked;
    the others stay out. All dice must already be in the script.
    """
    turn = s.turn
    while s.phase == "movement" and s.turn == turn:
        if s.mover < 0:
            act = next(a for a in s.legal_actions() if isinstance(a, Activate) and a.speed == speed)
            s.apply(act)
        elif s.awaiting_cloud:
            s.apply(EnterClouds(s.mover in clouds))
        elif s.awaiting_status:
            s.apply(EndMove("none"))
        else:
            s.apply(STRAIGHT)


def purposes(s) -> list[str]:
    """What every die rolled so far was for."""
    return [r.purpose for r in s.dice.rolls]


def hexes(s, kind: str) -> list[tuple[int, int]]:
    """Axial hexes of the ``kind`` events (flak, balloon)."""
    return [axial(*e["hex"]) for e in events(s, kind)]


# ====================================================================== midair collision


def head_on(rules: Rules, dice, axis_pilot=None, allied_pilot=None):
    """Bf 109 #0 and Hurricane #1 fly head-on into hex (0, 0) at altitude 3."""
    s = battle(
        [
            pre(BF, "axis", 0, 0, 0, pilot=axis_pilot),
            pre(HURRI, "allied", 0, 0, 3, pilot=allied_pilot),
        ],
        INIT + list(dice),
        rules,
    )
    fly(s)
    return s


def test_collision_both_roll_one_both_destroyed():
    """000 "OPTIONAL RULE: MIDAIR COLLISION": both roll a possible collision -> both
    destroyed at once; VP scored, no kill credit, pilot survival rolled (ruling
    "Losses to flak, balloons and collisions")."""
    s = head_on(Rules(midair_collision=True), [1, 1, 5, 2])  # collision x2, survival x2
    (c,) = events(s, "collision")
    assert c["alt"] == 3 and c["collided"] == [0, 1]
    assert [(r["plane"], r["roll"], r["possible"]) for r in c["rolls"]] == [
        (0, 1, True),
        (1, 1, True),
    ]
    assert [(e["plane"], e["how"], e["by"]) for e in events(s, "destroyed")] == [
        (0, "midair collision", -1),
        (1, "midair collision", -1),
    ]
    assert [p.out for p in s.planes] == [1, 1]
    # each side scores the other's aircraft, but nobody shot it down
    assert s.vp == [24.0, 27.0]
    assert [(e["plane"], e["roll"], e["survived"]) for e in events(s, "survival")] == [
        (0, 5, True),
        (1, 2, False),
    ]
    r = s.result()
    assert r["kills"] == [] and [a["destroyed_by"] for a in r["aircraft"]] == [None, None]
    # the check comes after the Movement phase, before the Attack phase
    kinds = [e["e"] for e in s.log]
    assert kinds.index("collision") > max(i for i, k in enumerate(kinds) if k == "move_end")


@pytest.mark.parametrize("rolls", [(1, 2), (6, 1), (2, 2), (3, 5)])
def test_collision_needs_both_to_roll_a_possible_collision(rolls):
    """000 "OPTIONAL RULE: MIDAIR COLLISION": a 1 is only a *possible* collision;
    average pilots do not collide on a 2."""
    s = head_on(Rules(midair_collision=True), rolls)
    (c,) = events(s, "collision")
    assert [r["roll"] for r in c["rolls"]] == list(rolls)
    assert [r["possible"] for r in c["rolls"]] == [r == 1 for r in rolls]
    assert c["collided"] == [] and events(s, "destroyed") == []
    assert [p.out for p in s.planes] == [0, 0] and s.turn == 2


def test_collision_poor_pilot_collides_on_two():
    """000 "OPTIONAL RULE: MIDAIR COLLISION": "1 or 2 for a poor pilot"."""
    s = head_on(Rules(midair_collision=True), [2, 1, 4, 4], axis_pilot="poor")
    (c,) = events(s, "collision")
    assert [r["possible"] for r in c["rolls"]] == [True, True]
    assert c["collided"] == [0, 1]
    # both poor: 2 and 2 collide
    s = head_on(Rules(midair_collision=True), [2, 2, 4, 4], "poor", "poor")
    assert events(s, "collision")[0]["collided"] == [0, 1]
    # a poor pilot's 3 is no possible collision
    s = head_on(Rules(midair_collision=True), [3, 1], axis_pilot="poor")
    assert events(s, "collision")[0]["collided"] == [] and s.turn == 2
    # the same 2 from an average pilot is nothing
    s = head_on(Rules(midair_collision=True), [2, 1])
    c = events(s, "collision")[0]
    assert [r["possible"] for r in c["rolls"]] == [False, True] and c["collided"] == []


def test_collision_switched_off_rolls_nothing():
    """000 "OPTIONAL RULE: MIDAIR COLLISION" is optional: off, two aircraft in one hex
    and altitude roll no die (the next dice are the turn-2 initiative)."""
    s = head_on(Rules(), [])
    assert where(s, 0)[0] == where(s, 1)[0] == (0, 0) and s.turn == 2
    assert events(s, "collision") == []
    assert "collision" not in purposes(s)
    assert s.dice.position == len(INIT) + 4  # turn 1 and turn 2 initiative only


def test_collision_only_same_hex_and_altitude():
    """000 "OPTIONAL RULE: MIDAIR COLLISION": "same hex and at the same altitude"."""
    s = battle(
        [pre(BF, "axis", 0, 0, 0, alt=4), pre(HURRI, "allied", 0, 0, 3, alt=3)],
        INIT,
        Rules(midair_collision=True),
    )
    fly(s)
    assert events(s, "collision") == [] and "collision" not in purposes(s)


def test_collision_after_same_side_stacking():
    """000 "STACKING" is resolved first (ruling "Midair collision"): the later Axis
    arrival goes back, so only the first Axis aircraft and the Hurricane roll."""
    s = battle(
        [
            plane(BF, "axis", 0, 2, 0),  # into (0, 0) first
            plane(BF, "axis", 2, 0, 5),  # into (0, 0) second: stacked back to (1, 0)
            plane(HURRI, "allied", 0, -2, 3),  # into (0, 0) from the north
        ],
        INIT + [1, 3],
        Rules(midair_collision=True),
    )
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT)
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    assert [e["plane"] for e in events(s, "stacking")] == [1]
    assert where(s, 1)[0] == (1, 0)
    (c,) = events(s, "collision")
    assert [r["plane"] for r in c["rolls"]] == [0, 2] and c["collided"] == []
    kinds = [e["e"] for e in s.log]
    assert kinds.index("stacking") < kinds.index("collision")


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
    assert not s.can_attack(0, 1)
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
    plans = s.legal_move_plans(0)
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
    assert not any(p.clouds for p in s.legal_move_plans())
    s = battle(ac, INIT_ALLIED, Rules(clouds=BANDS))
    s.apply(MovePlan(0, 2, (STRAIGHT, STRAIGHT)))
    assert s.current_side() == 1
    plans = s.legal_move_plans(1)
    assert not any(p.clouds for p in plans if all(st == STRAIGHT for st in p.steps))
    # ... but a Power Dive that may end at altitude 4 (light) comes with the attempt
    dive = Maneuver("power_dive", 2)
    assert {p.clouds for p in plans if dive in p.steps} == {False, True}


# ====================================================================== flak fields

FIELD = (*at(0, 0), 3)  # centre hex (0, 0), altitude 3


def field_hexes():
    return {(0, 0), *DIRECTIONS}


def test_flak_field_covers_seven_hexes_at_its_altitude():
    """000 "FLAK FIELDS" / Area Affected: "one central hex, and all six adjacent
    hexes"; Altitude: "a specific altitude"."""
    s = battle(
        [plane(BF, "axis", 8, 0, 0), plane(HURRI, "allied", 9, 4, 0)],
        INIT,
        Rules(flak_fields=(FIELD,)),
    )
    m = s.st.map
    assert s.st.flak == {m.index(*at(q, r)): frozenset({3}) for q, r in field_hexes()}


def test_flak_roll_in_each_field_hex_entered_friend_and_foe():
    """000 "FLAK FIELDS": "Make a flak roll in each hex of a flak field that an
    aircraft moves through"; 2-6 is nothing; friend and foe alike."""
    s = battle(
        [plane(BF, "axis", 0, 3, 0), plane(HURRI, "allied", 1, -3, 3)],
        INIT + [6, 2, 3, 5],
        Rules(flak_fields=(FIELD,)),
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)  # (1, -2) outside, (1, -1) in the field
    play(s, Activate(0, 4), STRAIGHT, STRAIGHT, STRAIGHT, STRAIGHT)  # (0, 2) out, 3 in
    assert hexes(s, "flak") == [(1, -1), (0, 1), (0, 0), (0, -1)]
    assert [(e["plane"], e["roll"], e["attacked"]) for e in events(s, "flak")] == [
        (1, 6, False),
        (0, 2, False),
        (0, 3, False),
        (0, 5, False),
    ]
    assert [p.damage for p in s.planes] == [0, 0]


@pytest.mark.parametrize(
    "dice, rolls, hits, outcome",
    [
        ([1, 2, 4, 1], [[4, 4, 1], [1, 1, 0]], 1, "miss"),
        ([1, 3, 6, 4, 1], [[6, 6, 2], [4, 4, 1], [1, 1, 0]], 3, "damage"),
        ([1, 3, 6, 6, 6], [[6, 6, 2]] * 3, 6, "destroyed"),
        ([1, 6, 5, 5, 5, 5, 5, 3], [[5, 5, 1]] * 5 + [[3, 3, 0]], 5, "damage"),
    ],
)
def test_flak_attack(dice, rolls, hits, outcome):
    """000 "FLAK FIELDS" / Flak Roll, Resolve Attacks Normally: on a 1, d6 attack
    dice at target number 4 (an unmodified 6 = 2 hits) against armor 3 (1 damage)
    and vital armor 6 (destroyed)."""
    s = battle(
        [pre(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 10, 0, 0, alt=6)],
        INIT_ALLIED + dice + [6, 4],  # then the flak roll in (0, 0) and a survival roll
        Rules(flak_fields=(FIELD,)),
    )
    play(s, Activate(0, 2), STRAIGHT)
    f = events(s, "flak")[0]
    assert (f["roll"], f["attacked"], f["dice"], f["target_number"]) == (1, True, dice[1], 4)
    assert (f["rolls"], f["hits"], f["outcome"]) == (rolls, hits, outcome)
    assert (f["armor"], f["vital_armor"]) == (3, 6)
    if outcome == "destroyed":
        assert s.planes[0].out == 1 and s.mover == -1  # the move ends there
        d = events(s, "destroyed")[0]
        assert (d["how"], d["by"]) == ("flak", -1)
        assert s.vp == [0.0, 27.0] and s.planes[0].killer == -1
        assert events(s, "survival")[0]["roll"] == 6
        assert len(events(s, "flak")) == 1
    else:
        assert s.planes[0].damage == (outcome == "damage")
        s.apply(STRAIGHT)  # into the centre hex: another roll (6)
        assert [e["roll"] for e in events(s, "flak")] == [1, 6]


def test_flak_attack_has_no_night_modifier():
    """000 "FLAK FIELDS" / Resolve Attacks Normally at target number 4 (ruling "Flak
    fields and barrage balloons": no pilot, night or crippled modifiers)."""
    s = battle(
        [pre(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 10, 0, 0, alt=6)],
        INIT_ALLIED + [1, 2, 4, 4],
        Rules(flak_fields=(FIELD,), night="moonlight", later_sixes=True),
    )
    play(s, Activate(0, 2), STRAIGHT)
    f = events(s, "flak")[0]
    assert (f["rolls"], f["hits"], f["outcome"]) == ([[4, 4, 1], [4, 4, 1]], 2, "miss")


def test_flak_only_at_the_field_altitude_and_only_when_placed():
    """000 "FLAK FIELDS" / Altitude: the same path one altitude higher or lower, or
    with no field, rolls no flak die."""
    for alt, rules in (
        (4, Rules(flak_fields=(FIELD,))),
        (2, Rules(flak_fields=(FIELD,))),
        (3, Rules()),
    ):
        s = battle(
            [plane(BF, "axis", 0, 3, 0, alt=alt), plane(HURRI, "allied", 10, 0, 0, alt=6)],
            INIT_ALLIED,
            rules,
        )
        play(s, Activate(0, 4), STRAIGHT, STRAIGHT, STRAIGHT, STRAIGHT)
        assert where(s, 0)[0] == (0, -1)
        assert events(s, "flak") == [] and "flak" not in purposes(s)


def test_flak_start_hex_is_not_entered():
    """000 "FLAK FIELDS": "Any aircraft entering a hex of a flak field" - the hex it
    starts its move in is not entered (ruling "Flak fields and barrage balloons")."""
    s = battle(
        [plane(BF, "axis", 0, 1, 3), plane(HURRI, "allied", 10, 0, 0, alt=6)],
        INIT_ALLIED + [5],
        Rules(flak_fields=(FIELD,)),
    )
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)  # from (0, 1) in the field: (0, 2) out, (0, 3)
    assert events(s, "flak") == []
    s = battle(
        [plane(BF, "axis", 0, 1, 0), plane(HURRI, "allied", 10, 0, 0, alt=6)],
        INIT_ALLIED + [5, 5],
        Rules(flak_fields=(FIELD,)),
    )
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)  # (0, 0), (0, -1): both in the field
    assert hexes(s, "flak") == [(0, 0), (0, -1)]


# ====================================================================== barrage balloons

BALLOON = at(0, 0)


def balloon_run(dice, alt: int = 1, rules: Rules | None = None):
    """Bf 109 #0 flies (0, 2) -> (0, 1) -> (0, 0), the balloon hex, at ``alt``."""
    s = battle(
        [pre(BF, "axis", 0, 0, 0, alt=alt), plane(HURRI, "allied", 10, 0, 0, alt=6)],
        INIT_ALLIED + list(dice),
        rules if rules is not None else Rules(barrage_balloons=(BALLOON,)),
    )
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)
    return s


@pytest.mark.parametrize("roll", [3, 4, 5, 6])
def test_balloon_roll_three_or_more_is_nothing(roll):
    """000 "BARRAGE BALLOONS" / Balloon Roll: only "a roll of 1 or 2" attacks."""
    s = balloon_run([roll])
    (b,) = events(s, "balloon")
    assert (b["roll"], b["attacked"]) == (roll, False) and hexes(s, "balloon") == [(0, 0)]
    assert s.planes[0].damage == 0 and s.planes[0].out == 0


@pytest.mark.parametrize(
    "roll, effect, outcome",
    [
        (1, 1, "miss"),
        (2, 2, "miss"),
        (1, 3, "damage"),
        (2, 4, "damage"),
        (1, 5, "destroyed"),
        (2, 6, "destroyed"),
    ],
)
def test_balloon_attack(roll, effect, outcome):
    """000 "BARRAGE BALLOONS": on 1-2 roll again: 1-2 no effect, 3-4 one point of
    damage, 5-6 destroyed (no kill credit; ruling "Losses to flak, balloons and
    collisions")."""
    s = balloon_run([roll, effect, 4])  # 4: the survival roll if destroyed
    (b,) = events(s, "balloon")
    assert (b["roll"], b["attacked"], b["effect_roll"], b["outcome"]) == (
        roll,
        True,
        effect,
        outcome,
    )
    p = s.planes[0]
    assert p.damage == (outcome == "damage")
    assert p.out == (outcome == "destroyed")
    if outcome == "destroyed":
        d = events(s, "destroyed")[0]
        assert (d["how"], d["by"], p.killer) == ("barrage balloon", -1, -1)
        assert s.vp == [0.0, 27.0]


def test_balloon_friend_and_foe_alike():
    """000 "BARRAGE BALLOONS": "threaten all aircraft that enter, regardless of
    whether they're friendly" - an Allied aircraft rolls at the same balloon."""
    s = battle(
        [plane(BF, "axis", 10, 0, 0, alt=6), pre(HURRI, "allied", 0, 0, 3, alt=1)],
        INIT + [2, 3],
        Rules(barrage_balloons=(BALLOON,)),
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    b = events(s, "balloon")[0]
    assert (b["plane"], b["outcome"]) == (1, "damage") and s.planes[1].damage == 1


@pytest.mark.parametrize("alt", [2, 3])
def test_balloon_only_at_altitude_one(alt):
    """000 "BARRAGE BALLOONS" / Altitude: "only threatens aircraft at altitude 1"."""
    s = balloon_run([], alt=alt)
    assert where(s, 0)[0] == (0, 0) and events(s, "balloon") == []
    assert "balloon" not in purposes(s)


def test_no_balloon_without_the_rule():
    """000 "BARRAGE BALLOONS" is a special condition: none placed, no roll."""
    s = balloon_run([], rules=Rules())
    assert where(s, 0) == ((0, 0), 0, 1) and events(s, "balloon") == []


def test_balloon_only_on_entering():
    """000 "BARRAGE BALLOONS": "Make a balloon roll when an aircraft enters the hex" -
    a Scissors that stays in the hex enters nothing, and leaving the hex it started
    in rolls nothing (ruling "Flak fields and barrage balloons")."""
    s = battle(
        [plane(BF, "axis", 0, 1, 0, alt=1), plane(HURRI, "allied", 10, 0, 0, alt=6)],
        INIT_ALLIED + [3, 4, 4],  # balloon roll 3; Scissors 4 + 4 + 3 >= 10
        Rules(barrage_balloons=(BALLOON,)),
    )
    play(s, Activate(0, 2), STRAIGHT, Maneuver("scissors"))
    assert events(s, "maneuver")[0]["success"] and where(s, 0)[0] == (0, 0)
    assert [e["roll"] for e in events(s, "balloon")] == [3]  # once, on entering
    # starting in the balloon hex and flying out: no roll
    s = battle(
        [plane(BF, "axis", 0, 0, 0, alt=1), plane(HURRI, "allied", 10, 0, 0, alt=6)],
        INIT_ALLIED,
        Rules(barrage_balloons=(BALLOON,)),
    )
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)
    assert events(s, "balloon") == [] and "balloon" not in purposes(s)


# ====================================================================== night combat

NIGHT_FIGHTER = replace(CATALOGUE[BF], name="Bf 110 night", abilities=("Night Fighter",))


def rear_shot(attack_dice, rules: Rules, stats=None, init=INIT):
    """Bf 109 #0 two hexes behind Hurricane #1 (6 o'clock, target number 4, 5 dice)."""
    kw = {"stats": stats} if stats is not None else {}
    return at_attack(
        [pre(BF, "axis", 0, 2, 0, **kw), pre(HURRI, "allied", 0, 0, 0)],
        attack_dice,
        rules,
        init=tuple(init),
    )


@pytest.mark.parametrize("night", ["day", "moonlight"])
def test_moonlight_minus_one_per_die(night):
    """000 "EFFECTS OF MOONLIGHT": "All attacks suffer an attack penalty (-1 per
    die)" - the 4s that hit by day miss by moonlight."""
    s = rear_shot([4, 4, 6, 1, 1], Rules(night=night))
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert a["target_number"] == 4
    if night == "day":
        assert a["modifiers"] == [] and a["rolls"][:3] == [[4, 4, 1], [4, 4, 1], [6, 6, 2]]
        assert (a["hits"], a["outcome"]) == (4, "damage")
    else:
        assert a["modifiers"] == [["moonlight", -1]] and a["modifier"] == -1
        assert a["rolls"][:3] == [[4, 3, 0], [4, 3, 0], [6, 5, 2]]
        assert (a["hits"], a["outcome"]) == (2, "miss")


def test_moonlight_keeps_tailing_and_attacks():
    """000 "EFFECTS OF MOONLIGHT" only penalises attacks: tailing and attacking stay."""
    s = rear_shot([1] * 5, Rules(night="moonlight", tailing=True))
    assert s.tailing(0, 1) and s.can_attack(0, 1)
    assert events(s, "initiative")[0]["tailing"] == {"axis": 1, "allied": 0}


def test_darkness_no_attack_without_a_means():
    """000 "EFFECTS OF DARKNESS" / Requirements to Attack: without a night-fighting
    ability, direction or an illuminated target there is no attack, so the Attack
    phase passes with no shot; and tailing is ignored."""
    s = rear_shot([], Rules(night="darkness", tailing=True))
    assert s.turn == 2 and events(s, "attack") == []
    assert [e["side"] for e in events(s, "no_attacks")] == ["allied", "axis"]
    assert not s.tailing(0, 1)
    assert [e["tailing"] for e in events(s, "initiative")] == [{"axis": 0, "allied": 0}] * 2
    rule, _ = s._attack_problem(0, 1)
    assert rule == "000 'EFFECTS OF DARKNESS' / Requirements to Attack"
    # the same geometry by day tails and attacks
    s = rear_shot([1] * 5, Rules(tailing=True))
    assert s.tailing(0, 1) and s.legal_actions() == [Attack(0, 1), Decline()]


def test_darkness_night_fighter_may_attack_at_minus_one():
    """000 "EFFECTS OF DARKNESS": "a special ability allowing it to attack in
    darkness" (Night Fighter), with the -1 per die."""
    s = rear_shot([4, 4, 5, 1, 1], Rules(night="darkness"), stats=NIGHT_FIGHTER)
    assert s.legal_actions() == [Attack(0, 1), Decline()]
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert a["modifiers"] == [["darkness", -1]]
    assert [r[1] for r in a["rolls"]] == [3, 3, 4, 0, 0] and a["hits"] == 1
    # the ability alone does nothing to the Hurricane, which still can't fire back
    assert not s.can_attack(1, 0)


def test_darkness_direction_enables_the_attack():
    """000 "EFFECTS OF DARKNESS": "it is under direction" (000 "FIGHTER DIRECTION")."""
    s = battle(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
        INIT + [6, 6, 6, 1, 1, 4],
        Rules(night="darkness", fighter_direction=(1, 0)),
    )
    assert s.phase == "direction" and s.current_side() == 0
    s.apply(Direct((0,)))
    assert s.planes[0].directed and s.phase == "movement"
    fly(s)
    assert s.legal_actions() == [Attack(0, 1), Decline()]
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert a["modifiers"] == [["darkness", -1]] and a["outcome"] == "destroyed"
    # without direction (Direct nobody) the same position has no shot
    s = battle(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
        INIT,
        Rules(night="darkness", fighter_direction=(1, 0)),
    )
    s.apply(Direct(()))
    fly(s)
    assert s.turn == 2 and events(s, "attack") == []


@pytest.mark.parametrize("roll, lit", [(4, False), (5, True)])
def test_darkness_illumination_enables_the_attack(roll, lit):
    """000 "EFFECTS OF DARKNESS": "the target is illuminated"; 000 "ILLUMINATION":
    a fighter is illuminated on 5+, rolled just before the Attack phase."""
    s = rear_shot([roll], Rules(night="darkness", searchlights=(True, False)))
    (e,) = [x for x in events(s, "illumination") if x["turn"] == 1]
    assert (e["plane"], e["roll"], e["need"], e["lit"]) == (1, roll, 5, lit)
    if lit:
        assert s.phase == "attack" and s.planes[1].lit
        assert s.legal_actions() == [Attack(0, 1), Decline()]
    else:
        assert s.turn == 2 and events(s, "attack") == []
    kinds = [x["e"] for x in s.log]
    assert kinds.index("illumination") < kinds.index("attack_phase")


# ====================================================================== illumination


@pytest.mark.parametrize(
    "kind, need",
    [
        ("heavy bomber", 2),
        ("medium bomber", 3),
        ("bomber", 3),  # a plain bomber is a medium bomber (ruling "Bomber classes")
        ("light bomber", 4),
        ("heavy fighter", 4),
        ("fighter", 5),
        ("naval fighter", 5),
    ],
)
@pytest.mark.parametrize("below", [True, False])
def test_illumination_by_class(kind, need, below):
    """000 "ILLUMINATION" / Illumination Roll: heavy bomber 2+, medium bomber 3+,
    light bomber 4+, heavy fighter 4+, fighter or naval fighter 5+ - each class at
    its number is lit, one below is not."""
    target = replace(CATALOGUE[HURRI], name=kind, kind=kind)
    roll = need - 1 if below else need
    s = at_attack(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0, stats=target)],
        [roll],
        Rules(night="darkness", searchlights=(True, False)),
    )
    # only the enemies of the side with searchlights roll
    (e,) = [x for x in events(s, "illumination") if x["turn"] == 1]
    assert (e["plane"], e["roll"], e["need"], e["lit"]) == (1, roll, need, not below)
    if below:  # not lit: in darkness nobody has a shot, the turn is over
        assert s.turn == 2 and events(s, "attack") == []
    else:
        assert s.phase == "attack" and s.planes[1].lit
        assert s.legal_actions() == [Attack(0, 1), Decline()]


def test_bomber_ability_on_a_fighter_card_is_a_medium_bomber():
    """000 "ILLUMINATION" with ruling "Bomber classes": a fighter card flown as a
    bomber rolls as a medium bomber (3+)."""
    target = replace(CATALOGUE[HURRI], abilities=("Bomber",))
    s = at_attack(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0, stats=target)],
        [3],
        Rules(night="darkness", searchlights=(True, False)),
    )
    assert events(s, "illumination")[0]["need"] == 3 and s.planes[1].lit


def test_searchlights_of_both_sides():
    """000 "ILLUMINATION": each side's searchlights roll for the enemy aircraft (ruling
    "Night, fighter direction, illumination"); a lit Bf 109 can be attacked too."""
    s = rear_shot([4, 5], Rules(night="darkness", searchlights=(True, True)))
    assert [(e["plane"], e["roll"], e["lit"]) for e in events(s, "illumination")] == [
        (0, 4, False),
        (1, 5, True),
    ]
    s = rear_shot([1], Rules(night="darkness", searchlights=(False, True)))
    assert [(e["plane"], e["lit"]) for e in events(s, "illumination") if e["turn"] == 1] == [
        (0, False)
    ]
    assert s.turn == 2  # the Hurricane is not lit: the Bf 109 has no shot


def test_illumination_rerolled_each_turn():
    """000 "ILLUMINATION": lit "until the end of the game turn"."""
    s = battle(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
        INIT + [6] + INIT + [2],
        Rules(night="darkness", searchlights=(True, False)),
    )
    fly(s)
    assert s.planes[1].lit
    s.apply(Decline())
    assert s.turn == 2 and s.phase == "movement" and not s.planes[1].lit
    fly(s)
    e = events(s, "illumination")
    assert [(x["turn"], x["roll"], x["lit"]) for x in e] == [(1, 6, True), (2, 2, False)]


def test_no_illumination_by_day_or_moonlight():
    """000 "ILLUMINATION" is part of "NIGHT COMBAT" in darkness: by day or moonlight
    searchlights roll nothing (and direction is not assigned)."""
    for night in ("day", "moonlight"):
        s = rear_shot(
            [1] * 5,
            Rules(night=night, searchlights=(True, True), fighter_direction=(2, 2)),
        )
        assert events(s, "illumination") == [] and events(s, "direction") == []
        assert "illumination" not in purposes(s)
        assert s.legal_actions() == [Attack(0, 1), Decline()]
        s.apply(Attack(0, 1))
        mods = events(s, "attack")[0]["modifiers"]
        assert mods == ([] if night == "day" else [["moonlight", -1]])


# ====================================================================== fighter direction


def test_direction_options_are_fighter_sets_up_to_capacity():
    """000 "FIGHTER DIRECTION": "For each point of direction capacity available, you
    can provide fighter direction to one friendly fighter" - any set of own
    fighters up to the capacity; never a bomber, never an enemy."""
    he111 = CATALOGUE["He 111 bomber token"]
    s = battle(
        [
            plane(BF, "axis", 0, 0, 0),
            plane(BF, "axis", 2, 0, 0),
            plane("Bf 110C", "axis", 4, 0, 0),
            plane(BF, "axis", 6, 0, 0, stats=he111),
            plane(HURRI, "allied", 0, 8, 0),
        ],
        INIT,
        Rules(night="darkness", fighter_direction=(2, 0)),
    )
    assert s.phase == "direction" and s.current_side() == 0
    assert s.legal_actions() == [
        Direct(()),
        Direct((0,)),
        Direct((1,)),
        Direct((2,)),
        Direct((0, 1)),
        Direct((0, 2)),
        Direct((1, 2)),
    ]
    for bad in (Direct((0, 1, 2)), Direct((3,)), Direct((4,))):
        with pytest.raises(IllegalAction) as err:
            s.apply(bad)
        assert err.value.rule == "000 'FIGHTER DIRECTION'"
    s.apply(Direct((0, 2)))
    assert [p.directed for p in s.planes] == [True, False, True, False, False]
    assert events(s, "direction")[0]["planes"] == [0, 2]
    assert s.phase == "movement"  # the Allies have no capacity: nothing to assign


@pytest.mark.parametrize(
    "init, order", [(INIT, ["allied", "axis"]), (INIT_ALLIED, ["axis", "allied"])]
)
def test_direction_after_initiative_first_player_first(init, order):
    """000 "FIGHTER DIRECTION" / Assigning Direction: "After the Initiative phase"
    (ruling "Night, fighter direction, illumination": first player first)."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 0, 8, 0)],
        init,
        Rules(night="darkness", fighter_direction=(1, 1)),
    )
    kinds = [e["e"] for e in s.log]
    assert kinds[-1] == "initiative" and s.phase == "direction"
    first = s.current_side()
    s.apply(Direct((first,)))  # plane ids happen to equal side indices here
    s.apply(Direct((1 - first,)))
    assert [e["side"] for e in events(s, "direction")] == order
    assert s.phase == "movement" and all(p.directed for p in s.planes)


def test_direction_after_the_turn_position_choice():
    """000 "FIGHTER DIRECTION" with 000 "CHOOSING TURN POSITION": the initiative
    winner chooses first, then the first player assigns direction."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 0, 8, 0)],
        INIT,
        Rules(night="darkness", fighter_direction=(1, 1), turn_position=True),
    )
    assert s.phase == "position"
    s.apply(ChoosePosition(True))  # the Axis moves first
    assert s.phase == "direction" and s.current_side() == 0


def test_direction_kept_until_reassigned():
    """000 "FIGHTER DIRECTION": "Your aircraft receives direction until you choose to
    reassign direction to a different aircraft in a subsequent Initiative phase"."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(BF, "axis", 3, 0, 0), plane(HURRI, "allied", 0, 8, 0)],
        INIT + INIT + INIT,
        Rules(night="darkness", fighter_direction=(1, 0)),
        pad=False,
    )
    s.apply(Direct((0,)))
    fly(s)
    assert s.turn == 2 and s.phase == "direction"
    assert s.planes[0].directed  # still directed into the next Initiative phase
    assert Direct((0,)) in s.legal_actions()  # keeping it is one of the choices
    s.apply(Direct((0,)))
    fly(s)
    assert s.turn == 3 and [p.directed for p in s.planes] == [True, False, False]
    s.apply(Direct((1,)))  # reassigned
    assert [p.directed for p in s.planes] == [False, True, False]


@pytest.mark.parametrize("night", ["day", "moonlight"])
def test_direction_only_in_darkness(night):
    """000 "FIGHTER DIRECTION" belongs to night combat in darkness (ruling): by day or
    moonlight there is no direction phase and Direct is refused."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 0, 8, 0)],
        INIT,
        Rules(night=night, fighter_direction=(1, 1)),
    )
    assert s.phase == "movement"
    with pytest.raises(IllegalAction) as err:
        s.apply(Direct((0,)))
    assert "Assigning Direction" in err.value.rule
    assert not any(p.directed for p in s.planes)


# ====================================================================== later-edition sixes


def two_oclock_shot(attack_dice, rules: Rules, attacker=BF):
    """Bf 109 #0 at the Hurricane's 2 o'clock, range 1: target number 6, 7 dice."""
    s = at_attack(
        [pre(attacker, "axis", 1, -1, 4), pre(HURRI, "allied", 0, 0, 0)], attack_dice, rules
    )
    if s.current_side() == 1:
        s.apply(Decline())
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert (a["aspect"], a["target_number"], a["dice"]) == ("2 o'clock", 6, 7)
    return a


@pytest.mark.parametrize("later, hits", [(True, 1), (False, 2)])
def test_later_sixes_when_modifiers_raise_the_number_to_seven(later, hits):
    """Later-edition sixes (*Bandits High*, 2013): target number 6 with -1 per die
    (moonlight) is 7+, so an unmodified 6 scores one hit instead of two."""
    a = two_oclock_shot([6, 5, 5, 1, 1, 1, 1], Rules(night="moonlight", later_sixes=later))
    assert a["modifier"] == -1
    assert a["rolls"][:2] == [[6, 5, hits], [5, 4, 0]] and a["hits"] == hits


def test_later_sixes_do_not_touch_a_number_of_six_or_less():
    """Later-edition sixes: "where modifiers raise the target number to 7 or more"
    only - at target number 6 (no modifier), or 4 with -1, a 6 is still two hits."""
    a = two_oclock_shot([6, 1, 1, 1, 1, 1, 1], Rules(later_sixes=True))
    assert a["modifier"] == 0 and a["rolls"][0] == [6, 6, 2] and a["hits"] == 2
    s = rear_shot([6, 1, 1, 1, 1], Rules(night="moonlight", later_sixes=True))
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert (a["target_number"], a["modifier"], a["rolls"][0], a["hits"]) == (4, -1, [6, 5, 2], 2)
    # an Ace's +1 cancels the moonlight: 6 - 0 = 6, two hits
    a = two_oclock_shot(
        [6, 1, 1, 1, 1, 1, 1], Rules(night="moonlight", later_sixes=True), "Bf 109E Ace"
    )
    assert a["modifier"] == 0 and a["rolls"][0] == [6, 6, 2]


# ====================================================================== territory


@pytest.mark.parametrize(
    "territory, roll, modifier, survived",
    [
        ("friendly", 3, 1, True),
        ("friendly", 2, 1, False),
        ("neutral", 4, 0, True),
        ("neutral", 3, 0, False),
        ("enemy", 5, -1, True),
        ("enemy", 4, -1, False),
    ],
)
def test_territory_modifies_pilot_survival(territory, roll, modifier, survived):
    """000 "PILOT SURVIVAL": d6, 4+ survives; +1 over friendly territory, -1 over
    enemy territory. The territory is that of the downed aircraft's side."""
    other = "enemy" if territory == "friendly" else "friendly"
    s = at_attack(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
        [6, 6, 6, 1, 1, roll],
        territory=(other, territory),
    )
    s.apply(Attack(0, 1))
    e = events(s, "survival")[0]
    assert (e["plane"], e["roll"], e["modifier"], e["survived"]) == (1, roll, modifier, survived)
    assert s.planes[1].survival == [roll, modifier, survived]


# ====================================================================== settings


@pytest.mark.parametrize(
    "kw, rule",
    [
        ({"flak_fields": ((3, 3, 1),)}, "FLAK FIELDS"),
        ({"flak_fields": ((3, 3, 5),)}, "FLAK FIELDS"),
        ({"barrage_balloons": ((3, 3, 1),)}, "BARRAGE BALLOONS"),
        ({"clouds": ("solid",) * 5}, "CLOUDS"),
        ({"clouds": ("solid",) * 5 + ("fog",)}, "CLOUDS"),
        ({"night": "dusk"}, "NIGHT COMBAT"),
        ({"fighter_direction": (-1, 0)}, "FIGHTER DIRECTION"),
    ],
)
def test_bad_settings_name_the_rule(kw, rule):
    """000 "FLAK FIELDS" (altitude 2, 3 or 4), "BARRAGE BALLOONS" (one hex),
    "CLOUDS" (a band for each of altitudes 1-6), "NIGHT COMBAT", "FIGHTER DIRECTION"."""
    with pytest.raises(ValueError, match=rule):
        Rules(**kw)


def test_all_off_by_default():
    """Every optional rule and special condition is off unless switched on."""
    r = Rules()
    assert r.optional_rules_on == ()
    assert not (r.midair_collision or r.later_sixes or r.random_clouds)
    assert r.night == "day" and r.fighter_direction == (0, 0)


# ====================================================================== JSON and undo

ALL_ON = Rules(
    tailing=True,
    turn_position=True,
    status=True,
    midair_collision=True,
    random_clouds=True,
    cloud_shapes=(CloudShape(hexes=(at(6, 0),), base=3, top=4),),
    flak_fields=((*at(3, -2), 3),),
    barrage_balloons=(at(8, 0),),
    night="darkness",
    fighter_direction=(1, 1),
    searchlights=(True, True),
    later_sixes=True,
)


def all_on_battle():
    """Every optional rule on. Chart roll 1: altitude 3 heavy. The Axis wins the
    initiative and chooses to move first."""
    s = battle(
        [
            pre(BF, "axis", 0, 2, 0),
            pre(HURRI, "allied", 0, 0, 0),
            pre(BF, "axis", 3, 0, 0),  # flies through the flak field
            pre(HURRI, "allied", 6, 0, 0),  # ends in the placed cloud
        ],
        [1] + INIT + [4, 5, 3, 6, 2, 5, 3] + [1] * 30 + [6, 5, 1, 1] * 6,  # never a tie
        ALL_ON,
    )
    return s


def round_trip(s) -> BattleState:
    t = BattleState.loads(s.dumps())
    assert t == s and t.dumps() == s.dumps()
    assert t.legal_actions() == s.legal_actions()
    assert t.cloud_bands == s.cloud_bands and isinstance(t.cloud_bands, tuple)
    assert [p.as_tuple() for p in t.planes] == [p.as_tuple() for p in s.planes]
    return t


def test_json_round_trip_mid_battle_with_every_option():
    """The battle record (000 "SEQUENCE OF PLAY" with every special condition): at
    every step the JSON round trip equals the original and plays on identically."""
    s = all_on_battle()
    assert s.scenario.rules == Rules.from_json(s.scenario.rules.to_json())
    assert set(s.scenario.rules.optional_rules_on) == {
        "midair collision",
        "clouds",
        "flak fields",
        "barrage balloons",
        "darkness",
        "fighter direction",
        "illumination",
        "later-edition sixes",
    }
    assert s.cloud_bands == CLOUD_CHART[0]
    twin = round_trip(s)
    seen = set()
    steps = 0
    while not s.is_over() and s.turn <= 2 and steps < 200:
        seen.add(s.phase)
        acts = s.legal_actions()
        if s.phase == "movement" and s.mover < 0:
            act = next(a for a in acts if isinstance(a, Activate) and a.speed == 2)
        elif s.awaiting_cloud:
            act = EnterClouds(True)
        elif s.phase == "direction":
            act = acts[1] if len(acts) > 1 else acts[0]
        elif s.phase == "movement":
            act = STRAIGHT if STRAIGHT in acts else acts[0]
        elif s.phase == "position":
            act = ChoosePosition(True)
        else:
            act = acts[0]
        s.apply(act)
        twin.apply(act)
        assert twin == s
        twin = round_trip(s)
        steps += 1
    assert {"position", "direction", "movement"} <= seen
    got = {e["e"] for e in s.log}
    assert {"clouds", "clouds_check", "direction", "flak", "illumination"} <= got
    assert any(p.cloud for p in s.planes) or any(e["in_clouds"] for e in events(s, "clouds_check"))


def test_undo_after_enter_clouds_and_direct():
    """Undo (python-chess ``pop``) restores the state exactly after an EnterClouds
    (000 "CLOUDS") or a Direct (000 "FIGHTER DIRECTION"), dice included."""
    s = all_on_battle()
    s.apply(ChoosePosition(True))
    assert s.phase == "direction" and s.current_side() == 0
    before = s.dumps()
    s.apply(Direct((0,)))
    assert s.planes[0].directed and s.current_side() == 1
    s.undo()
    assert s.dumps() == before and not s.planes[0].directed
    s.apply(Direct((2,)))
    s.apply(Direct((1,)))
    assert s.phase == "movement"
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT, EndMove("none"))
    assert s.awaiting_cloud
    before = s.dumps()
    position = s.dice.position
    s.apply(EnterClouds(True))
    assert s.dice.position == position + 1 and events(s, "clouds_check")
    cloud_after = s.planes[0].cloud
    s.undo()
    assert s.dumps() == before and s.awaiting_cloud and s.dice.position == position
    assert not s.planes[0].cloud
    s.apply(EnterClouds(True))  # the same die again
    assert s.planes[0].cloud == cloud_after
    s.undo()
    s.apply(EnterClouds(False))
    assert s.dice.position == position and not s.planes[0].cloud

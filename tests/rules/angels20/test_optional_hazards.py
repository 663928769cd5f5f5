"""Flak fields and barrage balloons (000 "SPECIAL CONDITIONS"), with scripted dice, on and off."""

from __future__ import annotations

import pytest
from engine_helpers import at, battle, events, plane, play, pre, where
from optional_helpers import BF, HURRI, INIT, INIT_ALLIED, hexes, purposes

from rules.angels20 import (
    CATALOGUE,
    Activate,
    Maneuver,
    Rules,
)
from rules.angels20.actions import STRAIGHT
from rules.angels20.hexmap import DIRECTIONS

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
        assert s.vp == [0.0, float(CATALOGUE[BF].cost)] and s.planes[0].killer == -1
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
        assert s.vp == [0.0, float(CATALOGUE[BF].cost)]


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

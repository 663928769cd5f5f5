"""Bombers (000 "BATTLE OF BRITAIN: LIMITED FUEL" and "BOMBER ESCORT SCENARIO", Bomber Stats).

"The bombers can only turn or fly straight, and can't perform any other
maneuvers. Each bomber has defensive machine guns: Attack 3 at range 1, and
Attack 2 at range 2. It can attack in any direction." Limited Fuel adds "Until
they are attacked, the bombers can't turn." The card game's bombers in the
catalog (kinds light / medium / heavy bomber, or any card with the "Bomber"
ability) fly by the same rules with their own card's numbers
(AircraftStats.is_bomber; ruling "Special abilities", table row Bomber).
"""

from __future__ import annotations

import dataclasses

import pytest
from engine_helpers import advance, at_attack, battle, events, plane, play, pre

from rules.angels20 import (
    CATALOGUE,
    Activate,
    AircraftStats,
    Attack,
    Decline,
    EndMove,
    IllegalAction,
    Maneuver,
    Rules,
)
from rules.angels20.actions import STRAIGHT, TURN_LEFT, TURN_RIGHT
from rules.angels20.aircraft import medium_bomber
from rules.angels20.attacks import can_attack, distance
from rules.angels20.plans import legal_move_plans

BF, HURRI = "Bf 109E Wingman", "Hurricane Mk I"
HE111, MEDIUM = "He 111 bomber token", "Medium bomber token"
MOVES = {STRAIGHT, TURN_LEFT, TURN_RIGHT}


def catalog_bomber(kind: str, abilities: tuple[str, ...] = ()) -> AircraftStats:
    """A catalog-style bomber card (values like the card game's B-17 in the catalog)."""
    return AircraftStats(
        name=f"Test {kind}", nation="United States", kind=kind, cost=55, pilot="average",
        speed_min=2, speed_max=2, high_speed_min=None, high_speed_max=None,
        attack=(5, 3, 0), armor=4, vital_armor=10, hits=6,
        turn=0, roll=0, climb=0, dive=0, abilities=abilities,
    )  # fmt: skip


def fighter_bomber() -> AircraftStats:
    """A fighter-kind card that flies as a bomber because it has the Bomber ability."""
    return dataclasses.replace(CATALOGUE[BF], name="Bf 109E bomber", abilities=("Bomber",))


BOMBERS = {
    "He 111 token": CATALOGUE[HE111],
    "medium bomber token": CATALOGUE[MEDIUM],
    "heavy bomber": catalog_bomber("heavy bomber"),
    "medium bomber": catalog_bomber("medium bomber", ("Bomber",)),
    "light bomber": catalog_bomber("light bomber", ("Bomber", "Night Fighter")),
    "fighter with Bomber": fighter_bomber(),
}


def test_bomber_token_stats():
    """000 "BOMBER STATS": He 111 armor 3, vital 8, hits 5, speed 2, 40 points; the Bomber
    Escort medium bomber armor 4, vital 9, hits 5, speed 2; both Attack 3 / 2 / -."""
    he = CATALOGUE[HE111]
    assert (he.armor, he.vital_armor, he.hits, he.cost) == (3, 8, 5, 40)
    med = CATALOGUE[MEDIUM]
    assert (med.armor, med.vital_armor, med.hits) == (4, 9, 5)
    for s in (he, med, medium_bomber("United States")):
        assert (s.speed_min, s.speed_max, s.high_speed_min) == (2, 2, None)
        assert s.attack == (3, 2, 0)
        assert s.is_bomber
    us = medium_bomber("United States")
    assert us.nation == "United States" and (us.armor, us.vital_armor, us.hits) == (4, 9, 5)


def test_what_is_a_bomber():
    for name, stats in BOMBERS.items():
        assert stats.is_bomber, name
    assert not CATALOGUE[BF].is_bomber
    assert not CATALOGUE["Bf 110C"].is_bomber  # a heavy fighter is a fighter


# -- movement: straight or turn only ------------------------------------------------


def first_move(stats, rules=None, kind="custom", **kw):
    """The aircraft (Axis, id 0) has just been activated at speed 2; the Axis moves first."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0, 3, stats=stats), plane(HURRI, "allied", 8, 0, 0)],
        [1, 1, 6, 6],
        rules,
        kind=kind,
        **kw,
    )
    s.apply(Activate(0, 2))
    return s


@pytest.mark.parametrize("name", list(BOMBERS))
def test_bomber_flies_straight_or_turns_only(name):
    """000 "BOMBER STATS": "can only turn or fly straight, and can't perform any other
    maneuvers" - whatever its speed, altitude or card; with the status rule it takes no
    status (ruling "Status and required maneuvers": bombers take no status)."""
    stats = BOMBERS[name]
    s = first_move(stats, Rules(status=True))
    assert set(s.legal_actions()) == MOVES
    with pytest.raises(IllegalAction) as err:
        s.apply(Maneuver("climb"))
    assert "BOMBER STATS" in err.value.rule
    play(s, TURN_RIGHT, STRAIGHT)
    assert s.planes[0].moved and s.mover == -1  # no EndMove: the move is over
    assert not events(s, "status") and s.planes[0].facing == 1
    s = first_move(stats, Rules(status=True))
    s.undo()
    plans = legal_move_plans(s, 0)
    assert plans and {p.status for p in plans} == {"none"}
    assert all(set(p.steps) <= MOVES for p in plans)
    assert any(TURN_LEFT in p.steps for p in plans)


def test_a_fighter_without_the_bomber_ability_maneuvers():
    """The same Bf 109E card without "Bomber" may try every difficult maneuver and picks a
    status (000 "DIFFICULT MANEUVERS", "AIRCRAFT STATUS")."""
    s = first_move(CATALOGUE[BF], Rules(status=True))
    acts = s.legal_actions()
    assert set(acts) > MOVES
    assert {a.kind for a in acts if isinstance(a, Maneuver)} == {
        "break", "barrel_roll", "climb", "power_dive", "split_s", "scissors", "tight_turn",
    }  # fmt: skip
    play(s, STRAIGHT, STRAIGHT)
    assert s.awaiting_status and EndMove("diving") in s.legal_actions()
    s = first_move(CATALOGUE[BF], Rules(status=True))
    s.undo()
    plans = legal_move_plans(s, 0)
    assert any(isinstance(a, Maneuver) for p in plans for a in p.steps)
    assert {p.status for p in plans} > {"none"}


# -- defensive guns: any direction, 3 dice at range 1, 2 at range 2 ---------------------


@pytest.mark.parametrize(
    "at, facing, rng, dice",
    [
        ((0, -1), 0, 1, 3),  # 12 o'clock
        ((0, 1), 3, 1, 3),  # 6 o'clock: dead astern
        ((1, 0), 2, 1, 3),  # 4 o'clock
        ((-1, 0), 5, 1, 3),  # 8 o'clock side
        ((0, 2), 3, 2, 2),
        ((-1, 2), 4, 2, 2),
        ((2, -1), 1, 2, 2),
        ((0, 3), 3, 3, 0),  # no guns at range 3
    ],
)
@pytest.mark.parametrize("token", [HE111, MEDIUM])
def test_bomber_guns_fire_in_any_direction(token, at, facing, rng, dice):
    """000 "BOMBER STATS": "Attack 3 at range 1, and Attack 2 at range 2. It can attack in
    any direction." The bomber (Axis) ends at the origin facing N; the Hurricane ends at
    ``at`` flying away from it, so only the bomber can shoot."""
    s = at_attack([pre(token, "axis", 0, 0, 0), pre(HURRI, "allied", *at, facing)], [1] * dice)
    assert distance(s, 0, 1) == rng
    assert not can_attack(s, 1, 0)
    if not dice:
        assert not events(s, "attack") and s.turn == 2  # neither side had a shot
        assert not can_attack(s, 0, 1)
        return
    assert s.current_side() == 0 and Attack(0, 1) in s.legal_actions()
    s.apply(Attack(0, 1))
    (a,) = events(s, "attack")
    assert (a["range"], a["dice"]) == (rng, dice)


@pytest.mark.parametrize("name", list(BOMBERS))
def test_catalog_bombers_fire_astern_with_their_own_dice(name):
    """Bomber handling for every bomber card: a target dead astern at range 1 is attacked
    with the card's range-1 dice."""
    stats = BOMBERS[name]
    n = stats.attack[0]
    s = at_attack([pre(BF, "axis", 0, 0, 0, stats=stats), pre(HURRI, "allied", 0, 1, 3)], [1] * n)
    assert can_attack(s, 0, 1)
    s.apply(Attack(0, 1))
    assert events(s, "attack")[0]["dice"] == n


def test_a_fighter_fires_only_ahead():
    """Without bomber handling, 000 "FIRING ARC": the same target astern can't be attacked;
    with the Bomber ability the same card can."""
    s = at_attack([pre(BF, "axis", 0, 0, 0), pre(HURRI, "allied", 0, 1, 3)])
    assert not can_attack(s, 0, 1) and not events(s, "attack") and s.turn == 2
    s = at_attack(
        [pre(BF, "axis", 0, 0, 0, stats=fighter_bomber()), pre(HURRI, "allied", 0, 1, 3)],
        [1] * 7,
    )
    assert can_attack(s, 0, 1)


# -- Limited Fuel: "Until they are attacked, the bombers can't turn." ------------------


def fuel_battle(kind="limited_fuel"):
    """He 111s (ids 0, 1) flying N; the Hurricane (id 2) two hexes behind the first."""
    return battle(
        [
            pre(HE111, "axis", 0, 0, 0, role="bomber"),
            pre(HE111, "axis", 6, 0, 0, role="bomber"),
            pre(HURRI, "allied", 0, 2, 0),
        ],
        [6, 6, 1, 1] + [1] * 4 + [6, 6, 1, 1],  # Allies first; the Hurricane's 4 dice miss
        kind=kind,
        free_exit_edge="south" if kind == "limited_fuel" else None,
    )


def bomber_moves(s, i):
    """Legal steps of bomber ``i`` at the start of its move (and its whole-move plans)."""
    plans = legal_move_plans(s, i)
    s.apply(Activate(i, 2))
    steps = set(s.legal_actions())
    s.undo()
    return steps, {a for p in plans for a in p.steps}


def test_limited_fuel_bombers_turn_only_after_being_attacked():
    """000 "BATTLE OF BRITAIN: LIMITED FUEL" / Special Rules; ruling "Scenario victory
    conditions": each He 111 may turn once it has been attacked (hit or miss)."""
    s = fuel_battle()
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT)
    for i in (0, 1):
        assert bomber_moves(s, i) == ({STRAIGHT}, {STRAIGHT})
    s.apply(Activate(0, 2))
    with pytest.raises(IllegalAction) as err:
        s.apply(TURN_LEFT)
    assert "LIMITED FUEL" in err.value.rule
    play(s, STRAIGHT, STRAIGHT, Activate(1, 2), STRAIGHT, STRAIGHT)
    s.apply(Attack(2, 0))  # the Hurricane attacks the first He 111 and misses
    (a,) = events(s, "attack")
    assert a["outcome"] == "miss" and s.planes[0].damage == 0
    s.apply(Decline())  # the He 111 could return fire astern; it declines
    assert s.turn == 2
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT)
    assert bomber_moves(s, 0) == (MOVES, MOVES)  # attacked: may turn now
    assert bomber_moves(s, 1) == ({STRAIGHT}, {STRAIGHT})  # never attacked
    play(s, Activate(0, 2), TURN_RIGHT, STRAIGHT)
    assert s.planes[0].facing == 1


def test_bombers_turn_freely_outside_limited_fuel():
    """The "can't turn" rule belongs to the Limited Fuel scenario only."""
    s = fuel_battle("custom")
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT)
    assert bomber_moves(s, 0) == (MOVES, MOVES)
    advance(s)
    assert s.phase == "attack"


def test_limited_fuel_refusal_names_the_rule_actually_broken():
    """An attacked bomber may turn; a refused turn at high speed in consecutive hexes is
    000 "High Speed", not the Limited Fuel rule (IllegalAction names the rule broken)."""
    fast = fighter_bomber()  # a bomber card with the Bf 109E's high speed 5
    s = battle(
        [plane(BF, "axis", 0, 0, 0, 3, stats=fast, role="bomber"), plane(HURRI, "allied", 8, 0, 0)],
        [1, 1, 6, 6],
        kind="limited_fuel",
        free_exit_edge="south",
    )
    s.apply(Activate(0, 5))
    with pytest.raises(IllegalAction) as err:
        s.apply(TURN_LEFT)
    assert "LIMITED FUEL" in err.value.rule
    s.undo()
    s.planes[0].attacked = True  # as if attacked in an earlier turn
    play(s, Activate(0, 5), TURN_LEFT)
    with pytest.raises(IllegalAction) as err:
        s.apply(TURN_LEFT)
    assert "High Speed" in err.value.rule

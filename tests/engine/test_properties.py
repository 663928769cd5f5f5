"""Random legal play through many seeded battles (OpenSpiel RandomSimTest style):
no impossible state, clone/undo/JSON round trip hold, and replays are byte-identical."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.engine import (
    Activate,
    Attack,
    BattleState,
    ChoosePosition,
    Dice,
    MovePlan,
    Rules,
    bomber_escort,
    dogfight,
    flight,
    limited_fuel,
    new_battle,
    replay,
    schnellbomber,
    standard_scenario,
)

SETTINGS = settings(
    max_examples=25, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def make(kind: int, seed: int):
    advanced = Rules.advanced(max_turns=12)
    if kind == 0:
        dice = Dice(seed)
        sc = standard_scenario(
            flight("axis", 'A6M2 "Zeke"', 'Ki-61 "Tony"', "C.202 Folgore"),
            flight("allied", "P-40C Flying Tiger", "Hurricane Mk I", "Yak-1 Rookie"),
            dice,
            rules=advanced,
        )
        return new_battle(sc, dice)
    if kind == 1:
        return new_battle(dogfight(Rules(max_turns=12)), Dice(seed))
    if kind == 2:
        return new_battle(limited_fuel(), Dice(seed))
    if kind == 3:
        return new_battle(schnellbomber(advanced), Dice(seed))
    sc = bomber_escort(
        flight("allied", "P-40C Flying Tiger", "Hurricane Mk I"),
        flight("axis", "Bf 109E Wingman", "Bf 109E Ace"),
        rules=Rules(max_turns=12),
    )
    return new_battle(sc, Dice(seed))


def check_invariants(s: BattleState) -> None:
    hits = s.st.hits
    for p in s.planes:
        assert 1 <= p.alt <= 6, "altitude outside 1-6"
        if p.out == 0:
            assert p.hex >= 0
            assert 0 <= p.damage < hits[p.id], "damage reached hit points but still flying"
        else:
            assert p.hex == -1
        assert p.status == 0 or s.st.rules.status
    # this turn: nobody attacked twice, every finished move had its full length
    attackers = [e["attacker"] for e in s.log if e["e"] == "attack" and e["turn"] == s.turn]
    assert len(attackers) == len(set(attackers)), "an aircraft attacked twice"


def check_move_lengths(s: BattleState) -> None:
    current = {}
    for e in s.log:
        if e["e"] == "activate":
            current[e["plane"]] = [e["speed"], 0, False]
        elif e["e"] == "step":
            current[e["plane"]][1] += 1
        elif e["e"] in ("retreat", "exit") and e["plane"] in current:
            current[e["plane"]][2] = True
        elif e["e"] == "move_end":
            speed, steps, left = current.pop(e["plane"])
            assert steps == speed or (left and steps < speed), (
                f"a move of the wrong length: {speed} vs {steps}"
            )


def play_random(s: BattleState, seed: int, *, checks: bool = True, max_actions: int = 4000):
    rng = random.Random(seed)
    record = []
    n = 0
    while not s.is_over() and n < max_actions:
        legal = s.legal_actions()
        assert legal, "no legal action but the battle is not over"
        assert legal == sorted(legal)
        assert s.current_side() in (0, 1)
        use_plan = s.phase == "movement" and s.mover < 0 and rng.random() < 0.3
        if use_plan:
            plans = s.legal_move_plans()
            a = rng.choice(plans)
        else:
            a = rng.choice(legal)
        if checks and n % 7 == 0:
            before = s.dumps()
            c = s.clone()
            assert c.dumps() == before
            s.apply(a)
            s.undo()
            assert s.dumps() == before, "undo did not restore the state"
            c.apply(a)
            s.apply_unchecked(a)
            assert c.dumps() == s.dumps(), "clone diverged from the original"
        else:
            s.apply(a)
        record.append(a)
        n += 1
        if checks:
            check_invariants(s)
    assert s.is_over(), "the battle did not finish"
    check_move_lengths(s)
    return record


@SETTINGS
@given(seed=st.integers(0, 2**32), kind=st.integers(0, 4))
def test_random_battles_stay_legal(seed, kind):
    s = make(kind, seed)
    play_random(s, seed)
    r = s.result()
    assert r["winner"] in ("axis", "allied", None)
    assert r["turns_played"] == s.turn
    json.dumps(r)
    # a serialised state round-trips exactly
    assert BattleState.from_json(json.loads(json.dumps(s.to_json()))).to_json() == s.to_json()


@settings(max_examples=10, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_mid_battle_round_trip_and_resume(seed):
    s = make(0, seed)
    rng = random.Random(seed)
    for _ in range(60):
        if s.is_over():
            break
        s.apply(rng.choice(s.legal_actions()))
    t = BattleState.loads(s.dumps())
    assert t == s and t.legal_actions() == s.legal_actions()
    # both continue identically
    for _ in range(25):
        if s.is_over():
            break
        a = rng.choice(s.legal_actions())
        s.apply(a)
        t.apply(a)
    assert t.dumps() == s.dumps()


def test_same_seed_and_actions_give_the_same_log_byte_for_byte():
    s = make(1, 99)
    actions = play_random(s, 99, checks=False)
    again = replay(s.scenario, 99, [a.to_json() for a in actions])
    assert json.dumps(again.log) == json.dumps(s.log)
    assert again.dumps() == s.dumps()


def test_every_attack_is_one_per_aircraft_per_turn_across_many_battles():
    seen = 0
    for seed in range(25):
        s = make(0, seed)
        play_random(s, seed, checks=False)
        per_turn = {}
        for e in s.log:
            if e["e"] == "attack":
                key = (e["turn"], e["attacker"])
                assert key not in per_turn
                per_turn[key] = True
                seen += 1
    assert seen > 0


def test_move_plans_are_all_legal():
    s = make(0, 5)
    assert s.phase == "position" and s.legal_move_plans() == []
    s.apply(ChoosePosition(False))
    plans = s.legal_move_plans()
    assert plans and all(isinstance(p, MovePlan) for p in plans)
    assert {p.plane for p in plans} == {
        a.plane for a in s.legal_actions() if isinstance(a, Activate)
    }
    rng = random.Random(1)
    for plan in rng.sample(plans, 60):
        c = s.clone()
        c.apply(plan)
        assert c.planes[plan.plane].moved or c.planes[plan.plane].out or c.turn > s.turn
    assert not any(isinstance(a, Attack) for a in s.legal_actions())

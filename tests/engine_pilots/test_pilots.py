"""Computer pilots (issue #5): legality, determinism, tactical judgement, skill."""

from __future__ import annotations

import json

import pytest
from pilot_helpers import SCENARIOS, Checked, make_battle

from battles.engine import (
    CATALOGUE,
    Activate,
    AircraftSetup,
    Attack,
    Dice,
    MovePlan,
    Rules,
    Scenario,
    new_battle,
)
from battles.engine.hexmap import axial_to_offset, offset_to_axial
from battles.engine.pilots import (
    POLICIES,
    Policy,
    RandomPolicy,
    TacticalPolicy,
    make_policy,
    play_out,
)


def setup(name, side, q, r, facing, alt=3, **kw):
    col, row = axial_to_offset(q, r)
    return AircraftSetup(CATALOGUE[name], side, col, row, facing, alt, **kw)


def custom(aircraft, kind="custom", rules=None, **kw):
    sc = Scenario(
        name="pilot test", kind=kind, aircraft=tuple(aircraft), rules=rules or Rules(), **kw
    )
    return new_battle(sc, Dice(1))


# ----------------------------------------------------------------- API


def test_policies_registry_and_protocol():
    assert {"random": RandomPolicy, "tactical": TacticalPolicy} == POLICIES
    for name in POLICIES:
        p = make_policy(name, 3)
        assert isinstance(p, Policy)
    with pytest.raises(ValueError):
        make_policy("ace", 1)
    with pytest.raises(TypeError):
        TacticalPolicy(1, not_a_weight=2.0)


def test_play_out_accepts_side_names_or_indices_and_limits_actions():
    r1 = play_out(
        make_battle("dogfight", 5), {"axis": TacticalPolicy(1), "allied": RandomPolicy(2)}
    )
    r2 = play_out(make_battle("dogfight", 5), {0: TacticalPolicy(1), 1: RandomPolicy(2)})
    assert r1 == r2
    with pytest.raises(KeyError):
        play_out(make_battle("dogfight", 5), {"axis": RandomPolicy(1)})
    with pytest.raises(RuntimeError):
        play_out(
            make_battle("dogfight", 5), {0: RandomPolicy(1), 1: RandomPolicy(2)}, max_actions=3
        )


# ----------------------------------------------------------------- legality


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_policies_only_return_legal_actions(scenario):
    matchups = [("tactical", "random"), ("random", "tactical"), ("tactical", "tactical")]
    for k, (a, b) in enumerate(matchups):
        seed = 100 + k
        pols = {0: Checked(make_policy(a, seed)), 1: Checked(make_policy(b, seed + 7))}
        r = play_out(make_battle(scenario, seed), pols, check=True)
        assert r["kind"] == make_battle(scenario, seed).scenario.kind
        assert pols[0].count and pols[1].count


def test_random_plays_many_battles_to_completion():
    for scenario in SCENARIOS:
        for seed in range(2):
            pols = {0: Checked(RandomPolicy(seed)), 1: Checked(RandomPolicy(seed + 1))}
            r = play_out(make_battle(scenario, seed), pols, check=True)
            assert r["turns_played"] >= 1


def test_tactical_picks_legal_steps_in_the_middle_of_a_move():
    """Moves begun step by step (e.g. by a person) are finished by the policy."""
    for name in ("dogfight", "dogfight_advanced", "standard_advanced"):
        s = make_battle(name, 11)
        pols = [TacticalPolicy(4), TacticalPolicy(5)]
        n = 0
        while not s.is_over() and n < 400:
            if s.phase == "movement" and s.mover < 0:
                acts = [a for a in s.legal_actions() if isinstance(a, Activate)]
                a = acts[n % len(acts)]
            else:
                a = pols[s.current_side()].choose(s)
                assert a in s.legal_actions()
            s.apply(a)
            n += 1
        assert s.is_over() or n == 400


# ----------------------------------------------------------------- determinism


@pytest.mark.parametrize("scenario", ["dogfight", "standard_advanced", "limited_fuel"])
def test_same_seeds_same_battle(scenario):
    def run():
        s = make_battle(scenario, 42)
        r = play_out(s, {0: TacticalPolicy(7), 1: RandomPolicy(8)})
        return json.dumps(r, sort_keys=True), s.dumps()

    assert run() == run()
    # and tactical against tactical
    a = play_out(make_battle(scenario, 3), {0: TacticalPolicy(1), 1: TacticalPolicy(2)})
    b = play_out(make_battle(scenario, 3), {0: TacticalPolicy(1), 1: TacticalPolicy(2)})
    assert a == b


def test_policy_does_not_touch_global_random():
    import random

    random.seed(123)
    before = random.random()
    random.seed(123)
    play_out(make_battle("dogfight", 9), {0: TacticalPolicy(1), 1: RandomPolicy(2)})
    assert random.random() == before


# ----------------------------------------------------------------- judgement


def _attack_position(crippled: int):
    """Spitfire (allied, #0) with two identical Hurricanes in its arc at the same range."""
    q, r = offset_to_axial(8, 12)
    # (1, -2) and (-1, -1) are mirror images across the Spitfire's nose (facing north)
    s = custom(
        [
            setup("Spitfire Mk I Ace", "allied", q, r, 0),
            setup("Bf 109E Wingman", "axis", q + 1, r - 2, 0),
            setup("Bf 109E Wingman", "axis", q - 1, r - 1, 0),
        ]
    )
    s.phase = "attack"
    s.to_act = 1
    s.declined = [False, False]
    for p in s.planes:
        p.moved = True
    s.planes[crippled].damage = s.st.hits[crippled] - 1  # down to its last hit point
    return s


@pytest.mark.parametrize("crippled", [1, 2])
def test_tactical_shoots_the_crippled_target(crippled):
    s = _attack_position(crippled)
    legal = s.legal_actions()
    assert Attack(0, 1) in legal and Attack(0, 2) in legal
    for seed in range(5):
        assert TacticalPolicy(seed).choose(s) == Attack(0, crippled)


def test_tactical_prefers_the_better_shot():
    """From dead astern (6 o'clock, target number 4) rather than head-on."""
    q, r = offset_to_axial(8, 12)
    s = custom(
        [
            setup("Spitfire Mk I Ace", "allied", q, r, 0),
            setup("Bf 109E Wingman", "axis", q, r - 2, 0),  # flying away: its 6 o'clock
            setup("Bf 109E Wingman", "axis", q + 1, r - 2, 3),  # nose-on-ish
        ]
    )
    s.phase = "attack"
    s.to_act = 1
    s.declined = [False, False]
    assert TacticalPolicy(1).choose(s) == Attack(0, 1)


@pytest.mark.parametrize(
    "col,row,facing", [(8, 1, 0), (8, 20, 3), (1, 10, 5), (14, 10, 2), (1, 1, 5)]
)
def test_tactical_does_not_fly_off_the_map_without_reason(col, row, facing):
    """Near an edge, nose to it, enemies far away: it turns away instead of leaving."""
    q, r = offset_to_axial(col, row)
    far = (8, 11) if row < 5 or row > 16 else ((12, 11) if col < 8 else (3, 11))
    eq, er = offset_to_axial(*far)
    sc = Scenario(
        name="edge",
        kind="dogfight",
        aircraft=(
            setup("Hurricane Mk I", "allied", q, r, facing),
            setup("Bf 109E Wingman", "axis", eq, er, 3),
        ),
    )
    for seed in range(4):
        s = new_battle(sc, Dice(seed))
        while s.phase == "movement" and not s.planes[0].moved:
            if s.to_act == 1:
                plan = TacticalPolicy(seed).choose(s)
                assert isinstance(plan, MovePlan) and plan.plane == 0
                s.apply(plan)
            else:
                s.apply(RandomPolicy(seed).choose(s))
        assert s.planes[0].out == 0, f"flew off the map: {s.describe()}"


def test_tactical_planes_do_not_retreat_in_a_dogfight():
    for seed in range(12):
        side = seed % 2
        r = play_out(
            make_battle("dogfight", 500 + seed),
            {side: TacticalPolicy(seed), 1 - side: RandomPolicy(seed)},
        )
        mine = ("axis", "allied")[side]
        assert not [a for a in r["aircraft"] if a["side"] == mine and a["fate"] == "retreated"]


def test_limited_fuel_messerschmitts_leave_by_the_south_edge():
    for seed in range(4):
        s = make_battle("limited_fuel", seed)
        r = play_out(s, {0: TacticalPolicy(seed), 1: RandomPolicy(seed)})
        fuel = [a for a in r["aircraft"] if s.scenario.aircraft[a["id"]].role == "fuel_limited"]
        out_of_fuel = [e for e in s.log if e["e"] == "destroyed" and e.get("how") == "out of fuel"]
        assert not out_of_fuel, "a Bf 109 stayed past its fuel limit"
        assert all(a["fate"] in ("retreated", "destroyed") for a in fuel)


# ----------------------------------------------------------------- skill


def test_tactical_beats_random_in_a_small_dogfight_match():
    wins = 0
    n = 40
    for k in range(n):
        side = k % 2
        r = play_out(
            make_battle("dogfight", 1000 + k),
            {side: TacticalPolicy(k), 1 - side: RandomPolicy(k + 1)},
        )
        wins += r["winner"] == ("axis", "allied")[side]
    assert wins >= 32, f"tactical won only {wins}/{n}"

"""Computer pilots (issue #5): legality, determinism, tactical judgement, skill."""

from __future__ import annotations

import json

import pytest
from pilot_helpers import (
    ALL_OPTIONS,
    SCENARIOS,
    Checked,
    make_all_options_battle,
    make_battle,
    with_abilities,
)

from rules.angels20 import (
    CATALOGUE,
    Activate,
    AircraftSetup,
    Attack,
    Dice,
    Direct,
    EnterClouds,
    MovePlan,
    Pass,
    Reposition,
    Rules,
    Scenario,
    new_battle,
)
from rules.angels20.attacks import can_attack
from rules.angels20.hexmap import axial_to_offset, offset_to_axial
from rules.angels20.pilots import (
    POLICIES,
    Policy,
    RandomPolicy,
    TacticalPolicy,
    make_policy,
    play_out,
)
from rules.angels20.plans import legal_move_plans


def setup(name, side, q, r, facing, alt=3, stats=None, **kw):
    col, row = axial_to_offset(q, r)
    return AircraftSetup(stats or CATALOGUE[name], side, col, row, facing, alt, **kw)


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


def test_tie_breaks_draw_from_the_one_dice_source():
    """A policy's tie-breaks are rolls of its own unrecorded Dice(seed)."""
    from rules.angels20.pilots.base import TieBreaker

    options = list("abcdefg")
    tb, dice = TieBreaker(11), Dice(11, record=False)
    for _ in range(50):
        assert tb.one_of(options) == options[dice.roll(len(options)) - 1]
    assert tb.one_of(["only"]) == "only"  # one option: no draw
    assert tb.dice.count == 50 and tb.dice.rolls == []
    assert tb.pick([1, 2, 3, 4], lambda o: -abs(o - 2)) == 2  # no tie: no draw
    assert tb.dice.count == 50
    rp, dice = RandomPolicy(5), Dice(5, record=False)
    state = make_battle("dogfight", 1)
    legal = list(legal_move_plans(state)) or state.legal_actions()
    assert rp.choose(state) == legal[dice.roll(len(legal)) - 1]


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


# ----------------------------------------------------------------- optional rules


def card_with(name, *abilities_):
    return with_abilities(CATALOGUE[name], abilities_)


@pytest.mark.parametrize("scenario", ALL_OPTIONS)
def test_policies_play_every_optional_rule_legally(scenario):
    """Random and tactical pilots play battles with every optional rule on: fighter
    direction, abilities after movement, cloud answers, flak, balloons, collisions."""
    seen = set()
    for k, (a, b) in enumerate([("tactical", "random"), ("random", "tactical")]):
        seed = 300 + k
        pols = {0: Checked(make_policy(a, seed)), 1: Checked(make_policy(b, seed + 7))}
        s = make_all_options_battle(scenario, seed)
        r = play_out(s, pols, check=True)
        assert r["turns_played"] >= 1
        for pol in pols.values():
            seen.update(type(x).__name__ for x in pol.seen)
            seen.update("clouds" for x in pol.seen if isinstance(x, MovePlan) and x.clouds)
    assert {"MovePlan", "Direct"} <= seen  # both seeds are dark (all_options_rules)


def test_random_pilot_answers_every_new_phase():
    kinds = set()
    for seed in range(6):
        pols = {0: Checked(RandomPolicy(seed)), 1: Checked(RandomPolicy(seed + 1))}
        play_out(make_all_options_battle(ALL_OPTIONS[seed % 4], seed), pols, check=True)
        for pol in pols.values():
            kinds.update(type(x).__name__ for x in pol.seen)
            kinds.update("clouds" for x in pol.seen if isinstance(x, MovePlan) and x.clouds)
    assert {"Direct", "Reposition", "Pass", "MovePlan", "clouds"} <= kinds


def test_tactical_directs_fighters_that_cannot_fight_in_darkness():
    """000 "FIGHTER DIRECTION": the capacity goes to fighters without the Night Fighter
    ability, those with the most attack dice first."""
    q, r = offset_to_axial(8, 12)
    night = card_with("Bf 110C", "Night Fighter")  # 9 attack dice at range 1
    s = custom(
        [
            setup("Bf 110C", "axis", q, r, 0, stats=night),
            setup("Hurricane Mk I", "axis", q + 2, r, 0),  # 6-4-2
            setup("Bf 109E Wingman", "axis", q + 4, r, 0),  # 7-5-3: most dice without the ability
            setup("Spitfire Mk I Ace", "allied", q, r - 6, 3),
            setup("Hurricane Mk I", "allied", q + 2, r - 6, 3),
        ],
        rules=Rules(night="darkness", fighter_direction=(1, 2)),
    )
    while s.phase == "direction":
        a = TacticalPolicy(1).choose(s)
        assert isinstance(a, Direct)
        assert a == (Direct((2,)) if s.to_act == 0 else Direct((3, 4)))
        s.apply(a)
    assert [p.directed for p in s.planes] == [False, False, True, True, True]


def _reposition_state(eq, er, ef=0):
    q, r = offset_to_axial(8, 12)
    turner = card_with("Spitfire Mk I Ace", "Practiced Turn")
    s = custom(
        [
            setup("Spitfire Mk I Ace", "allied", q, r, 0, stats=turner),
            setup("Bf 109E Wingman", "axis", q + eq, r + er, ef),
        ]
    )
    s.phase = "reposition"
    s.to_act = 1
    s.declined = [False, False]
    for p in s.planes:
        p.moved = True
    return s


def test_tactical_uses_practiced_turn_to_bring_an_enemy_into_its_arc():
    s = _reposition_state(2, -2)  # off the nose to the right, out of the front arc
    assert not can_attack(s, 0, 1)
    a = TacticalPolicy(1).choose(s)
    assert a == Reposition(0, 1)
    s.apply(a)
    assert can_attack(s, 0, 1)


def test_tactical_passes_when_turning_gains_nothing():
    s = _reposition_state(0, -2)  # dead ahead, flying away: the best shot already
    assert can_attack(s, 0, 1)
    assert TacticalPolicy(1).choose(s) == Pass()


def _bomber_under_fire(band, night="day", night_fighters=False, lights=(False, False)):
    """A crippled He 111 in a cloud band, two Spitfires (already moved) ahead of it."""
    q, r = offset_to_axial(8, 12)
    spit = card_with("Spitfire Mk I Ace", *(("Night Fighter",) if night_fighters else ()))
    s = custom(
        [
            setup("He 111 bomber token", "axis", q, r, 0),
            setup("Spitfire Mk I Ace", "allied", q, r - 4, 3, stats=spit),
            setup("Spitfire Mk I Ace", "allied", q + 1, r - 4, 3, stats=spit),
        ],
        rules=Rules(
            clouds=("clear", "clear", band, "clear", "clear", "clear"),
            night=night,
            searchlights=lights,
        ),
    )
    s.planes[0].damage = s.st.hits[0] - 1
    s.phase = "movement"
    s.mover = -1
    s.to_act = 0
    for p in s.planes[1:]:
        p.moved = True
    return s


@pytest.mark.parametrize("band", ["heavy", "light"])
def test_tactical_hides_a_crippled_bomber_in_the_clouds(band):
    s = _bomber_under_fire(band)
    for seed in range(3):
        plan = TacticalPolicy(seed).choose(s)
        assert plan.clouds and plan in set(legal_move_plans(s))


def test_tactical_stays_out_of_the_clouds_with_a_shot_to_take():
    q, r = offset_to_axial(8, 12)
    s = custom(
        [
            setup("Hurricane Mk I", "allied", q, r, 0),
            setup("Bf 109E Wingman", "axis", q, r - 4, 0),  # flying away, no threat
        ],
        rules=Rules(clouds=("clear", "clear", "heavy", "clear", "clear", "clear")),
    )
    s.phase = "movement"
    s.mover = -1
    s.to_act = 1
    s.planes[1].moved = True
    for seed in range(3):
        plan = TacticalPolicy(seed).choose(s)
        assert not plan.clouds


def test_tactical_reads_darkness_when_deciding_to_hide():
    """000 "EFFECTS OF DARKNESS": enemies that can't attack in darkness are no reason to hide;
    night fighters, or the enemy's searchlights on us, are."""
    assert not TacticalPolicy(1).choose(_bomber_under_fire("heavy", "darkness")).clouds
    assert TacticalPolicy(1).choose(_bomber_under_fire("heavy", "moonlight")).clouds
    assert TacticalPolicy(1).choose(_bomber_under_fire("heavy", "darkness", True)).clouds
    lit = _bomber_under_fire("heavy", "darkness", lights=(False, True))
    assert TacticalPolicy(1).choose(lit).clouds


def test_tactical_answers_the_cloud_question_mid_move():
    s = _bomber_under_fire("heavy")
    s.apply(Activate(0, 2))
    while s.mover == 0 and not s.awaiting_cloud:
        s.apply(TacticalPolicy(1).choose(s))
    assert s.awaiting_cloud
    assert TacticalPolicy(1).choose(s) == EnterClouds(True)


def _lone_flight(rules, alt):
    q, r = offset_to_axial(8, 14)
    s = custom(
        [
            setup("Hurricane Mk I", "allied", q, r, 0, alt),
            setup("Bf 109E Wingman", "axis", q, r - 9, 3, alt),
        ],
        rules=rules,
    )
    s.phase = "movement"
    s.mover = -1
    s.to_act = 1
    s.planes[1].moved = True
    return s


def _flown_through(s, seed):
    plan = TacticalPolicy(seed).choose(s)
    c = s.clone()
    n0 = len(c.log)
    c.apply(plan)
    steps = [(tuple(e["hex"]), e["alt"]) for e in c.log[n0:] if e["e"] == "step"]
    hazards = [e for e in c.log[n0:] if e["e"] in ("flak", "balloon")]
    return steps, hazards


def test_tactical_avoids_flak_fields_at_its_altitude():
    field = ((8, 11), (8, 10), (8, 12), (7, 11), (9, 11), (7, 10), (9, 10))
    for seed in range(4):
        steps, _ = _flown_through(_lone_flight(Rules(), 3), seed)
        assert any(h in field and a == 3 for h, a in steps)  # straight through, without flak
        steps, hazards = _flown_through(_lone_flight(Rules(flak_fields=((8, 11, 3),)), 3), seed)
        assert not hazards and not any(h in field and a == 3 for h, a in steps)


def test_tactical_flies_round_a_barrage_balloon():
    for seed in range(4):
        steps, _ = _flown_through(_lone_flight(Rules(), 1), seed)
        assert ((8, 12), 1) in steps
        steps, hazards = _flown_through(_lone_flight(Rules(barrage_balloons=((8, 12),)), 1), seed)
        assert not hazards and ((8, 12), 1) not in steps


def test_odds_follow_night_penalty_and_later_sixes():
    from rules.angels20.pilots.odds import attack_odds as _odds

    # Rules.later_sixes: at a modified number of 7+ a six is one hit, not two
    assert _odds(4, 7, 2, 4, 3, later=True)[0] < _odds(4, 7, 2, 4, 3)[0]
    assert _odds(4, 5, 2, 4, 3, later=True) == _odds(4, 5, 2, 4, 3)
    # 000 "EFFECTS OF MOONLIGHT": -1 per die in the pilot's odds too
    q, r = offset_to_axial(8, 12)
    planes = [
        setup("Hurricane Mk I", "allied", q, r, 0),
        setup("Bf 109E Wingman", "axis", q, r - 2, 0),
    ]
    t = TacticalPolicy(1)
    day = custom(planes)
    moon = custom(planes, rules=Rules(night="moonlight"))
    tv = t._target_values(day)
    assert t._mod(moon, 0, 1, tv) == t._mod(day, 0, 1, tv) - 1

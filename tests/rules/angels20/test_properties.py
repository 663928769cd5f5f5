"""Random legal play through many seeded battles (OpenSpiel RandomSimTest style):
no impossible state, clone/undo/JSON round trip hold, and replays are byte-identical."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.angels20 import (
    CATALOGUE,
    Activate,
    AircraftSetup,
    AircraftStats,
    Attack,
    BattleState,
    ChoosePosition,
    CloudShape,
    Dice,
    MovePlan,
    Rules,
    Scenario,
    bomber_escort,
    dogfight,
    flight,
    limited_fuel,
    new_battle,
    replay,
    schnellbomber,
    standard_scenario,
)
from rules.angels20.abilities import ABILITIES
from rules.angels20.attacks import distance
from rules.angels20.plans import legal_move_plans
from rules.angels20.stats import FIGHTER_KINDS, SIDES

SETTINGS = settings(
    max_examples=25, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def make(kind: int, seed: int):
    advanced = Rules.advanced(max_turns=12)
    if kind == 0:
        dice = Dice(seed)
        sc = standard_scenario(
            flight("axis", 'A6M2 "Zeke"', 'Ki-61 "Tony"', "C.200 Saetta Rookie"),
            flight("allied", "P-40C Flying Tiger", 'I-16 "Ishak"', "Yak-1 Rookie"),
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
        elif e["e"] in ("retreat", "exit", "destroyed") and e["plane"] in current:
            # left the map, or lost to flak or a balloon on the way (000 "FLAK FIELDS")
            current[e["plane"]][2] = True
        elif e["e"] == "move_end":
            speed, steps, left = current.pop(e["plane"])
            assert steps == speed or (left and steps < speed), (
                f"a move of the wrong length: {speed} vs {steps}"
            )


def uniform_choice(s: BattleState, rng: random.Random, legal: list):
    """A uniformly random legal action; a whole-move plan for 30% of the moves."""
    if s.phase == "movement" and s.mover < 0 and rng.random() < 0.3:
        return rng.choice(legal_move_plans(s))
    return rng.choice(legal)


def eager_choice(s: BattleState, rng: random.Random, legal: list):
    """Still random and legal, but with more fighting: an attack whenever one is legal
    (90%); most moves whole plans, the one of a few random plans that ends nearest an
    enemy without leaving the map; the other moves step by step."""
    attacks = [a for a in legal if isinstance(a, Attack)]
    if attacks and rng.random() < 0.9:
        return rng.choice(attacks)
    if s.phase == "movement" and s.mover < 0 and rng.random() < 0.85:
        plans = legal_move_plans(s)
        best = None
        for _ in range(6):
            plan = rng.choice(plans)
            c = s.clone()
            c.apply_unchecked(plan)
            p = c.planes[plan.plane]
            if p.hex < 0:
                far = 99  # left the map or was lost on the way
            else:
                far = min(
                    (distance(c, p.id, e.id) + 2 * abs(p.alt - e.alt) for e in c.planes
                     if e.side != p.side and e.hex >= 0),
                    default=0,
                )  # fmt: skip
            if best is None or far < best[0]:
                best = (far, plan)
        return best[1]
    return rng.choice(legal)


def play_random(
    s: BattleState,
    seed: int,
    *,
    checks: bool = True,
    max_actions: int = 4000,
    extra_check=None,
    choose=uniform_choice,
):
    rng = random.Random(seed)
    record = []
    n = 0
    while not s.is_over() and n < max_actions:
        legal = s.legal_actions()
        assert legal, "no legal action but the battle is not over"
        assert legal == sorted(legal)
        assert s.current_side() in (0, 1)
        a = choose(s, rng, legal)
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
            if extra_check is not None:
                extra_check(s)
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
    assert s.phase == "position" and legal_move_plans(s) == []
    s.apply(ChoosePosition(False))
    plans = legal_move_plans(s)
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


# ----------------------------------------------------------------- every optional rule on
#
# The same random legal play with every optional rule and special condition of
# 000 switched on (midair collision, random or set cloud bands plus placed
# clouds, flak fields, barrage balloons, darkness with fighter direction and
# searchlights - or moonlight - and the later-edition sixes, over the advanced
# rules), aircraft carrying every special ability of the registry, and
# bombers on the map.

# every ability but "Bomber", which makes its carrier a bomber (given separately)
FIGHTER_ABILITIES = tuple(sorted(n for n, ab in ABILITIES.items() if not ab.bomber))
CLOUD_BANDS = ("light", "solid", "heavy", "light", "heavy", "clear")


def with_abilities(stats: AircraftStats, names, **changes) -> AircraftStats:
    d = stats.to_json()
    d["abilities"] = list(names)
    d.update(changes)
    return AircraftStats.from_json(d)


def all_options_rules(night: str, random_clouds: bool, max_turns: int = 8) -> Rules:
    clouds = {"random_clouds": True} if random_clouds else {"clouds": CLOUD_BANDS}
    return Rules.advanced(
        max_turns=max_turns,
        midair_collision=True,
        cloud_shapes=(CloudShape(((7, 10), (8, 10), (8, 11), (9, 11)), 2, 4),),
        flak_fields=((5, 9, 3), (10, 13, 2), (8, 6, 4)),
        barrage_balloons=((6, 14), (9, 8), (7, 12), (4, 15)),
        night=night,
        fighter_direction=(1, 2),
        searchlights=(True, True),
        later_sixes=True,
        **clouds,
    )


def make_all_options(kind: int, seed: int, night: str = "darkness", random_clouds: bool = True):
    """A battle with every optional rule on; its own dice are Dice(seed) (set-up rolls apart)."""
    rng = random.Random(seed)
    rules = all_options_rules(night, random_clouds)
    shuffled = list(FIGHTER_ABILITIES)
    rng.shuffle(shuffled)
    half_a, half_b = tuple(shuffled[0::2]), tuple(shuffled[1::2])

    def card(name, names, **kw):
        return with_abilities(CATALOGUE[name], names, **kw)

    if kind == 0:
        # a close fight on a 16 x 16 map
        bomber_kind = rng.choice(("heavy bomber", "medium bomber", "light bomber", "bomber"))
        aircraft = (
            AircraftSetup(card("Bf 109E Ace", FIGHTER_ABILITIES), "axis", 5, 11, 0, 3),
            AircraftSetup(card("Bf 110C", half_a), "axis", 8, 12, 0, rng.randint(2, 4)),
            AircraftSetup(
                card("He 111 bomber token", ("Rugged",), kind=bomber_kind),
                "axis",
                11,
                12,
                0,
                3,
                role="bomber",
            ),
            AircraftSetup(card("Spitfire Mk I Ace", FIGHTER_ABILITIES), "allied", 6, 4, 3, 3),
            AircraftSetup(card("Hurricane Mk I", half_b), "allied", 9, 4, 3, rng.randint(2, 4)),
            AircraftSetup(
                card("Hurricane Mk I", ("Bomber", "Night Fighter")), "allied", 12, 4, 3, 3
            ),
        )
        sc = Scenario(
            name="every optional rule", kind="custom", aircraft=aircraft, rules=rules, height=16
        )
    elif kind == 1:
        sc = standard_scenario(
            flight("axis", card('A6M2 "Zeke"', FIGHTER_ABILITIES), card('Ki-61 "Tony"', half_a)),
            flight(
                "allied", card("P-40C Flying Tiger", half_b), card("Hurricane Mk I", ("Rugged",))
            ),
            Dice(seed + 1),  # set-up rolls apart from the battle's dice
            rules=rules,
        )
    elif kind == 2:
        sc = limited_fuel(
            rules,
            catalogue={
                "Bf 109E Ace": card("Bf 109E Ace", FIGHTER_ABILITIES),
                "Bf 110C": card("Bf 110C", half_a),
                "Hurricane Mk I": card("Hurricane Mk I", half_b),
                "He 111 bomber token": card("He 111 bomber token", ("Rugged",)),
            },
        )
    elif kind == 3:
        sc = bomber_escort(
            flight("allied", card("P-40C Flying Tiger", FIGHTER_ABILITIES), "Hurricane Mk I"),
            flight("axis", card("Bf 109E Wingman", half_a), card("Bf 109E Ace", half_b)),
            rules=rules,
        )
    else:
        sc = dogfight(
            rules,
            catalogue={
                "Bf 109E Ace": card("Bf 109E Ace", half_a),
                "Bf 109E Wingman": card("Bf 109E Wingman", FIGHTER_ABILITIES),
                "Spitfire Mk I Ace": card("Spitfire Mk I Ace", half_b),
            },
        )
    return new_battle(sc, Dice(seed))


def night_fighter(s: BattleState, i: int) -> bool:
    return "Night Fighter" in s.scenario.aircraft[i].stats.abilities


def check_optional_invariants(s: BattleState) -> None:
    rules = s.scenario.rules
    for side in (0, 1):
        directed = [p.id for p in s.planes if p.side == side and p.directed]
        assert len(directed) <= rules.fighter_direction[side], "direction over capacity"
        for i in directed:
            stats = s.scenario.aircraft[i].stats
            assert stats.kind in FIGHTER_KINDS and not stats.is_bomber, "a directed non-fighter"
    if s.phase in ("reposition", "attack"):
        # 000 "STACKING": after movement no two same-side aircraft share a hex and
        # altitude, except one moved back by the check (ruling "Stacking": one pass)
        seen = set()
        for p in s.planes:
            if p.out == 0 and not p.grounded:
                key = (p.side, p.hex, p.alt)
                assert key not in seen, "two same-side aircraft in one hex and altitude"
                seen.add(key)
        assert all(not p.lit for p in s.planes) or s.phase == "attack"


def check_log_of_optional_rules(s: BattleState) -> None:
    """Replay the log: attacks, clouds, darkness, flak and balloons obey their rules."""
    rules = s.scenario.rules
    m = s.st.map
    dark = rules.night == "darkness"
    flak = {}
    for col, row, alt in rules.flak_fields:
        centre = m.index(col, row)
        for h in (centre, *(m.neighbour[centre * 6 + d] for d in range(6))):
            if h >= 0:
                flak.setdefault(tuple(m.colrow(h)), set()).add(alt)
    balloons = {tuple(b) for b in rules.barrage_balloons}
    in_cloud: dict[int, bool] = {}
    directed: dict[str, set[int]] = {"axis": set(), "allied": set()}
    lit: set[tuple[int, int]] = set()
    side_of = {i: a.side for i, a in enumerate(s.scenario.aircraft)}
    for e in s.log:
        k = e["e"]
        if k == "activate":
            in_cloud[e["plane"]] = False  # "until it moves again"
        elif k == "clouds_check":
            in_cloud[e["plane"]] = e["in_clouds"]
            if e["in_clouds"] and e["roll"] is not None:
                assert e["roll"] >= e["need"] and e["band"] in ("heavy", "light")
            if e["in_clouds"] and e["roll"] is None:
                assert e["band"] in ("solid", "placed")
        elif k == "direction":
            assert dark and len(e["planes"]) <= rules.fighter_direction[SIDES.index(e["side"])]
            directed[e["side"]] = set(e["planes"])
        elif k == "illumination":
            assert dark and rules.searchlights[1 - SIDES.index(side_of[e["plane"]])]
            assert e["lit"] == (e["roll"] >= e["need"])
            if e["lit"]:
                lit.add((e["turn"], e["plane"]))
        elif k == "attack":
            a, t = e["attacker"], e["target"]
            assert not in_cloud.get(a) and not in_cloud.get(t), "an attack in the clouds"
            if dark:
                assert night_fighter(s, a) or a in directed[side_of[a]] or (e["turn"], t) in lit, (
                    "an attack in darkness without night fighter, direction or illumination"
                )
            if rules.night != "day":
                assert [rules.night, -1] in e["modifiers"]
        elif k == "flak":
            assert e["alt"] in flak.get(tuple(e["hex"]), ()), "flak outside a field"
        elif k == "balloon":
            assert tuple(e["hex"]) in balloons
        elif k == "collision":
            assert rules.midair_collision


def check_result_shape(s: BattleState) -> None:
    r = s.result()
    assert set(r) == {
        "scenario",
        "kind",
        "winner",
        "reason",
        "victory_points",
        "turns_played",
        "aircraft",
        "kills",
    }
    assert r["winner"] in ("axis", "allied", None)
    assert r["turns_played"] == s.turn and 1 <= s.turn <= s.scenario.rules.max_turns
    assert len(r["aircraft"]) == len(s.planes)
    for a in r["aircraft"]:
        assert a["fate"] in ("destroyed", "retreated", "damaged", "intact")
        assert 0 <= a["damage"] <= s.st.hits[a["id"]]
    for k in r["kills"]:
        assert r["aircraft"][k["target"]]["fate"] == "destroyed"
    json.dumps(r)


@settings(
    max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    seed=st.integers(0, 2**32),
    kind=st.integers(0, 4),
    night=st.sampled_from(("darkness", "darkness", "moonlight")),
    random_clouds=st.booleans(),
)
def test_random_battles_with_every_optional_rule_stay_legal(seed, kind, night, random_clouds):
    s = make_all_options(kind, seed, night, random_clouds)
    assert len(s.scenario.rules.optional_rules_on) >= 7
    record = play_random(s, seed, extra_check=check_optional_invariants, choose=eager_choice)
    check_log_of_optional_rules(s)
    check_result_shape(s)
    # exact JSON round trip, and the record (scenario, seed, actions) replays it byte for byte
    assert BattleState.from_json(json.loads(json.dumps(s.to_json()))).to_json() == s.to_json()
    again = replay(s.scenario, seed, [a.to_json() for a in record])
    assert again.dumps() == s.dumps()


@settings(max_examples=10, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.integers(0, 4), steps=st.integers(20, 140))
def test_mid_battle_round_trip_with_every_optional_rule(seed, kind, steps):
    """Saved in any phase (direction, a cloud answer, reposition, ...) a battle resumes exactly."""
    s = make_all_options(kind, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over():
            break
        s.apply(eager_choice(s, rng, s.legal_actions()))
    t = BattleState.loads(s.dumps())
    assert t == s and t.legal_actions() == s.legal_actions()
    assert legal_move_plans(t) == legal_move_plans(s)
    for _ in range(40):
        if s.is_over():
            break
        a = eager_choice(s, rng, s.legal_actions())
        s.apply(a)
        t.apply(a)
    assert t.dumps() == s.dumps()


def test_every_ability_and_optional_phase_is_exercised():
    """The all-options battles reach every new phase and event, with every ability aboard,
    and attacks happen in darkness (by night fighters, directed fighters, or at lit targets)."""
    kinds = set()
    carried = set()
    for seed in range(10):
        s = make_all_options(seed % 5, seed, "darkness", seed % 2 == 0)
        for a in s.scenario.aircraft:
            carried.update(a.stats.abilities)
        play_random(s, seed, checks=False, choose=eager_choice)
        check_log_of_optional_rules(s)
        kinds.update(e["e"] for e in s.log)
        kinds.update(
            f"in clouds via {e['band']}"
            for e in s.log
            if e["e"] == "clouds_check" and e["in_clouds"]
        )
    assert set(ABILITIES) <= carried
    for k in (
        "direction",
        "reposition",
        "pass",
        "clouds_check",
        "flak",
        "balloon",
        "illumination",
        "collision",
        "attack",
    ):
        assert k in kinds, k
    assert {"in clouds via heavy", "in clouds via light", "in clouds via solid"} & kinds

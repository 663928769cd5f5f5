"""The per-scenario tables are built once for every battle of the same flights and
rules (rules.angels20.tables.tables_for), and never serve another scenario's data."""

from __future__ import annotations

import random

from rules.angels20 import Dice, Rules, dogfight, flight, new_battle, standard_scenario, tables
from rules.angels20.plans import legal_move_plans
from rules.angels20.tables import ScenarioTables, tables_for, tables_key

AXIS = ('A6M2 "Zeke"', 'Ki-61 "Tony"')
ALLIED = ("P-40C Flying Tiger", "Hurricane Mk I")


def _standard(seed: int, rules: Rules):
    dice = Dice(seed)
    sc = standard_scenario(flight("axis", *AXIS), flight("allied", *ALLIED), dice, rules=rules)
    return sc, dice


def _fresh_tables(s) -> None:
    """Give a battle tables built for it alone, as before the tables were shared."""
    s.st = ScenarioTables(s.scenario)


def test_battles_of_the_same_flights_and_rules_share_one_set_of_tables():
    rules = Rules.advanced()
    (a, _), (b, _) = _standard(1, rules), _standard(2, Rules.advanced())
    assert [x.col for x in a.aircraft] != [x.col for x in b.aircraft]  # set up apart
    assert tables_for(a) is tables_for(b)


def test_different_rules_or_aircraft_never_share_tables():
    basic, _ = _standard(1, Rules())
    advanced, _ = _standard(1, Rules.advanced())
    dark, _ = _standard(1, Rules.advanced(night="darkness"))
    tables = [tables_for(x) for x in (basic, advanced, dark, dogfight())]
    assert len({id(t) for t in tables}) == 4
    assert [t.rules.status for t in tables[:3]] == [False, True, True]
    assert [t.dark for t in tables[:3]] == [False, False, True]
    assert tables[3].names != tables[0].names
    assert tables_key(basic) != tables_key(advanced)


def _random_play(s, seed: int) -> list:
    rng = random.Random(seed)
    while not s.is_over():
        s.apply_unchecked(rng.choice(s.legal_actions()))
    return s.log


def test_a_battle_on_shared_tables_plays_as_on_its_own_tables():
    rules = Rules.advanced(max_turns=6)
    for seed in range(3):
        sc, dice = _standard(seed, rules)
        shared = new_battle(sc, dice)
        sc2, dice2 = _standard(seed, rules)
        alone = new_battle(sc2, dice2)
        _fresh_tables(alone)
        assert alone.st is not shared.st
        assert _random_play(shared, seed) == _random_play(alone, seed)


def test_move_plans_follow_each_battles_own_random_clouds():
    """Random clouds differ battle to battle under one set of tables: the cached
    whole-move plans (which offer entering the clouds) must follow each battle's bands."""
    rules = Rules.advanced(random_clouds=True)
    by_bands: dict = {}
    for seed in range(40):
        sc, dice = _standard(seed, rules)
        s = new_battle(sc, dice)
        while s.phase != "movement" or s.mover >= 0:
            s.apply_unchecked(s.legal_actions()[0])
        # (the side that sets up first varies, and with it the aircraft order)
        by_bands.setdefault(id(s.st), {}).setdefault(s.cloud_bands, s)
    battles = max(by_bands.values(), key=len)
    assert len(battles) >= 3  # one set of tables, three cloud arrangements
    for s in battles.values():
        got = legal_move_plans(s)
        _fresh_tables(s)
        assert got == legal_move_plans(s)


def test_the_shared_tables_stay_bounded_and_serve_each_rules_own():
    for n in range(1, tables._TABLES_MAX + 10):
        assert tables_for(dogfight(Rules(max_turns=n))).rules.max_turns == n
    assert len(tables._TABLES) == tables._TABLES_MAX

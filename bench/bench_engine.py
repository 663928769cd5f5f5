"""Benchmark the Angels 20 rules engine with random legal play.

Plays complete Standard Scenario battles (three aircraft a side, advanced
rules on) choosing uniformly among ``legal_actions()`` step by step, and
prints battles per second, game turns per second, actions per second and
peak memory (tracemalloc, measured in a separate short run because tracing
slows Python down).

    .venv/bin/python bench/bench_engine.py [--seconds 5] [--basic] [--plans]

Target (issue #3): at least 2,000 game turns per second on one core.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
import tracemalloc

from battles.engine import Dice, Rules, flight, new_battle, standard_scenario

AXIS = ('A6M2 "Zeke"', 'Ki-61 "Tony"', "A6M2 Zero Ace")
ALLIED = ("P-40C Flying Tiger", "Hurricane Mk I", "Yak-1 Rookie")


def make_battle(seed: int, rules: Rules):
    dice = Dice(seed)
    sc = standard_scenario(flight("axis", *AXIS), flight("allied", *ALLIED), dice, rules=rules)
    return new_battle(sc, dice)


def play(seed: int, rules: Rules, plans: bool) -> tuple[int, int]:
    """One battle of random legal play; returns (game turns, actions)."""
    rng = random.Random(seed)
    s = make_battle(seed, rules)
    actions = 0
    while not s.is_over():
        legal = None
        if plans and s.phase == "movement" and s.mover < 0:
            legal = s.legal_move_plans(statuses=False)
        if not legal:
            legal = s.legal_actions()
        s.apply_unchecked(rng.choice(legal))
        actions += 1
    return s.turn, actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--basic", action="store_true", help="basic rules instead of advanced")
    ap.add_argument("--plans", action="store_true", help="choose whole-move plans instead of steps")
    args = ap.parse_args()
    rules = Rules(max_turns=30) if args.basic else Rules.advanced(max_turns=30)

    battles = turns = actions = 0
    t0 = time.perf_counter()
    seed = 0
    while time.perf_counter() - t0 < args.seconds:
        t, a = play(seed, rules, args.plans)
        battles += 1
        turns += t
        actions += a
        seed += 1
    dt = time.perf_counter() - t0

    tracemalloc.start()
    for s in range(20):
        play(10_000 + s, rules, args.plans)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    print(
        f"rules: {'basic' if args.basic else 'advanced'}; choices: {'whole-move plans' if args.plans else 'steps'}"
    )
    print(f"battles:      {battles} in {dt:.2f} s = {battles / dt:,.1f} battles/s")
    print(
        f"game turns:   {turns} = {turns / dt:,.0f} turns/s (mean {turns / battles:.1f} turns/battle)"
    )
    print(f"actions:      {actions} = {actions / dt:,.0f} actions/s")
    print(
        f"peak memory:  {peak / 1024:,.0f} KiB traced during one battle-set (tracemalloc); max RSS {rss / 1024:,.1f} MiB"
    )


if __name__ == "__main__":
    main()

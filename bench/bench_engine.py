"""Benchmark the Angels 20 rules engine with random legal play.

Plays complete Standard Scenario battles (three aircraft a side, advanced
rules on) choosing uniformly among ``legal_actions()`` step by step, and
prints battles per second, game turns per second, actions per second and
peak memory (tracemalloc, measured in a separate short run because tracing
slows Python down) - first without the optional rules, then the same
battles with every optional rule and special condition of 000 switched on
(midair collision, random clouds and a placed cloud, three flak fields,
barrage balloons, darkness with fighter direction and searchlights on both
sides, later-edition sixes).

    .venv/bin/python bench/bench_engine.py [--seconds 5] [--basic] [--plans] [--only off|on]
    .venv/bin/python bench/bench_engine.py --battles 300   # fixed seeds 0..299

Times are CPU time (``time.process_time``) of the battles alone, so a busy
shared machine disturbs them less than wall time. ``--battles N`` plays the
same N seeded battles every run (compare two trees with ``PYTHONPATH=<tree>``);
without it, as many battles as fit in ``--seconds`` of CPU time.

Target (issue #3): at least 2,000 game turns per second on one core.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
import tracemalloc

from rules.angels20 import CloudShape, Dice, Rules, flight, new_battle, standard_scenario
from rules.angels20.plans import legal_move_plans

AXIS = ('A6M2 "Zeke"', 'Ki-61 "Tony"', "C.200 Saetta Rookie")
ALLIED = ("P-40C Flying Tiger", 'I-16 "Ishak"', "Yak-1 Rookie")

# 000 "OPTIONAL RULES" and "SPECIAL CONDITIONS", all on (issue #4)
OPTIONAL = {
    "midair_collision": True,
    "random_clouds": True,
    "cloud_shapes": (CloudShape(((7, 10), (8, 10), (8, 11), (9, 11)), 2, 4),),
    "flak_fields": ((5, 9, 3), (10, 13, 2), (8, 6, 4)),
    "barrage_balloons": ((6, 14), (9, 8), (7, 12)),
    "night": "darkness",
    "fighter_direction": (1, 1),
    "searchlights": (True, True),
    "later_sixes": True,
}


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
            legal = legal_move_plans(s, statuses=False)
        if not legal:
            legal = s.legal_actions()
        s.apply_unchecked(rng.choice(legal))
        actions += 1
    return s.turn, actions


def run(label: str, rules: Rules, seconds: float, plans: bool, fixed: int = 0) -> None:
    """Battles of seeds 0, 1, ...: ``fixed`` of them, or as many as fit in ``seconds`` (CPU)."""
    battles = turns = actions = 0
    dt = 0.0
    seed = 0
    while battles < fixed if fixed else dt < seconds:
        t0 = time.process_time()
        t, a = play(seed, rules, plans)
        dt += time.process_time() - t0
        battles += 1
        turns += t
        actions += a
        seed += 1

    tracemalloc.start()
    for s in range(20):
        play(10_000 + s, rules, plans)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    print(f"{label}:")
    print(f"  battles:      {battles} in {dt:.2f} CPU-s = {battles / dt:,.1f} battles/s")
    print(
        f"  game turns:   {turns} = {turns / dt:,.0f} turns/s (mean {turns / battles:.1f} turns/battle)"
    )
    print(f"  actions:      {actions} = {actions / dt:,.0f} actions per CPU-second")
    print(
        f"  peak memory:  {peak / 1024:,.0f} KiB traced during one battle-set (tracemalloc); "
        f"max RSS {rss / 1024:,.1f} MiB",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per configuration")
    ap.add_argument("--battles", type=int, default=0, help="play exactly seeds 0..N-1 instead")
    ap.add_argument("--basic", action="store_true", help="basic rules instead of advanced")
    ap.add_argument("--plans", action="store_true", help="choose whole-move plans instead of steps")
    ap.add_argument(
        "--only",
        choices=("off", "on"),
        help="run only without (off) or only with (on) the optional rules",
    )
    args = ap.parse_args()
    base = {"max_turns": 30}
    make = Rules if args.basic else Rules.advanced
    print(
        f"rules: {'basic' if args.basic else 'advanced'}; "
        f"choices: {'whole-move plans' if args.plans else 'steps'}"
    )
    if args.only != "on":
        run("without optional rules", make(**base), args.seconds, args.plans, args.battles)
    if args.only != "off":
        run(
            "all optional rules on (" + ", ".join(make(**base, **OPTIONAL).optional_rules_on) + ")",
            make(**base, **OPTIONAL),
            args.seconds,
            args.plans,
            args.battles,
        )


if __name__ == "__main__":
    main()

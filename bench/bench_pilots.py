"""Match computer pilots against each other and time the tactical pilot.

Flies N seeded battles of a scenario between two policies, swapping sides
every other battle (battle k: policy A flies the Axis when k is even), and
prints A's win rate with a 95% Wilson confidence interval (draws count as
not-wins and are reported). Then, unless ``--no-timing``, it times the
tactical pilot: median ms per movement activation, and tactical-vs-tactical
2-v-2 Battle of Britain Dogfights auto-resolved on one core (median ms per
battle, battles per second); ``--options`` times them again with every
optional rule on.

    .venv/bin/python bench/bench_pilots.py dogfight 400 tactical random
    .venv/bin/python bench/bench_pilots.py all 100 tactical random --no-timing

Scenarios: dogfight, dogfight_advanced, intercept, limited_fuel,
schnellbomber, standard, standard_advanced, bomber_escort (or ``all``), and
``standard_all``: the Standard Scenario with every optional rule of 000 on
(as ``bench_engine.py``: collisions, clouds, flak, balloons, darkness with
fighter direction and searchlights, later-edition sixes).
Targets (issue #5): tactical beats random in >= 90% of 400 Dogfights and in
every scenario; a tactical 2-v-2 Dogfight resolves in < 250 ms median.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.angels20 import (  # noqa: E402
    CloudShape,
    Dice,
    Rules,
    bomber_escort,
    dogfight,
    flight,
    intercept_the_interceptors,
    limited_fuel,
    new_battle,
    schnellbomber,
    standard_scenario,
)
from rules.angels20.pilots import POLICIES, TacticalPolicy, play_out  # noqa: E402

STD_AXIS = ('A6M2 "Zeke"', 'Ki-61 "Tony"', "C.200 Saetta Rookie")
STD_ALLIED = ("P-40C Flying Tiger", 'I-16 "Ishak"', "Yak-1 Rookie")
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


def make_battle(name: str, seed: int):
    """A fresh battle of scenario ``name`` with battle dice seeded ``seed``."""
    if name == "dogfight":
        return new_battle(dogfight(), Dice(seed))
    if name == "dogfight_advanced":
        return new_battle(dogfight(Rules.advanced()), Dice(seed))
    if name == "intercept":
        return new_battle(intercept_the_interceptors(), Dice(seed))
    if name == "limited_fuel":
        return new_battle(limited_fuel(), Dice(seed))
    if name == "schnellbomber":
        return new_battle(schnellbomber(), Dice(seed))
    if name in ("standard", "standard_advanced", "standard_all"):
        dice = Dice(seed)
        rules = {
            "standard": Rules(),
            "standard_advanced": Rules.advanced(),
            "standard_all": Rules.advanced(**OPTIONAL),
        }[name]
        sc = standard_scenario(
            flight("axis", *STD_AXIS), flight("allied", *STD_ALLIED), dice, rules=rules
        )
        return new_battle(sc, dice)
    if name == "bomber_escort":
        # the escort side alternates with the seed so both policies fly both roles
        if seed % 4 < 2:
            esc = flight("allied", "P-40C Flying Tiger", "Hurricane Mk I")
            icp = flight("axis", "Bf 109E Wingman", "Bf 109E Ace")
        else:
            esc = flight("axis", "Bf 109E Wingman", "Bf 109E Ace")
            icp = flight("allied", "P-40C Flying Tiger", "Hurricane Mk I")
        return new_battle(bomber_escort(esc, icp), Dice(seed))
    raise SystemExit(f"unknown scenario {name!r}; choose from {', '.join(SCENARIOS)}")


SCENARIOS = (
    "dogfight",
    "dogfight_advanced",
    "intercept",
    "limited_fuel",
    "schnellbomber",
    "standard",
    "standard_advanced",
    "bomber_escort",
)
EXTRA = ("standard_all",)  # not in "all"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def match(name: str, n: int, a: str, b: str, seed0: int = 0) -> dict:
    """Policy ``a`` against ``b`` over ``n`` battles; ``a`` flies the Axis in even battles."""
    wins = draws = losses = 0
    by_side = {"axis": [0, 0], "allied": [0, 0]}  # a's [wins, battles] per side
    turns = []
    for k in range(n):
        seed = seed0 + k
        a_side = "axis" if k % 2 == 0 else "allied"
        b_side = "allied" if a_side == "axis" else "axis"
        pols = {
            a_side: POLICIES[a](10_000 + 2 * seed),
            b_side: POLICIES[b](10_001 + 2 * seed),
        }
        r = play_out(make_battle(name, seed), pols)
        turns.append(r["turns_played"])
        by_side[a_side][1] += 1
        if r["winner"] == a_side:
            wins += 1
            by_side[a_side][0] += 1
        elif r["winner"] is None:
            draws += 1
        else:
            losses += 1
    lo, hi = wilson(wins, n)
    return {
        "scenario": name,
        "n": n,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "rate": wins / n if n else 0.0,
        "ci": (lo, hi),
        "by_side": by_side,
        "mean_turns": statistics.fmean(turns) if turns else 0.0,
    }


def report(m: dict, a: str, b: str) -> None:
    lo, hi = m["ci"]
    ax, al = m["by_side"]["axis"], m["by_side"]["allied"]
    print(
        f"{m['scenario']:<18} {a} vs {b}: {m['wins']}/{m['n']} wins = {100 * m['rate']:.1f}% "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%), draws {m['draws']}, losses {m['losses']}; "
        f"as axis {ax[0]}/{ax[1]}, as allied {al[0]}/{al[1]}; mean {m['mean_turns']:.1f} turns",
        flush=True,
    )


class _Timed(TacticalPolicy):
    """TacticalPolicy recording the time of every movement activation."""

    def __init__(self, seed: int, sink: list[float]) -> None:
        super().__init__(seed)
        self.sink = sink

    def choose(self, state):
        if state.phase == "movement" and state.mover < 0:
            t = time.perf_counter()
            a = super().choose(state)
            self.sink.append(time.perf_counter() - t)
            return a
        return super().choose(state)


def timing(n: int, warmup: int = 10, rules: Rules | None = None, label: str = "") -> None:
    """Tactical vs tactical 2-v-2 Dogfights on one core (``rules``: the Dogfight's own)."""
    rules = rules or Rules()
    acts: list[float] = []
    cold = []
    for k in range(warmup):  # fill the process-wide tables first, as a server would
        t = time.perf_counter()
        play_out(
            new_battle(dogfight(rules), Dice(90_000 + k)),
            {0: TacticalPolicy(k), 1: TacticalPolicy(k + 1)},
        )
        cold.append(time.perf_counter() - t)
    if cold:
        print(f"timing: first (cold-table) battle {1000 * cold[0]:.0f} ms", flush=True)
    per_battle = []
    t0 = time.perf_counter()
    for k in range(n):
        s = new_battle(dogfight(rules), Dice(k))
        t = time.perf_counter()
        play_out(s, {0: _Timed(2 * k, acts), 1: _Timed(2 * k + 1, acts)})
        per_battle.append(time.perf_counter() - t)
    total = time.perf_counter() - t0
    print(
        f"timing: tactical vs tactical 2-v-2 Dogfight{label}, {n} battles after {warmup} warm-up: "
        f"median {1000 * statistics.median(per_battle):.0f} ms per battle "
        f"(p90 {1000 * sorted(per_battle)[int(0.9 * (n - 1))]:.0f} ms), "
        f"{n / total:.2f} battles/s on one core; "
        f"median {1000 * statistics.median(acts):.1f} ms per tactical activation "
        f"(p90 {1000 * sorted(acts)[int(0.9 * (len(acts) - 1))]:.1f} ms, {len(acts)} activations)",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?", default="dogfight", help="scenario name or 'all'")
    ap.add_argument("n", nargs="?", type=int, default=400, help="battles per scenario")
    ap.add_argument("a", nargs="?", default="tactical", choices=sorted(POLICIES))
    ap.add_argument("b", nargs="?", default="random", choices=sorted(POLICIES))
    ap.add_argument("--seed", type=int, default=0, help="first battle seed")
    ap.add_argument("--timing", type=int, default=100, help="battles for the timing run")
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument(
        "--options",
        action="store_true",
        help="time the Dogfight with every optional rule on as well",
    )
    args = ap.parse_args()
    names = SCENARIOS if args.scenario == "all" else (args.scenario,)
    if args.scenario not in (*SCENARIOS, *EXTRA, "all"):
        raise SystemExit(f"unknown scenario {args.scenario!r}")
    for name in names:
        t = time.perf_counter()
        m = match(name, args.n, args.a, args.b, args.seed)
        report(m, args.a, args.b)
        print(f"{'':<18} ({time.perf_counter() - t:.1f} s)", flush=True)
    if not args.no_timing:
        timing(args.timing)
        if args.options:
            timing(args.timing, rules=Rules(**OPTIONAL), label=" with every optional rule on")


if __name__ == "__main__":
    main()

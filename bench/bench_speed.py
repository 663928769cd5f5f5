"""Issue 17: this tree's engine and computer pilots side by side with a baseline commit.

Each measurement runs in its own fresh subprocess that imports one tree
only; the trees alternate run by run (A B, B A, A B, ...), so a shared,
busy machine disturbs both alike. Figures are CPU time
(``time.process_time``) and every result is a ratio taken in one run:

* ``pilots``: tactical vs tactical on the same seeds in both trees, the
  2-v-2 Battle of Britain Dogfight and a 2-v-2 Standard Scenario with the
  advanced rules (cards that exist in both catalogs); ms per battle, and
  baseline / this tree.
* ``engine``: random legal play of the Standard Scenario 3 v 3 with the
  advanced rules (``bench_engine.py``'s battles; the baseline's own three
  cards where the catalog has changed), as a share of the *floor*: a bare
  6-aircraft turn with no rules, 60 recorded d6 and 18 hex steps, timed
  in the same process.
* ``cold``: a fresh process's first tactical Dogfight against the same
  battle flown again warm (tables filled), first / warm.

    .venv/bin/python bench/bench_speed.py                  # all three, baseline 86c9620
    .venv/bin/python bench/bench_speed.py pilots --battles 30 --rounds 3
    .venv/bin/python bench/bench_speed.py --baseline HEAD~3 --baseline-dir /tmp/b

The baseline is a ``git clone`` of this repository checked out at the
commit (``var/bench-baseline-<commit>`` unless ``--baseline-dir``); the
shared repository's own metadata is never touched. Before the engine moved
to ``rules/`` (commit 86c9620 and older) the trees are imported from
``battles.engine``.

Targets (issue 17): pilots at least 2x the baseline's speed; engine random
play at least 0.25 of the floor; first battle at most 2x a warm one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "86c9620"

STD2_AXIS = ('A6M2 "Zeke"', 'Ki-61 "Tony"')
STD2_ALLIED = ("P-40C Flying Tiger", "Hurricane Mk I")
# bench_engine.py's flights; older catalogs price them differently
STD3 = [
    (('A6M2 "Zeke"', 'Ki-61 "Tony"', "C.200 Saetta Rookie"),
     ("P-40C Flying Tiger", 'I-16 "Ishak"', "Yak-1 Rookie")),
    (('A6M2 "Zeke"', 'Ki-61 "Tony"', "A6M2 Zero Ace"),
     ("P-40C Flying Tiger", "Hurricane Mk I", "Yak-1 Rookie")),
]  # fmt: skip


# ---------------------------------------------------------------- workers


def _engine(tree: str) -> Any:
    """Import one tree's engine and pilots (never both trees in one process)."""
    sys.path.insert(0, tree)  # ahead of the .venv's own path to the repository
    if (Path(tree) / "rules" / "angels20").is_dir():
        import rules.angels20 as eng
        from rules.angels20 import pilots
    else:
        import battles.engine as eng  # the layout before the rules/ package
        from battles.engine import pilots
    assert Path(eng.__file__).resolve().is_relative_to(Path(tree).resolve()), eng.__file__
    eng.pilots_module = pilots
    return eng


def _scenario(eng: Any, name: str, seed: int) -> Any:
    dice = eng.Dice(seed)
    if name == "dogfight":
        return eng.new_battle(eng.dogfight(), dice)
    if name == "standard_advanced":
        sc = eng.standard_scenario(
            eng.flight("axis", *STD2_AXIS),
            eng.flight("allied", *STD2_ALLIED),
            dice,
            rules=eng.Rules.advanced(),
        )
        return eng.new_battle(sc, dice)
    if name == "engine":
        rules = eng.Rules.advanced(max_turns=30)
        for axis, allied in STD3:
            try:
                sc = eng.standard_scenario(
                    eng.flight("axis", *axis), eng.flight("allied", *allied), dice, rules=rules
                )
            except Exception:  # noqa: BLE001 - this catalog prices the flight over 100 points
                dice = eng.Dice(seed)
                continue
            return eng.new_battle(sc, dice)
    raise SystemExit(f"no scenario {name!r}")


def _tactical(eng: Any, name: str, seed: int) -> tuple[float, str]:
    """CPU seconds of one tactical-vs-tactical battle, and its outcome."""
    pilots = eng.pilots_module
    s = _scenario(eng, name, seed)
    pols = {0: pilots.TacticalPolicy(2 * seed), 1: pilots.TacticalPolicy(2 * seed + 1)}
    t = time.process_time()
    r = pilots.play_out(s, pols)
    return time.process_time() - t, f"{r['winner']}/{r['turns_played']}/{len(s.log)}"


def work_pilots(tree: str, name: str, seeds: list[int]) -> dict[str, Any]:
    eng = _engine(tree)
    for k in range(2):  # fill the process-wide tables first, as a server would
        _tactical(eng, name, 100_000 + k)
    times, outs = [], []
    for seed in seeds:
        dt, out = _tactical(eng, name, seed)
        times.append(dt)
        outs.append(out)
    return {"times": times, "outcomes": outs}


def floor_turn(rng: random.Random, planes: list[list[int]], log: list[Any]) -> None:
    """The floor: a bare 6-aircraft turn, no rules - 60 recorded d6 and 18 hex steps."""
    dirs = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
    for _ in range(60):
        log.append(rng.randrange(6) + 1)
    for p in planes:
        for _ in range(3):
            dq, dr = dirs[p[2]]
            p[0] += dq
            p[1] += dr
            log.append((p[0], p[1]))


def _random_play(eng: Any, seed: int) -> int:
    rng = random.Random(seed)
    s = _scenario(eng, "engine", seed)
    while not s.is_over():
        s.apply_unchecked(rng.choice(s.legal_actions()))
    return int(s.turn)


def work_engine(tree: str, battles: int) -> dict[str, Any]:
    eng = _engine(tree)
    _random_play(eng, 99_999)
    turns = 0
    t = time.process_time()
    for seed in range(battles):
        turns += _random_play(eng, seed)
    engine_dt = time.process_time() - t
    rng = random.Random(1)
    n_floor = 20_000
    t = time.process_time()
    for k in range(n_floor):
        if k % 30 == 0:
            log: list[Any] = []
            planes = [[0, 0, f] for f in range(6)]
        floor_turn(rng, planes, log)
    floor_dt = time.process_time() - t
    return {"engine_tps": turns / engine_dt, "floor_tps": n_floor / floor_dt}


def work_cold(tree: str, seed: int) -> dict[str, Any]:
    t = time.process_time()
    eng = _engine(tree)
    imp = time.process_time() - t
    first, _ = _tactical(eng, "dogfight", seed)
    warm = min(_tactical(eng, "dogfight", seed)[0] for _ in range(3))
    return {"import": imp, "first": first, "warm": warm}


def work_warm_new(tree: str, seed: int) -> dict[str, Any]:
    """The same battle as ``work_cold``'s first, flown by a process that has flown two
    other battles first (its tables filled, as a server's are), not this one."""
    eng = _engine(tree)
    for k in range(2):
        _tactical(eng, "dogfight", 100_000 + k)
    return {"warm_new": _tactical(eng, "dogfight", seed)[0]}


# ---------------------------------------------------------------- driver


def baseline_tree(commit: str, where: str | None) -> str:
    path = Path(where) if where else ROOT / "var" / f"bench-baseline-{commit}"
    if not (path / ".git").exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "-q", str(ROOT), str(path)], check=True)
    subprocess.run(["git", "-C", str(path), "checkout", "-q", commit], check=True)
    return str(path)


def run(tree: str, kind: str, *args: Any) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--worker", tree, kind, json.dumps(args)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def alternate(rounds: int, trees: dict[str, str], kind: str, *args: Any) -> dict[str, list]:
    got: dict[str, list] = {k: [] for k in trees}
    names = list(trees)
    for n in range(rounds):
        for k in names if n % 2 == 0 else names[::-1]:
            got[k].append(run(trees[k], kind, *args))
    return got


def bench_pilots(trees: dict[str, str], battles: int, rounds: int) -> None:
    seeds = list(range(battles))
    for name in ("dogfight", "standard_advanced"):
        got = alternate(rounds, trees, "pilots", name, seeds)
        # per battle, the fastest of the rounds (the least disturbed run)
        best = {k: [min(r["times"][i] for r in v) for i in range(battles)] for k, v in got.items()}
        med = {k: statistics.median(v) for k, v in best.items()}
        tot = {k: sum(v) for k, v in best.items()}
        same = got["this"][0]["outcomes"] == got["baseline"][0]["outcomes"]
        print(
            f"pilots {name}: {battles} tactical-vs-tactical battles x {rounds} rounds; "
            f"median ms/battle baseline {1000 * med['baseline']:.0f}, this {1000 * med['this']:.0f}; "
            f"total baseline/this = {tot['baseline'] / tot['this']:.2f}x, "
            f"median ratio {statistics.median(b / t for b, t in zip(best['baseline'], best['this'], strict=True)):.2f}x"
            f"{'; same outcomes' if same else ''}",
            flush=True,
        )


def bench_engine(trees: dict[str, str], battles: int, rounds: int) -> None:
    got = alternate(rounds, trees, "engine", battles)
    for k, v in got.items():
        share = [r["engine_tps"] / r["floor_tps"] for r in v]
        print(
            f"engine {k}: random play {statistics.median(r['engine_tps'] for r in v):,.0f} turns/s, "
            f"floor {statistics.median(r['floor_tps'] for r in v):,.0f} turns/s; "
            f"share of the floor {statistics.median(share):.3f} "
            f"(runs {', '.join(f'{x:.3f}' for x in share)})",
            flush=True,
        )


def bench_cold(trees: dict[str, str], rounds: int) -> None:
    got: dict[str, list] = {k: [] for k in trees}
    for n in range(rounds):
        for k in trees if n % 2 == 0 else list(trees)[::-1]:
            got[k].append(run(trees[k], "cold", 7 + n) | run(trees[k], "warm_new", 7 + n))
    for k, v in got.items():
        ratio = [r["first"] / r["warm"] for r in v]
        ratio_new = [r["first"] / r["warm_new"] for r in v]
        print(
            f"cold {k}: import {1000 * statistics.median(r['import'] for r in v):.0f} ms, "
            f"first battle {1000 * statistics.median(r['first'] for r in v):.0f} ms, "
            f"warm {1000 * statistics.median(r['warm'] for r in v):.0f} ms; "
            f"first/warm {statistics.median(ratio):.2f} (runs {', '.join(f'{x:.2f}' for x in ratio)}); "
            f"the same battle new to a warmed process "
            f"{1000 * statistics.median(r['warm_new'] for r in v):.0f} ms, first/that "
            f"{statistics.median(ratio_new):.2f} (runs {', '.join(f'{x:.2f}' for x in ratio_new)})",
            flush=True,
        )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        tree, kind, args = sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
        fn = {
            "pilots": work_pilots,
            "engine": work_engine,
            "cold": work_cold,
            "warm_new": work_warm_new,
        }[kind]
        print(json.dumps(fn(tree, *args)))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", nargs="*", default=["pilots", "engine", "cold"])
    ap.add_argument("--baseline", default=BASELINE, help="commit to compare with")
    ap.add_argument("--baseline-dir", help="where to clone it")
    ap.add_argument("--battles", type=int, default=20, help="tactical battles per scenario")
    ap.add_argument("--engine-battles", type=int, default=150)
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs per tree")
    args = ap.parse_args()
    trees = {"baseline": baseline_tree(args.baseline, args.baseline_dir), "this": str(ROOT)}
    print(f"baseline {args.baseline} in {trees['baseline']}; this tree {ROOT}", flush=True)
    if "pilots" in args.what:
        bench_pilots(trees, args.battles, args.rounds)
    if "engine" in args.what:
        bench_engine(trees, args.engine_battles, args.rounds)
    if "cold" in args.what:
        bench_cold(trees, args.rounds)


if __name__ == "__main__":
    main()

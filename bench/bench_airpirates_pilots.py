"""Air Pirates (002) computer pilots (issue 26): strength and cost, in one run.

* ``random``: the competent pilot against random legal play over N seeded basic games
  (002 [2]: two identical fighters a side; three pairings in turn; sides swapped every
  other battle), win rate with its 95% Wilson interval (draws count as not-wins).
* ``strength``: competent against novice likewise.
* ``spotting``: competent against random with spotting and the bounce (002 15b, 9f), the
  options a club may fly (each unit fires only at one it has tallied).
* ``cpu``: a 2-v-2 fighter battle auto-resolved (competent against competent) against
  the Angels 20 tactical 2-v-2 Dogfight (tactical against tactical), both timed in this
  process with ``time.process_time`` and alternating battle by battle, after a warm-up
  of each; medians and their ratio.

    .venv/bin/python bench/bench_airpirates_pilots.py                 # 400, 200, 200, 40
    .venv/bin/python bench/bench_airpirates_pilots.py --random 100 --strength 50 --cpu 20

Targets (issue 26): competent beats random with a Wilson lower bound >= 95%; the
stronger setting beats the weaker; the Air Pirates battle costs <= 2x the Dogfight.
A battle in which the engine offers a side no legal action is counted apart ("stuck").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_pilots import wilson  # noqa: E402  (one Wilson interval for every bench)

from rules.airpirates.pilots import CompetentPilot, NovicePilot, Stuck, play_out  # noqa: E402
from rules.airpirates.state import new_battle  # noqa: E402
from rules.airpirates.system import RandomPilot  # noqa: E402
from rules.airpirates.units import SIDES, basic_game  # noqa: E402

PAIRINGS = (
    ("Bf 109E Wingman", "Hurricane Mk I"),
    ("Spitfire Mk I Ace", "Bf 109E Wingman"),
    ("P-40C Flying Tiger", 'A6M2 "Zeke"'),
)
PILOTS = {"competent": CompetentPilot, "novice": NovicePilot, "random": RandomPilot}


def scenario(k: int, options: tuple[str, ...] = ()) -> dict:
    return {**basic_game(*PAIRINGS[k % len(PAIRINGS)]), "options": list(options)}


def match(a: str, b: str, n: int, seed0: int = 0, options: tuple[str, ...] = ()) -> dict:
    """Pilot ``a`` against ``b`` over ``n`` battles; ``a`` flies the Axis in even ones.
    The draws are told apart: ``fled`` (every unit of ``b``'s side left the gameboard,
    3b's ruling, before either side scored) and ``blank`` (eight turns, 0-0)."""
    out = {"wins": 0, "draws": 0, "losses": 0, "stuck": 0, "n": n, "vanished": 0, "vwins": 0,
           "fled": 0, "blank": 0}  # fmt: skip
    for k in range(n):
        seed = seed0 + k
        ours = k % 2
        pilots = [PILOTS[b](20_001 + 2 * seed), PILOTS[b](20_001 + 2 * seed)]
        pilots[ours] = PILOTS[a](20_000 + 2 * seed)
        battle = new_battle(scenario(seed, options), seed)
        try:
            result = play_out(battle, pilots)
        except Stuck:
            out["stuck"] += 1
            continue
        if vanished(battle, SIDES[1 - ours]):
            out["vanished"] += 1
            out["vwins"] += result["winner"] == SIDES[ours]
        if result["winner"] == SIDES[ours]:
            out["wins"] += 1
        elif result["winner"] is None:
            out["draws"] += 1
            scored = any(result["victory_points"].values())
            ended = not result["reason"].startswith("the eighth")
            out["fled"] += not scored and ended and vanished(battle, SIDES[1 - ours], 99)
            out["blank"] += not scored and result["reason"].startswith("the eighth")
        else:
            out["losses"] += 1
    return out


def vanished(battle, side: str, before: int = 0) -> bool:
    """Every unit of ``side`` left the gameboard in the set-up (placed so far apart, flying
    outward, that no shift of the battle keeps a maneuver of theirs on it: 3b's ruling);
    with ``before``, in any impulse up to that one."""
    gone = {e["unit"] for e in battle.log if e["event"].startswith("left the gameboard")
            and e["impulse"] <= before}  # fmt: skip
    return all(u.id in gone for u in battle.units if u.side == side)


def report(a: str, b: str, m: dict) -> None:
    played = m["n"] - m["stuck"]
    lo, hi = wilson(m["wins"], played)
    print(
        f"{a} vs {b}: {m['wins']}/{played} wins = {100 * m['wins'] / max(played, 1):.1f}% "
        f"(95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%), draws {m['draws']}, losses "
        f"{m['losses']}; stuck (engine offered no legal action) {m['stuck']}",
        flush=True,
    )
    print(
        f"  of the draws: {m['fled']} with {b}'s side gone off the gameboard before a hit "
        f"(3b), {m['blank']} with no hit in eight turns, {m['draws'] - m['fled'] - m['blank']} "
        f"level on points",
        flush=True,
    )
    if m["vanished"]:
        rest, won = played - m["vanished"], m["wins"] - m["vwins"]
        lo, hi = wilson(won, rest)
        print(
            f"  {m['vanished']} battles in which {b}'s side left the board in the set-up "
            f"({m['vwins']} won); the other {rest}: {won} wins = {100 * won / max(rest, 1):.1f}% "
            f"(95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%)",
            flush=True,
        )


def angels_dogfight(seed: int) -> float:
    from rules.angels20 import Dice, dogfight
    from rules.angels20 import new_battle as angels_battle
    from rules.angels20.pilots import TacticalPolicy
    from rules.angels20.pilots import play_out as angels_play_out

    state = angels_battle(dogfight(), Dice(seed))
    t = time.process_time()
    angels_play_out(state, {0: TacticalPolicy(2 * seed), 1: TacticalPolicy(2 * seed + 1)})
    return time.process_time() - t


def air_pirates(seed: int) -> float | None:
    battle = new_battle(scenario(seed), seed)
    pilots = [CompetentPilot(2 * seed), CompetentPilot(2 * seed + 1)]
    t = time.process_time()
    try:
        play_out(battle, pilots)
    except Stuck:
        return None
    return time.process_time() - t


def cpu(n: int, warmup: int = 5) -> None:
    for k in range(warmup):  # fill both engines' process-wide tables first
        angels_dogfight(90_000 + k)
        air_pirates(90_000 + k)
    angels, ours = [], []
    for k in range(n):
        angels.append(angels_dogfight(k))
        t = air_pirates(k)
        if t is not None:
            ours.append(t)
    a, o = statistics.median(angels), statistics.median(ours)
    print(
        f"cpu: Air Pirates 2-v-2 fighters, competent vs competent, median {1000 * o:.0f} ms "
        f"({len(ours)} battles); Angels 20 tactical 2-v-2 Dogfight median {1000 * a:.0f} ms "
        f"({n} battles), alternating in one process: ratio {o / a:.2f}x",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=400, help="battles against random play")
    ap.add_argument("--strength", type=int, default=200, help="competent vs novice battles")
    ap.add_argument("--cpu", type=int, default=40, help="battles of each game timed")
    ap.add_argument(
        "--spotting",
        type=int,
        default=200,
        help="competent vs random with spotting and the bounce (002 15b, 9f)",
    )
    ap.add_argument("--seed", type=int, default=0, help="first battle seed")
    args = ap.parse_args()
    bounce = ("spotting", "bounce")
    for a, b, n, opts in (("competent", "random", args.random, ()),
                          ("competent", "novice", args.strength, ()),
                          ("novice", "random", args.strength, ()),
                          ("competent", "random", args.spotting, bounce)):  # fmt: skip
        if n:
            t = time.perf_counter()
            if opts:
                print(f"with the options {', '.join(opts)}:", flush=True)
            report(a, b, match(a, b, n, args.seed, opts))
            print(f"  ({time.perf_counter() - t:.1f} s)", flush=True)
    if args.cpu:
        cpu(args.cpu)


if __name__ == "__main__":
    main()

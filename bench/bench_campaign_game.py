"""Benchmark of the strategic card game core (rules.cardgame).

    .venv/bin/python bench/bench_campaign_game.py [--games N]

Prints: the time to play one full campaign turn (both sides, all eight phases,
every mission resolved) with random legal actions, the time of a 50-turn game
(50 side-turns) with random legal actions, and the cost of legal_actions(),
clone() and view_for().
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.cardgame import default_setup, new_game, view_for  # noqa: E402
from rules.dice import Dice  # noqa: E402

WEIGHTS = {"assign": 4.0, "unassign": 0.5, "scramble": 2.0}


def pick(rng, actions):
    kinds = sorted({a.kind for a in actions})
    weights = [WEIGHTS.get(k, 1.0) for k in kinds]
    if "advance" not in kinds and "unassign" in kinds:
        weights[kinds.index("unassign")] = 2.0
    kind = rng.choices(kinds, weights=weights)[0]
    return rng.choice([a for a in actions if a.kind == kind])


def play_until(state, rng, stop_turn):
    n = 0
    while not state.is_over() and state.turn < stop_turn:
        state.apply(pick(rng, state.legal_actions()))
        n += 1
    return n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    setup = default_setup()

    # A full campaign turn = both sides' turns, all phases, from a mid-game position.
    turn_times, turn_actions = [], []
    for seed in range(args.games):
        state = new_game(setup, Dice(seed))
        rng = random.Random(seed)
        play_until(state, rng, 9)  # both sides have flown missions by now
        if state.is_over():
            continue
        start_turn = state.turn
        t = time.perf_counter()
        n = play_until(state, rng, start_turn + 2)
        turn_times.append(time.perf_counter() - t)
        turn_actions.append(n)
    print(
        f"full campaign turn (both sides, all phases), {len(turn_times)} samples: "
        f"median {statistics.median(turn_times) * 1e3:.2f} ms, max {max(turn_times) * 1e3:.2f} ms, "
        f"median {statistics.median(turn_actions):.0f} actions"
    )

    # A 50-turn game (50 side-turns) with random legal actions. Random play
    # often wins early, so the strategy-token victory is switched off here
    # (bench only) to time whole 50-turn games; production victories still end
    # a game.
    import rules.cardgame.phases as game_phases  # where 003 "VICTORY" is checked

    saved = game_phases.VICTORY_ST_MINIMUM
    game_phases.VICTORY_ST_MINIMUM = 10**9
    game_times, game_turns, game_actions = [], [], []
    for seed in range(args.games):
        state = new_game(setup, Dice(1000 + seed))
        rng = random.Random(seed)
        t = time.perf_counter()
        n = play_until(state, rng, 51)
        game_times.append(time.perf_counter() - t)
        game_turns.append(state.turn)
        game_actions.append(n)
    print(
        f"50-turn game with random legal actions, {len(game_times)} games: "
        f"median {statistics.median(game_times) * 1e3:.1f} ms, max {max(game_times) * 1e3:.1f} ms "
        f"(median {statistics.median(game_actions):.0f} actions; "
        f"{sum(1 for x in game_turns if x <= 50)} ended by victory before turn 50)"
    )
    game_phases.VICTORY_ST_MINIMUM = saved

    # Single operations in a mid-game position.
    state = new_game(setup, Dice(7))
    rng = random.Random(7)
    play_until(state, rng, 12)
    for label, fn in (
        ("legal_actions()", lambda: state.legal_actions()),
        ("clone()", lambda: state.clone()),
        ("view_for(side)", lambda: view_for(state, state.active, log_since=len(state.log) - 20)),
        ("to_json()", lambda: state.to_json()),
    ):
        reps = 200
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        print(
            f"{label}: {(time.perf_counter() - t) / reps * 1e6:.0f} us (turn {state.turn}, log {len(state.log)})"
        )


if __name__ == "__main__":
    main()

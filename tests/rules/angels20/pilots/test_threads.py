"""Battles flown side by side in threads of one process (the embedded default's two
background threads, a threaded Celery worker) share the pilots' process-wide tables.
Each battle must fly as it does alone: no thread may see a table another is still
reading (a shipped move table read without its member paths, issue 17, once handed a
planner an empty group: "IndexError: list index out of range", the battle failed)."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest

from rules.angels20 import Dice, dogfight, new_battle
from rules.angels20.pilots import TacticalPolicy, context, play_out, reach

SEEDS = range(4)


def _fly(seed: int) -> tuple[Any, ...]:
    state = new_battle(dogfight(), Dice(seed))
    result = play_out(state, {0: TacticalPolicy(2 * seed), 1: TacticalPolicy(2 * seed + 1)})
    return result["winner"], result["turns_played"], state.log


def _cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh process's tables: nothing read yet."""
    monkeypatch.setattr(reach, "_MOVE_TABLES", {})
    monkeypatch.setattr(reach, "_UNREAD", {})
    monkeypatch.setattr(reach, "_SHOOT", {})
    monkeypatch.setattr(reach, "_DODGE", {})
    monkeypatch.setattr(context, "_SHARED", {})


def test_battles_flown_in_threads_end_as_they_do_one_by_one(monkeypatch: pytest.MonkeyPatch):
    alone = {seed: _fly(seed) for seed in SEEDS}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads take turns often, as on a loaded machine
    try:
        for _ in range(3):  # each round from cold tables, where the threads meet
            _cold(monkeypatch)
            flown: dict[int, Any] = {}
            failed: list[BaseException] = []

            def fly(seed: int, flown: dict[int, Any] = flown, failed: list = failed) -> None:
                try:
                    flown[seed] = _fly(seed)
                except BaseException as exc:  # noqa: BLE001 - the test reports it
                    failed.append(exc)

            threads = [threading.Thread(target=fly, args=(seed,)) for seed in SEEDS]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert not failed, failed
            assert flown == alone
    finally:
        sys.setswitchinterval(interval)

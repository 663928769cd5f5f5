"""The engine's state of a battle flown by people (issue 14): never stored, rebuilt from its
seed and stored actions (the replay every battle already has), kept per process by
:class:`StateCache` so a page polling the turn need not replay the whole battle."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any, cast

from rules.angels20 import BattleState
from rules.tactical import system_named

from .models import Battle


def replay_state(battle: Battle) -> BattleState:
    """The battle now: its setup flown by its system from its seed through its stored actions.

    The actions were checked when they were taken, so they are applied unchecked
    (the dice are the same, so is the state)."""
    system = system_named(battle.system)
    state = system.replay(battle.setup, battle.seed, battle.actions, checked=False)
    return cast(BattleState, state)  # the play-by-web view below reads Angels 20's state


class StateCache:
    """The latest states of the battles in play, per process: a request need not replay
    the whole battle (both players' pages poll the turn every 2 s).

    A state is kept under what it was flown from: the battle's pk, creation time and
    seed and a digest of its actions, so it is never a state of other actions (a move
    rolled back, a row rewritten, a pk reused): any change misses, and a miss replays,
    the replay being the truth. Each reader gets its own copy (``BattleState.clone``),
    so nothing a request does to its state reaches the cache."""

    SIZE = 64

    def __init__(self) -> None:
        self._states: OrderedDict[int, tuple[tuple[Any, ...], BattleState]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    @staticmethod
    def key(battle: Battle, actions: list[dict[str, Any]] | None = None) -> tuple[Any, ...]:
        flown = json.dumps(battle.actions if actions is None else actions).encode()
        digest = hashlib.blake2b(flown, digest_size=16).digest()
        return (battle.created_at, battle.seed, digest)

    def get(self, battle: Battle) -> BattleState:
        key = self.key(battle)
        with self._lock:
            kept = self._states.get(battle.pk)
            if kept is not None and kept[0] == key:
                self._states.move_to_end(battle.pk)
                self.hits += 1
                return kept[1].clone()
            self.misses += 1
        state = replay_state(battle)
        self._keep(battle.pk, key, state)
        return state.clone()

    def put(self, battle: Battle, state: BattleState) -> None:
        """Keep ``state``, flown through ``battle.actions``."""
        self._keep(battle.pk, self.key(battle), state.clone())

    def _keep(self, pk: int, key: tuple[Any, ...], state: BattleState) -> None:
        with self._lock:
            self._states[pk] = (key, state)
            self._states.move_to_end(pk)
            while len(self._states) > self.SIZE:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


STATES = StateCache()


def battle_state(battle: Battle) -> BattleState:
    """The battle now (a copy of its own: change it freely), from the cache or replayed."""
    return STATES.get(battle)

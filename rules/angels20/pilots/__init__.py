"""Computer pilots for the Angels 20 engine (issue #5).

A pilot *policy* chooses the next action for the side to act in a
:class:`~rules.angels20.state.BattleState`: a whole-move
:class:`~rules.angels20.actions.MovePlan` in the Movement phase (or a step /
status action if a move was started step by step), an
:class:`~rules.angels20.actions.Attack` or ``Decline`` in the Attack phase,
and a :class:`~rules.angels20.actions.ChoosePosition` when its side won the
initiative under the turn-position rule. With the optional rules on it also
answers the new phases: :class:`~rules.angels20.actions.Direct` (fighter
direction in darkness), :class:`~rules.angels20.actions.Reposition` /
``Pass`` (abilities used after the Movement phase), and the cloud question
(the ``clouds`` flag of a plan, or :class:`~rules.angels20.actions.EnterClouds`
mid-move).

* :class:`RandomPolicy` - uniform over the legal actions (whole-move plans
  when moving).
* :class:`TacticalPolicy` - a one-ply evaluation of where each of the
  aircraft's legal move plans leaves it (expected value over the maneuver
  check's success and failure, and over the cloud roll), scored for the
  shots it will have and give this turn, the next turn's prospects, tailing,
  map edges, status, flak and balloons on the way, and the scenario's
  objective; in the Attack phase it takes the best expected shot,
  concentrating fire on damaged and crippled targets. See
  ``docs/computer-pilots.md``.

Policies are deterministic given their seed: tie-breaks use the policy's own
seeded :class:`rules.dice.Dice` (unrecorded; :class:`~.base.TieBreaker`),
never the global ``random`` module nor the battle's dice. The package keeps
process-wide caches of position-independent tables (relative move outcomes,
reach sets, shot counts over reach sets, attack odds) and memos of shot and
map-edge values keyed by everything they depend on; they never change a
decision (issue 17: adding them left every golden battle byte-identical).

Modules: :mod:`.base` (the protocol, tie-breaks), :mod:`.random_policy`,
:mod:`.tactical` (the tactical policy's phases), :mod:`.planning` (choosing
a whole move), :mod:`.scoring` (the score of an end of move),
:mod:`.context` (what the pilot knows of the battle), :mod:`.values`
(scenario values and objectives), :mod:`.odds` (hit and maneuver odds),
:mod:`.reach` (move tables and reachable positions).

Fly a battle with :func:`play_out`::

    result = play_out(new_battle(dogfight(), seed=7),
                      {"axis": TacticalPolicy(1), "allied": RandomPolicy(2)})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import derive_seed

from ..stats import SIDES
from .base import Policy
from .random_policy import RandomPolicy
from .tactical import DEFAULT_WEIGHTS, TacticalPolicy

__all__ = [
    "DEFAULT_WEIGHTS",
    "POLICIES",
    "Policy",
    "RandomPolicy",
    "TacticalPolicy",
    "make_policy",
    "pilot_seed",
    "play_out",
]

POLICIES: dict[str, type] = {"random": RandomPolicy, "tactical": TacticalPolicy}


def pilot_seed(battle_seed: int, side: str) -> int:
    """The seed of the computer pilot flying ``side`` in the battle seeded ``battle_seed``."""
    return derive_seed(battle_seed, f"computer pilot {side}")


def make_policy(name: str, seed: int = 0, **kw: Any) -> Policy:
    """Build a policy by its name in :data:`POLICIES`."""
    try:
        cls = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown pilot policy {name!r}; choose from {sorted(POLICIES)}") from None
    return cls(seed, **kw)


def play_out(
    state: Any,
    policies: Mapping[Any, Policy],
    *,
    max_actions: int = 20_000,
    check: bool = False,
) -> dict[str, Any]:
    """Fly ``state`` to the end with one policy per side; return ``state.result()``.

    ``policies`` is keyed by side, as ``"axis"``/``"allied"`` or ``0``/``1``.
    ``check=True`` applies every action through the checked ``apply``
    (slower; raises :class:`~rules.angels20.state.IllegalAction` on a bad one).
    """
    by_side: list[Policy] = []
    for idx, name in enumerate(SIDES):
        pol = policies.get(name, policies.get(idx))
        if pol is None:
            raise KeyError(f"no policy for the {name} side")
        by_side.append(pol)
    n = 0
    while not state.is_over():
        if n >= max_actions:
            raise RuntimeError(f"battle not over after {max_actions} actions")
        side = state.current_side()
        action = by_side[side].choose(state)
        if check:
            state.apply(action)
        else:
            state.apply_unchecked(action)
        n += 1
    return state.result()

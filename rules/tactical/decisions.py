"""Who decides now and what each side may see (issue 25): hidden information and
simultaneous decisions, with the defaults for a game that has neither.

Optional methods of a battle; the functions below answer for a system that has none
(Angels 20 hides nothing and has one side decide at a time, 000 "SEQUENCE OF PLAY"):

  deciding_sides() -> list[int]   the sides whose decision is awaited now; several at
                                  once for a simultaneous decision (001 V: both sides
                                  plot, sealed). A side that has sealed its decision
                                  is no longer listed; ``current_side()`` is one of them.
  legal_actions_for(side) -> Sequence   that side's legal actions now.
  decision_side(action) -> int    whose decision ``action`` is (a plot names its aircraft).
  sealed_count() -> int           how many of the last applied actions are sealed
                                  decisions not yet revealed (0: none); ``apply`` of the
                                  last one reveals them all and applies them together.
  view(side) -> dict              what ``side`` (None: a spectator) may see now.
  log_for(side) -> list[dict]     the log as ``side`` (None: a spectator) may read it now:
                                  one entry per event (a hidden one redacted, not dropped,
                                  so notes and ``since`` keep their indices).

A spectator (None) sees while the battle is in play no more than every side knows, so a
player learns nothing by reading the battle logged out. After the battle everyone sees
everything: callers show the whole log once it is over, and mark with :func:`reveal` a
battle they replay to show a finished battle's record (the report's frames), which a game
then hides nothing from (:func:`revealed`). One person flying every side sees everything
too, while it is in play: :func:`seen_whole` is the battle as they see it.
A decision too large to list whole is built in steps instead (:mod:`rules.tactical.steps`).
"""

from __future__ import annotations

import copy
from typing import Any

from rules.tactical.steps import decision_steps

REVEALED = "record_revealed"  # the attribute :func:`reveal` sets on a replayed battle


def reveal(battle: Any) -> Any:
    """Mark ``battle``, replayed to show a finished battle's record, as hiding nothing."""
    setattr(battle, REVEALED, True)
    return battle


def revealed(battle: Any) -> bool:
    """Whether ``battle`` hides nothing from its viewer (:func:`reveal`)."""
    return bool(getattr(battle, REVEALED, False))


def seen_whole(battle: Any) -> Any:
    """``battle`` as one who sees everything reads it (a person flying every side): a
    shallow copy marked with :func:`reveal`, so ``view``/``describe_board`` of the copy
    with no side hide nothing, while the battle itself, which a spectator's view reads
    too, stays unmarked."""
    return reveal(copy.copy(battle))


def listed_for(battle: Any, side: int) -> list[Any]:
    """``side``'s legal actions as a list to choose from: none while its decision is built
    in steps (too many to list whole), :func:`legal_for` otherwise."""
    return [] if decision_steps(battle, side) is not None else legal_for(battle, side)


def deciding_sides(battle: Any) -> list[int]:
    """The sides whose decision the battle awaits now (default: the side to act)."""
    own = getattr(battle, "deciding_sides", None)
    if own is not None:
        return list(own())
    side = battle.current_side()
    return [] if side is None else [side]


def legal_for(battle: Any, side: int) -> list[Any]:
    """``side``'s legal actions now (default: the legal actions if ``side`` is to act)."""
    own = getattr(battle, "legal_actions_for", None)
    if own is not None:
        return list(own(side))
    return list(battle.legal_actions()) if side == battle.current_side() else []


def decision_side(battle: Any, action: Any) -> int | None:
    """Whose decision ``action`` is (default: the side to act)."""
    own = getattr(battle, "decision_side", None)
    return own(action) if own is not None else battle.current_side()


def sealed_count(battle: Any) -> int:
    """How many of the last actions are sealed decisions not yet revealed (default 0)."""
    own = getattr(battle, "sealed_count", None)
    return int(own()) if own is not None else 0


def view_for(battle: Any, side: int | None) -> dict[str, Any] | None:
    """What ``side`` may see of the battle now; None for a system with no view of its own
    (it hides nothing: its state is the view)."""
    own = getattr(battle, "view", None)
    return own(side) if own is not None else None


def log_for(battle: Any, side: int | None) -> list[dict[str, Any]]:
    """The log as ``side`` may read it now (default: the whole log)."""
    own = getattr(battle, "log_for", None)
    return list(own(side)) if own is not None else battle.log


def choose_for(pilot: Any, battle: Any, side: int) -> Any:
    """``pilot``'s decision for ``side`` (default: ``choose``, for the side to act)."""
    own = getattr(pilot, "choose_for", None)
    return own(battle, side) if own is not None else pilot.choose(battle)

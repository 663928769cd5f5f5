"""What every computer pilot is: a :class:`Policy` choosing a legal action."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from rules.dice import Dice

from ..actions import Action

T = TypeVar("T")

TIE = 1e-9  # values closer than this are a tie


@runtime_checkable
class Policy(Protocol):
    """A computer pilot: picks a legal action for the side to act."""

    def choose(self, state: Any) -> Action: ...


class TieBreaker:
    """A policy's own seeded source for breaking ties (never the battle's dice).

    The draws come from the project's one dice source, :class:`rules.dice.Dice`,
    in its fast unrecorded mode, seeded with the policy's own seed.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.dice = Dice(seed, record=False)

    def one_of(self, options: Sequence[T]) -> T:
        """One of ``options``, uniformly; the only one without a draw."""
        if len(options) == 1:
            return options[0]
        if not options:
            raise IndexError("no option to choose from")
        return options[self.dice.roll(len(options)) - 1]

    def pick(self, options: Sequence[T], score: Callable[[T], float]) -> T:
        """The option with the best score, ties broken at random."""
        best = -float("inf")
        tied: list[T] = []
        for o in options:
            v = score(o)
            if v > best + TIE:
                best = v
                tied = [o]
            elif v >= best - TIE:
                tied.append(o)
        return self.one_of(tied)

"""A decision built step by step (issue 25): an *Air Force* plot ("2TR2P", 001 V) is far
too large to list whole, so the battle offers it as a sequence of small choices, in the
game's own notation, and checks the whole once when it is submitted.

Optional methods of a battle; the functions below answer for a game that has none:

  decision_steps(side, partial: tuple[str, ...]) -> DecisionSteps | None
                                  after the steps ``partial`` chosen so far: the legal next
                                  steps, and whether ``partial`` is already a whole decision;
                                  None: ``side``'s decision now is not built in steps (it is
                                  listed whole by ``legal_actions_for``, as every decision of
                                  a game without the method). Called only with a ``partial``
                                  whose every step was offered (:func:`steps_check` walks it).
  action_from_steps(side, steps) -> action    the whole decision, checked once (raising the
                                  system's ``refusal`` naming the rule); applied like any
                                  action, so the record and replay are unchanged.
  steps_from_text(side, text) -> tuple[str, ...]   (optional) typed notation read into
                                  steps; the default reads it with the offered steps
                                  themselves (:func:`steps_from_text`).
  steps_text(steps) -> str        (optional) the steps written in the notation (default:
                                  joined, "2" "T" "R" -> "2TR").

The seat builds its (sealed) decision with these and submits it as one action;
simultaneity and the views (:mod:`rules.tactical.decisions`) stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DecisionSteps:
    """What may follow a partial decision: its legal next steps, in the game's notation."""

    next: tuple[str, ...]  # the legal next steps (empty: nothing may follow)
    complete: bool  # the steps so far are a whole decision (it may be submitted as it is)
    prompt: str = ""  # what the next step chooses, in words ("the aim")
    labels: Mapping[str, str] = field(default_factory=dict, hash=False)  # "R": "turn right"
    rule: str | None = (
        None  # the rulebook section the steps follow, e.g. "001 'V. SEQUENCE OF PLAY'"
    )


class StepRefused(ValueError):
    """A step, or a character of typed notation, the decision does not allow there.

    ``index`` is the step's place in the partial decision (0: the first) or, for typed
    text, the character's; ``offered`` what was legal there instead."""

    def __init__(self, message: str, index: int, offered: DecisionSteps) -> None:
        super().__init__(message)
        self.message, self.index, self.offered = message, index, offered


def decision_steps(battle: Any, side: int, partial: Sequence[str] = ()) -> DecisionSteps | None:
    """What may follow ``partial`` in ``side``'s decision (None: not built in steps). The
    caller vouches for ``partial``; :func:`steps_check` checks it step by step."""
    own = getattr(battle, "decision_steps", None)
    return None if own is None else own(side, tuple(partial))


def steps_check(battle: Any, side: int, partial: Sequence[str]) -> tuple[DecisionSteps, list[str]]:
    """(what may follow ``partial``, each chosen step in words), every step checked against
    what was offered before it; :class:`StepRefused` names the first step not offered."""
    offered = decision_steps(battle, side, ())
    if offered is None:
        raise StepRefused("this decision is not built step by step", 0, DecisionSteps((), False))
    words: list[str] = []
    for i, step in enumerate(partial):
        if step not in offered.next:
            after = f" after {steps_text(battle, partial[:i])!r}" if i else ""
            legal = ", ".join(offered.next) or "nothing (the decision is whole)"
            raise StepRefused(f"step {i + 1} {step!r} is not legal{after}: {legal}", i, offered)
        words.append(offered.labels.get(step, step))
        found = decision_steps(battle, side, partial[: i + 1])
        assert found is not None  # the decision was offered in steps at its start
        offered = found
    return offered, words


def steps_from_text(battle: Any, side: int, text: str) -> tuple[str, ...]:
    """Typed notation read into steps: the battle's own reading, or by default the longest
    offered step at each place (letters in either case; spaces, commas and dots between
    steps skipped). :class:`StepRefused` names the first character that fits no step."""
    own = getattr(battle, "steps_from_text", None)
    if own is not None:
        return tuple(own(side, text))
    steps: list[str] = []
    at = 0
    while at < len(text):
        if text[at].isspace() or text[at] in ",.":
            at += 1
            continue
        offered = decision_steps(battle, side, steps)
        if offered is None:
            raise StepRefused(
                "this decision is not built step by step", at, DecisionSteps((), False)
            )
        rest = text[at:].upper()
        fits = [s for s in offered.next if s and rest.startswith(s.upper())]
        if not fits:
            legal = ", ".join(offered.next) or "nothing (the decision is whole)"
            raise StepRefused(
                f"character {at + 1} {text[at]!r} of {text!r} fits no step here: {legal}",
                at,
                offered,
            )
        step = max(fits, key=len)
        steps.append(step)
        at += len(step)
    return tuple(steps)


def steps_text(battle: Any, steps: Sequence[str]) -> str:
    """The steps written in the game's notation (default: joined)."""
    own = getattr(battle, "steps_text", None)
    return str(own(tuple(steps))) if own is not None else "".join(steps)


def action_from_steps(battle: Any, side: int, steps: Sequence[str]) -> Any:
    """``side``'s whole decision from its steps, checked once (the system's ``refusal``)."""
    own = getattr(battle, "action_from_steps", None)
    if own is None:
        raise StepRefused("this decision is not built step by step", 0, DecisionSteps((), False))
    return own(side, tuple(steps))

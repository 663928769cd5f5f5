"""The checks of what a person posts to a battle flown by people (issue 14), before
anything is locked or read: an action as legal_actions wrote it, a computer pilot's name,
a hand-over's side, aircraft and true/false. Each refusal is a RuleViolation naming the
field; nothing here reads the battle's state."""

from __future__ import annotations

from typing import Any, cast

from angels.errors import RuleViolation
from rules.angels20 import Action, Activate, BattleState
from rules.tactical import system_named

from .models import Battle
from .play_seats import _pilot_names
from .rules_settings import SIDES


def stale() -> RuleViolation:
    return RuleViolation(
        "the battle has moved on since you loaded the page: read the turn again",
        field="version",
        code="conflict",
    )


def version_checked(version: object) -> int:
    """The page's version of the battle, a whole number (anything else: stale)."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise stale()
    return version


def act_checked(action: object, computer: object) -> None:
    """A move gives an action or the computer pilot to decide it, not both."""
    if (action is None) == (computer is None):
        raise RuleViolation(
            "give an action, or the computer pilot to decide it", field="action", code="required"
        )


def pilot_checked(system: str, computer: str | None) -> None:
    """``computer``, when given, is one of ``system``'s computer pilots."""
    if computer is not None and computer not in (known := _pilot_names(system)):
        raise RuleViolation(
            f"unknown computer pilot {computer!r} (known: {', '.join(known)})",
            field="computer",
            code="invalid",
        )


def hand_over_checked(*, side: object, aircraft: object, to_computer: object) -> None:
    """A hand-over names a side, perhaps one aircraft by its number, and true or false."""
    if not isinstance(to_computer, bool):
        raise RuleViolation("computer is true or false", field="computer", code="format")
    if side not in SIDES:
        raise RuleViolation(f"side is one of {', '.join(SIDES)}", field="side", code="invalid")
    if aircraft is not None and (isinstance(aircraft, bool) or not isinstance(aircraft, int)):
        raise RuleViolation("aircraft is an aircraft's number", field="aircraft", code="format")


def parse_action(battle: Battle, data: Any) -> Action:
    """The posted action as the battle's game reads it."""
    # an action names what it is by "type" (Angels 20, the tests' games) or "kind" (Air
    # Pirates): either way, as legal_actions wrote it
    named = isinstance(data, dict) and any(isinstance(data.get(k), str) for k in ("type", "kind"))
    if not named:
        raise RuleViolation(
            'an action is an object with a "type" (or "kind"), one of legal_actions',
            field="action",
            code="format",
        )
    try:
        return cast(Action, system_named(battle.system).action_from_json(data))
    except (KeyError, TypeError, ValueError) as exc:
        raise RuleViolation(f"not an action: {exc}", field="action", code="format") from exc


def refused_field(state: BattleState, action: Action) -> str:
    """The field a refused action is named by: ``action.plane`` for an activation of
    another side's aircraft (``rules.angels20.legality.mover_problem`` says whose it is),
    the whole ``action`` otherwise."""
    if (
        isinstance(action, Activate)
        and 0 <= action.plane < len(state.planes)
        and state.planes[action.plane].side != state.to_act
    ):
        return "action.plane"
    return "action"

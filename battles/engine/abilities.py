"""Registry of special abilities and the named hook points where the engine calls them.

Stat cards name their abilities (``AircraftStats.abilities``). An ability is
a set of functions, one per hook point it uses, registered under the
ability's name. When a battle starts the engine looks up each aircraft's
abilities once, so an aircraft without abilities costs nothing in the hot
path, and an ability name with no registered functions is simply inert.

Hook points (each function receives the :class:`~battles.engine.state.BattleState`
and aircraft ids; ``plane`` is the aircraft holding the ability):

==================  ==========================================================  ===========
hook                signature                                                   returns
==================  ==========================================================  ===========
initiative          ``fn(state, plane) -> int``                                 bonus to its side's initiative
maneuver            ``fn(state, plane, maneuver) -> int``                       bonus to a maneuver check
attack_dice         ``fn(state, plane, target, dice) -> int``                   new dice count (plane attacks)
attack_modifier     ``fn(state, attacker, target, role) -> int``                per-die modifier; role is "attacker" or "target"
target_number       ``fn(state, attacker, target, number) -> int``              new target number (role of plane: attacker)
damage              ``fn(state, attacker, target, hits, outcome) -> str``       new outcome ("miss", "damage", "destroyed"), called for the target
after_movement      ``fn(state, plane) -> None``                                adjust position after the Movement phase
can_attack          ``fn(state, attacker, target) -> bool``                     False forbids the attack (both aircraft's abilities)
==================  ==========================================================  ===========

Only the two abilities the book's Example of Play needs are implemented here
(Killer Instinct, Expert Dogfighter); the rest of the cards' abilities come
with issue 4 and plug into these same points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HOOKS = (
    "initiative",
    "maneuver",
    "attack_dice",
    "attack_modifier",
    "target_number",
    "damage",
    "after_movement",
    "can_attack",
)

_REGISTRY: dict[str, dict[str, Callable[..., Any]]] = {}


def register(name: str, hook: str, fn: Callable[..., Any]) -> None:
    """Register ``fn`` for ability ``name`` at hook point ``hook``."""
    if hook not in HOOKS:
        raise ValueError(f"unknown hook point {hook!r}; hook points are {HOOKS}")
    _REGISTRY.setdefault(name, {})[hook] = fn


def ability(name: str, hook: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator form of :func:`register`."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        register(name, hook, fn)
        return fn

    return deco


def registered() -> dict[str, tuple[str, ...]]:
    """Ability name -> the hook points it uses."""
    return {name: tuple(sorted(h)) for name, h in _REGISTRY.items()}


def hooks_for(abilities: tuple[str, ...]) -> dict[str, tuple[Callable[..., Any], ...]]:
    """The functions an aircraft with these abilities contributes, by hook point."""
    out: dict[str, list[Callable[..., Any]]] = {}
    for name in abilities:
        for hook, fn in _REGISTRY.get(name, {}).items():
            out.setdefault(hook, []).append(fn)
    return {hook: tuple(fns) for hook, fns in out.items()}


# -- the abilities of the Example of Play (000 "EXAMPLE OF PLAY") -------------


@ability("Killer Instinct", "attack_dice")
def _killer_instinct(state: Any, plane: int, target: int, dice: int) -> int:
    # 000 "EXAMPLE OF PLAY" turn 2: "the Hurricane is now damaged, so the
    # Zeke's Killer Instinct special ability now applies, giving it a bonus
    # attack die."
    return dice + 1 if state.planes[target].damage > 0 else dice


@ability("Expert Dogfighter", "attack_modifier")
def _expert_dogfighter(state: Any, attacker: int, target: int, role: str) -> int:
    # 000 "EXAMPLE OF PLAY" turn 3: "The Zeke's Expert Dogfighter ability
    # means that the Hurricane takes a -1 penalty per die."
    return -1 if role == "target" else 0

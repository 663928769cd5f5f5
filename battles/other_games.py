"""Battles of a game other than Angels 20 from the new-battle page and POST /api/battles/
(issue 25): every registered game that offers scenarios of its own is listed with them.

A tactical system offers scenarios with two optional members: ``scenarios`` (a dict of
scenario key to its title in words) and ``scenario(key, seed) -> dict`` (the scenario,
with its own aircraft and set-up, as ``new_battle`` reads it). Angels 20's are built by
:mod:`battles.scenarios` from flights and settings; another game's come whole, so its
battle takes no flights, and of the settings only its computer pilots (``policies``,
one of the game's ``pilots`` per side), or ``seats`` and a ``deadline`` for a battle
flown by people (each seat a person or one of the game's pilots, checked by
:mod:`battles.play_seats` as for Angels 20).

Two more optional members (issue 26): ``roster_cards``, the key of
``AircraftType.game_cards`` the game flies (its builders are then handed the roster's
cards, as organisers edited them, as ``cards={type name: values}``, here and in campaign
engagements); and ``scenario_form(key, cards) -> dict | None``, what a scenario asks for
beyond its name: ``flights`` (``slots`` a side, each an ``aircraft`` and a ``quality``
from the listed options, each option with its ``points``) and ``settings`` (named
whole numbers, e.g. a budget), passed to ``scenario(key, seed, flights=...,
settings=...)`` from the request's ``flights`` and ``settings.scenario_settings``. A
builder refuses with a ``ValueError`` carrying ``field`` (and ``rule``): a 400 naming it.
"""

from __future__ import annotations

from typing import Any

from angels.errors import RuleViolation
from rules.tactical import DEFAULT_SYSTEM, TacticalSystem, tactical_systems

SCENARIOS = "scenarios"
BUILDER = "scenario"
ROSTER_CARDS = "roster_cards"
FORM = "scenario_form"
SCENARIO_SETTINGS = "scenario_settings"


def roster_cards(system: TacticalSystem) -> dict[str, dict[str, Any]] | None:
    """The roster's cards of the game ``system`` flies (None: it flies its own)."""
    from roster.game_cards import cards_for_game

    game = getattr(system, ROSTER_CARDS, None)
    return cards_for_game(game) if isinstance(game, str) else None


def scenario_form(
    system: TacticalSystem, key: str, cards: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any] | None:
    """What the scenario ``key`` of ``system`` asks for beyond its name (None: nothing)."""
    describe = getattr(system, FORM, None)
    if not callable(describe) or key not in getattr(system, SCENARIOS, {}):
        return None
    form = describe(key, cards if cards is not None else roster_cards(system))
    return form if isinstance(form, dict) else None


def _refusal(exc: Exception, field: str) -> RuleViolation:
    """A builder's ValueError as a 400 naming its field (and rule, if it cites one)."""
    rule = getattr(exc, "rule", None)
    message = str(exc.args[0]) if exc.args else str(exc)
    if isinstance(exc, KeyError):
        message = f"no card for {message}"
    try:
        return RuleViolation(message, field=getattr(exc, "field", field), rule=rule, code="invalid")
    except ValueError:  # a rule not in the citation format: said in the message instead
        return RuleViolation(message, field=getattr(exc, "field", field), code="invalid")


def _built_setup(
    system: TacticalSystem, scenario: str, seed: int, *, flights: Any, scenario_settings: Any
) -> dict[str, Any]:
    """The system's scenario, with the roster's cards and what its form asked for; stored
    whole with the battle, so a later edit of a card changes no battle already made."""
    cards = roster_cards(system)
    extra: dict[str, Any] = {} if cards is None else {"cards": cards}
    if scenario_form(system, scenario, cards) is not None:
        extra |= {"flights": flights, "settings": scenario_settings}
    try:
        return system.scenario_json(getattr(system, BUILDER)(scenario, seed, **extra))
    except (KeyError, ValueError) as exc:
        raise _refusal(exc, "scenario") from exc


def offers_scenarios(system: TacticalSystem) -> bool:
    """Does ``system`` build its own battles from a scenario's name?"""
    return isinstance(getattr(system, SCENARIOS, None), dict) and callable(
        getattr(system, BUILDER, None)
    )


def games(angels20_scenarios: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Every game the new-battle page offers, each with its scenarios (name, title)."""
    offered = []
    for name, system in tactical_systems().items():
        if name == DEFAULT_SYSTEM:
            scenarios = list(angels20_scenarios)
        elif offers_scenarios(system):
            scenarios = list(getattr(system, SCENARIOS).items())
        else:
            continue
        offered.append({"system": name, "title": system.title, "scenarios": scenarios})
    return offered


def other_game_setup(
    system: TacticalSystem, *, scenario: str, flights: Any, settings: Any, seed: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The scenario and settings of a battle of ``system`` (not Angels 20); a 400 naming
    the field for a scenario it does not offer, flights, or a setting it does not read."""
    offered: dict[str, str] = getattr(system, SCENARIOS)
    if scenario not in offered:
        listed = "; ".join(f"{title} ({key})" for key, title in offered.items())
        raise RuleViolation(
            f"{system.title} has no scenario {scenario!r}; its scenarios: {listed}",
            field="scenario",
            code="invalid",
        )
    form = scenario_form(system, scenario) or {}
    if flights and "flights" not in form:
        raise RuleViolation(
            f"a {system.title} scenario brings its own aircraft: give no flights",
            field="flights",
            code="invalid",
        )
    if not isinstance(settings, dict):
        raise RuleViolation("settings must be an object", field="settings", code="format")
    if SCENARIO_SETTINGS in settings and not form.get("settings"):
        raise RuleViolation(
            f"this {system.title} scenario takes no settings of its own",
            field=f"settings.{SCENARIO_SETTINGS}",
            code="invalid",
        )
    build = {"flights": flights, "scenario_settings": settings.get(SCENARIO_SETTINGS)}
    for key in settings:
        if key not in ("policies", "seats", "deadline", SCENARIO_SETTINGS):
            raise RuleViolation(
                f"{system.title} battles take only policies (its computer pilots), or seats "
                "and a deadline (a battle flown by people), here",
                field=f"settings.{key}",
                code="invalid",
            )
    if "seats" in settings:  # people fly it: battles.play_seats checks seats and deadline
        if "policies" in settings:
            raise RuleViolation(
                "with seats, each side's computer pilot is named in its seat: "
                f'{{"pilot": "{system.pilots[0]}"}}',
                field="settings.policies",
                code="invalid",
            )
        setup = _built_setup(system, scenario, seed, **build)
        return setup, {k: v for k, v in settings.items() if k in ("seats", "deadline")}
    policies = settings.get("policies", {})
    if not isinstance(policies, dict):
        raise RuleViolation(
            "policies maps a side to a computer pilot", field="settings.policies", code="format"
        )
    for side, pilot in policies.items():
        if side not in system.sides:
            raise RuleViolation(
                f"unknown side {side!r}", field=f"settings.policies.{side}", code="invalid"
            )
        if pilot not in system.pilots:
            raise RuleViolation(
                f"{system.title}'s computer pilots are: {', '.join(system.pilots)}",
                field=f"settings.policies.{side}",
                code="invalid",
            )
    chosen = {side: policies.get(side, system.pilots[0]) for side in system.sides}
    setup = _built_setup(system, scenario, seed, **build)
    return setup, {"policies": chosen}

"""Building the engine's scenario from a request: the scenario kind, its settings and
the flights (aircraft types from the catalog, roster pilots), each refusal naming the
field and, where a rulebook rule is broken, the rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Max, Min

from angels.errors import RuleViolation
from roster.enrolment import pilot_require_available
from roster.models import AircraftType, Pilot
from rules.angels20 import Dice, Flight, FlightMember, Rules, Scenario, ScenarioError
from rules.angels20 import scenario as engine_scenarios
from rules.dice import derive_seed

from .catalogue import catalogue, stats_for
from .models import ScenarioKind
from .rules_settings import (
    BALLOON_RULE,
    CLOUDS_RULE,
    DIRECTION_RULE,
    FLAK_RULE,
    ILLUMINATION_RULE,
    NIGHT_RULE,
    SIDES,
    _rule_of,
    _whole,
    rules_build,
    rules_options,
)

TERRITORIES = ("friendly", "enemy", "neutral")
RULE_SWITCHES = ("tailing", "turn_position", "status", "pilot_survival")  # the advanced rules
SETTINGS_KEYS = {
    "rules",
    "territory",
    "policies",
    "year",
    "theater",
    "advantage",
    "situation",
    "max_turns",
    "seats",  # issue 14: who flies each side (battles.play.seats_clean checks it)
    "deadline",  # issue 14: the time per decision (battles.play.deadline_clean checks it)
}
FIXED_FLIGHT_SCENARIOS: dict[str, Callable[..., Scenario]] = {
    ScenarioKind.DOGFIGHT: engine_scenarios.dogfight,
    ScenarioKind.INTERCEPT: engine_scenarios.intercept_the_interceptors,
    ScenarioKind.LIMITED_FUEL: engine_scenarios.limited_fuel,
    ScenarioKind.SCHNELLBOMBER: engine_scenarios.schnellbomber,
}
# What a refusal calls each scenario ("year is not used by the Dogfight").
SCENARIO_NAMES: dict[str, str] = {
    ScenarioKind.DOGFIGHT: "the Dogfight",
    ScenarioKind.INTERCEPT: "Intercept the Interceptors",
    ScenarioKind.LIMITED_FUEL: "Limited Fuel",
    ScenarioKind.SCHNELLBOMBER: "Schnellbomber",
    ScenarioKind.STANDARD: "the Standard Scenario",
    ScenarioKind.BOMBER_ESCORT: "Bomber Escort",
    ScenarioKind.ENGAGEMENT: "a campaign engagement",
}
YEAR_RULE = "000 'YEAR RESTRICTIONS'"
THEATER_RULE = "000 'HISTORICAL THEATER RESTRICTIONS'"
ADVANTAGE_RULE = "000 'STANDARD SCENARIO'"
SITUATION_RULE = "000 'STARTING SITUATIONS'"
# The settings that shape a scenario's flights and set-up, and the scenarios that use
# them: year and theater restrict the flights a player builds (so only the scenarios
# built from flights take them); advantage and situation skip the Standard Scenario's
# rolls. The four Battle of Britain scenarios bring their own aircraft, year, place
# and set-up (000 "SCENARIOS"), so they take none of them.
SCENARIO_SETTINGS: dict[str, tuple[str, ...]] = {
    ScenarioKind.STANDARD: ("year", "theater", "advantage", "situation"),
    ScenarioKind.BOMBER_ESCORT: ("year", "theater"),
}
SCENARIO_SETTING_KEYS = ("year", "theater", "advantage", "situation")


DEFAULT_POLICY = "tactical"


def policy_names() -> tuple[str, ...]:
    from rules.angels20.pilots import POLICIES

    return tuple(POLICIES)


# -- building the engine's scenario from the request --------------------------------
def _rules(settings: dict[str, Any]) -> Rules:
    options = rules_options(settings.get("rules", {}))
    max_turns = settings.get("max_turns", 30)
    if not _whole(max_turns) or not 1 <= max_turns <= 100:
        raise RuleViolation(
            "max_turns is a whole number from 1 to 100", field="settings.max_turns", code="range"
        )
    return rules_build(options, max_turns=max_turns)


def _check_settings(kind: str, settings: dict[str, Any]) -> None:
    if not isinstance(settings, dict):
        raise RuleViolation("settings must be an object", field="settings", code="format")
    for key in settings:
        if key not in SETTINGS_KEYS:
            raise RuleViolation(
                f"unknown option {key!r} (known: {', '.join(sorted(SETTINGS_KEYS))})",
                field=f"settings.{key}",
                code="invalid",
            )
    policies = settings.get("policies", {})
    known = policy_names()
    if not isinstance(policies, dict):
        raise RuleViolation(
            "policies maps a side to a pilot policy", field="settings.policies", code="format"
        )
    for side, name in policies.items():
        if side not in SIDES:
            raise RuleViolation(
                f"unknown side {side!r}", field=f"settings.policies.{side}", code="invalid"
            )
        if name not in known:
            raise RuleViolation(
                f"unknown pilot policy {name!r} (known: {', '.join(known)})",
                field=f"settings.policies.{side}",
                code="invalid",
            )
    errors = scenario_setting_errors(kind, settings)
    if errors:
        raise errors[0]
    territory = settings.get("territory", {})
    if not isinstance(territory, dict) or any(
        s not in SIDES or t not in TERRITORIES for s, t in territory.items()
    ):
        raise RuleViolation(
            f"territory maps axis/allied to one of {', '.join(TERRITORIES)}",
            field="settings.territory",
            code="invalid",
        )


def catalog_years() -> list[int]:
    """The years any catalog aircraft flies in: a year before them all leaves no flight."""
    span = AircraftType.objects.aggregate(low=Min("year"), high=Max("year"))
    return list(range(span["low"] or 1939, (span["high"] or 1945) + 1))


def scenario_setting_errors(kind: str, settings: dict[str, Any]) -> list[RuleViolation]:
    """Every problem with the year, theater, advantage and situation of a ``kind`` battle.

    The one check of these settings, for the API and the new-battle page alike:
    a setting the scenario does not use is refused by name (a Dogfight's year
    would be stored and shown yet change nothing); one it uses must be a value
    the rule allows. Absent or null means "any" (year, theater) or "roll for
    it" (advantage, situation).
    """
    errors: list[RuleViolation] = []
    used = SCENARIO_SETTINGS.get(kind, ())
    name = SCENARIO_NAMES.get(kind, kind)
    for key in SCENARIO_SETTING_KEYS:
        value = settings.get(key)
        field = f"settings.{key}"
        if value is None:
            continue
        if key not in used:
            why = (
                " (it brings its own aircraft and set-up)"
                if kind in FIXED_FLIGHT_SCENARIOS
                else " (only the Standard Scenario rolls for it)"
                if key in ("advantage", "situation")
                else ""
            )
            errors.append(
                RuleViolation(
                    f"{key} is not used by {name}{why}",
                    field=field,
                    rule="000 'SCENARIOS'" if kind in FIXED_FLIGHT_SCENARIOS else None,
                    code="invalid",
                )
            )
        elif key == "year":
            years = catalog_years()
            if not _whole(value) or not years[0] <= value <= years[-1]:
                errors.append(
                    RuleViolation(
                        f"the year is a whole number from {years[0]} to {years[-1]} "
                        "(the years of the aircraft catalog)",
                        field=field,
                        rule=YEAR_RULE,
                    )
                )
        elif key == "theater":
            if not isinstance(value, str) or value not in engine_scenarios.THEATERS:
                errors.append(
                    RuleViolation(
                        f"the theater is one of: {'; '.join(engine_scenarios.THEATERS)}",
                        field=field,
                        rule=THEATER_RULE,
                    )
                )
        elif key == "advantage":
            if value not in SIDES:
                errors.append(
                    RuleViolation(
                        "the advantage goes to axis or allied", field=field, rule=ADVANTAGE_RULE
                    )
                )
        elif not _whole(value) or value not in engine_scenarios.SITUATIONS:
            errors.append(
                RuleViolation(
                    "the starting situation is a whole number from 1 to 6",
                    field=field,
                    rule=SITUATION_RULE,
                )
            )
    return errors


def fixed_flights_refusal(kind: str, field: str = "flights") -> RuleViolation:
    """A Battle of Britain scenario given aircraft: it flies the book's own."""
    return RuleViolation(
        f"{SCENARIO_NAMES.get(kind, kind)} flies its own aircraft; "
        "choose the Standard Scenario or Bomber Escort to pick aircraft",
        field=field,
        rule="000 'SCENARIOS'",
    )


def _aircraft_type(ref: Any, field: str) -> AircraftType:
    qs = AircraftType.objects.all()
    found = (
        qs.filter(pk=ref).first()
        if isinstance(ref, int)
        else qs.filter(name=ref).first()
        if isinstance(ref, str)
        else None
    )
    if found is None:
        raise RuleViolation(f"unknown aircraft type {ref!r}", field=field, code="exists")
    return found


def _flight(side: str, members: Any) -> Flight:
    field = f"flights.{side}"
    if not isinstance(members, list):
        raise RuleViolation("a flight is a list of aircraft", field=field, code="format")
    built = []
    for i, member in enumerate(members):
        where = f"{field}[{i}]"
        if not isinstance(member, dict) or "aircraft_type" not in member:
            raise RuleViolation(
                "each aircraft needs an aircraft_type (id or name)",
                field=f"{where}.aircraft_type",
                code="required",
            )
        aircraft_type = _aircraft_type(member["aircraft_type"], f"{where}.aircraft_type")
        if aircraft_type.side and aircraft_type.side != side:
            raise RuleViolation(
                f"{aircraft_type.name} flies for the {aircraft_type.side} side, not {side}",
                field=f"{where}.aircraft_type",
                rule="000 'CHOOSING SIDES'",
            )
        quality = member.get("quality")
        pilot_ref = ""
        if member.get("pilot") is not None:
            pilot = (
                Pilot.objects.select_related("squadron", "enrolled_in")
                .filter(pk=member["pilot"])
                .first()
            )
            if pilot is None:
                raise RuleViolation(
                    f"unknown pilot {member['pilot']!r}", field=f"{where}.pilot", code="exists"
                )
            if pilot.squadron.side != side:
                raise RuleViolation(
                    f"{pilot} flies for the {pilot.squadron.side} side",
                    field=f"{where}.pilot",
                    code="invalid",
                )
            # issue 12: a pilot serving in a campaign, or out of action, flies no standalone battle
            pilot_require_available(pilot, campaign_id=None, field=f"{where}.pilot")
            pilot_ref = f"pilot:{pilot.pk}"
            quality = quality or engine_quality(pilot)
        if quality is not None and quality not in ("poor", "average", "veteran", "ace"):
            raise RuleViolation(
                "quality is poor, average, veteran or ace",
                field=f"{where}.quality",
                rule="000 'AIRCRAFT STATS'",
            )
        built.append(FlightMember(stats_for(aircraft_type), pilot=quality, pilot_ref=pilot_ref))
    return Flight(side, tuple(built))


def engine_quality(pilot: Pilot) -> str:
    """The Angels 20 quality a roster pilot flies with, by the pilot's rule set."""
    from rules.careers import RULE_SETS

    rule_set = RULE_SETS.get(pilot.quality_scale)
    return rule_set.engine_quality(pilot.quality) if rule_set else pilot.quality


def build_scenario(
    *, kind: str, flights: dict[str, Any], settings: dict[str, Any], seed: int
) -> Scenario:
    """The engine's scenario for a request; raises RuleViolation naming the field and rule."""
    if kind not in ScenarioKind.values:
        raise RuleViolation(
            f"unknown scenario {kind!r} (known: {', '.join(ScenarioKind.values)})",
            field="scenario",
            code="invalid",
        )
    if kind == ScenarioKind.ENGAGEMENT:  # its campaign builds it (battle_create_from_setup)
        raise RuleViolation(
            "a campaign engagement is built by its campaign: choose another scenario",
            field="scenario",
            code="invalid",
        )
    _check_settings(kind, settings)
    rules = _rules(settings)
    try:
        if kind in FIXED_FLIGHT_SCENARIOS:
            if flights:
                raise fixed_flights_refusal(kind)
            scenario = FIXED_FLIGHT_SCENARIOS[kind](rules=rules, catalogue=catalogue())
        else:
            if not isinstance(flights, dict) or set(flights) != set(SIDES):
                raise RuleViolation(
                    "give a flight for the axis and for the allied side",
                    field="flights",
                    rule="000 'BUILDING FLIGHTS'",
                )
            built = {side: _flight(side, flights[side]) for side in SIDES}
            for side in SIDES:
                try:
                    engine_scenarios.validate_flight(
                        built[side], year=settings.get("year"), theater=settings.get("theater")
                    )
                except ScenarioError as exc:
                    raise RuleViolation(
                        str(exc), field=f"flights.{side}", rule=_rule_of(str(exc))
                    ) from exc
            if kind == ScenarioKind.STANDARD:
                scenario = engine_scenarios.standard_scenario(
                    built["axis"], built["allied"], Dice(derive_seed(seed, "standard scenario set-up")), rules=rules, year=settings.get("year"),
                    theater=settings.get("theater"), advantage=settings.get("advantage"), situation=settings.get("situation"),
                )  # fmt: skip
            else:
                escort_side = settings.get("escort_side", "allied")
                other = "axis" if escort_side == "allied" else "allied"
                scenario = engine_scenarios.bomber_escort(
                    built[escort_side], built[other], rules=rules
                )
        territory = settings.get("territory")
        if territory:
            data = scenario.to_json()
            data["territory"] = [
                territory.get("axis", "neutral"),
                territory.get("allied", "neutral"),
            ]
            scenario = Scenario.from_json(data)
    except ValueError as exc:  # ScenarioError, or the engine refusing a card or a rule
        raise RuleViolation(str(exc), field=_field_of(str(exc)), rule=_rule_of(str(exc))) from exc
    return scenario


# Rulebook sections of the optional rules, to name the setting an engine message is about.
_RULE_FIELDS = {
    CLOUDS_RULE: "settings.rules.clouds",
    FLAK_RULE: "settings.rules.flak_fields",
    BALLOON_RULE: "settings.rules.barrage_balloons",
    NIGHT_RULE: "settings.rules.night",
    DIRECTION_RULE: "settings.rules.fighter_direction",
    ILLUMINATION_RULE: "settings.rules.searchlights",
}


def _field_of(message: str) -> str:
    """The request field an engine message is about: a setting of an optional rule, else the flights."""
    rule = _rule_of(message)
    if "cloud hex" in message:
        return "settings.rules.cloud_shapes"
    return _RULE_FIELDS.get(rule or "", "flights")

"""The new-battle page: every field read and checked, every problem listed beside its field
in plain words (the rule cited in small print), and what the user entered kept."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from angels.errors import RuleViolation
from angels.numbers import digits
from roster.models import AircraftType
from rules.angels20 import Flight, FlightMember, ScenarioError
from rules.angels20.scenario import FLIGHT_MAX, SITUATIONS, THEATERS, validate_flight
from rules.tactical import DEFAULT_SYSTEM, tactical_systems

from . import other_games, scenarios, services
from .catalogue import stats_for
from .forms import (
    SIDES,
    errors_by_field,
    rules_form_from_post,
    rules_form_initial,
    rules_from_post_all,
)
from .models import BattleStatus, ScenarioKind
from .new_game import chosen_game, form_problems, form_request, game_context
from .play_seats import DEADLINE_UNITS
from .rules_settings import BOOL_SWITCHES, _rule_of

# A campaign engagement is built by its campaign, never from this page.
PAGE_SCENARIOS = [(v, label) for v, label in ScenarioKind.choices if v != ScenarioKind.ENGAGEMENT]
BUILT_FLIGHTS = (ScenarioKind.STANDARD, ScenarioKind.BOMBER_ESCORT)
BOMBER_KINDS = ("light bomber", "medium bomber", "bomber", "heavy bomber", "bomber token")
PERSON = "person"  # a side flown by a person in the browser (issue 14), not a computer pilot
ADVANCED = {  # the advanced rules of 000, in plain words
    "tailing": "Tailing: an aircraft behind an enemy may follow its moves",
    "turn_position": "Choosing turn position: the side with initiative picks who moves first",
    "status": "Aircraft status: damaged, evading and out-of-control aircraft",
    "pilot_survival": "Pilot survival: roll for each pilot shot down",
}
YEAR_RULE = scenarios.YEAR_RULE
THEATER_RULE = scenarios.THEATER_RULE
ADVANTAGE_RULE = scenarios.ADVANTAGE_RULE
SITUATION_RULE = scenarios.SITUATION_RULE


def _choice(post: Any, name: str, allowed: list[str], message: str, errors: list, **kw) -> str:
    value = post.get(name, "")
    if value and value not in allowed:
        errors.append(RuleViolation(message, field=f"settings.{name}", **kw))
        return ""
    return value


def _flights(post: Any, types: dict[str, dict[int, AircraftType]], settings: dict, errors: list):
    """The flights chosen slot by slot, each side checked against 000 'BUILDING FLIGHTS'."""
    flights = {}
    for side in SIDES:
        chosen = []
        for value in post.getlist(f"{side}_aircraft")[:FLIGHT_MAX]:
            if not value:
                continue
            pk = digits(value)
            if pk not in types[side]:
                errors.append(
                    RuleViolation(
                        "choose an aircraft from the list", field=f"flights.{side}", code="invalid"
                    )
                )
                continue
            chosen.append(types[side][pk])
        flights[side] = [{"aircraft_type": t.pk} for t in chosen]
        flight = Flight(side, tuple(FlightMember(stats_for(t)) for t in chosen))
        try:
            validate_flight(flight, year=settings.get("year"), theater=settings.get("theater"))
        except ScenarioError as exc:
            errors.append(RuleViolation(str(exc), field=f"flights.{side}", rule=_rule_of(str(exc))))
    return flights


def read_battle_form(post: Any, types: dict[str, dict[int, AircraftType]]) -> tuple[dict, list]:
    """The battle request the form asks for, and every problem found in it."""
    errors: list[RuleViolation] = []
    system = post.get("system") or DEFAULT_SYSTEM  # issue 25: the tactical game
    try:
        game = services.system_checked(system, built=True)
    except RuleViolation as exc:
        errors.append(exc)
    else:
        if game.name != DEFAULT_SYSTEM:  # its scenario brings aircraft and set-up
            return _other_game_form(post, game)
    scenario = post.get("scenario", "")
    if scenario not in dict(PAGE_SCENARIOS):
        errors.append(RuleViolation("choose a scenario from the list", field="scenario"))
    settings: dict[str, Any] = {}
    years = [str(y) for y in scenarios.catalog_years()]
    year = _choice(
        post, "year", years, f"the year is {years[0]} to {years[-1]}", errors, rule=YEAR_RULE
    )
    theater = _choice(
        post, "theater", list(THEATERS), "choose a theater from the list", errors, rule=THEATER_RULE
    )
    settings |= {"year": int(year)} if year else {}
    settings |= {"theater": theater} if theater else {}
    # read for every scenario: one that does not use a setting refuses it below, by name
    advantage = _choice(
        post,
        "advantage",
        list(SIDES),
        "the advantage goes to axis or allied",
        errors,
        rule=ADVANTAGE_RULE,
    )
    situation = _choice(
        post,
        "situation",
        [str(s) for s in SITUATIONS],
        "the starting situation is 1 to 6",
        errors,
        rule=SITUATION_RULE,
    )
    settings |= {"advantage": advantage} if advantage else {}
    settings |= {"situation": int(situation)} if situation else {}
    policies = {}
    seats: dict[str, dict[str, Any]] = {}  # issue 14: a side flown by a person, by username
    for side in SIDES:
        name = post.get(f"{side}_policy", scenarios.DEFAULT_POLICY)
        if name == PERSON:
            seats[side] = _person_seat(post, side, errors)
            continue
        if name not in scenarios.policy_names():
            errors.append(
                RuleViolation(
                    "choose who flies the pilots from the list", field=f"settings.policies.{side}"
                )
            )
        policies[side] = name
    if scenario in dict(PAGE_SCENARIOS):  # the API's own check of what the scenario uses
        errors += scenarios.scenario_setting_errors(scenario, settings)
    if scenario in BUILT_FLIGHTS:
        flights = _flights(post, types, settings, errors)
    else:  # a Battle of Britain scenario flies the book's aircraft: none may be chosen
        flights = {}
        for side in SIDES:
            if any(post.getlist(f"{side}_aircraft")):
                errors.append(scenarios.fixed_flights_refusal(scenario, field=f"flights.{side}"))
    optional, rule_errors = rules_from_post_all(post)
    errors += rule_errors
    switches = {name: name in post for name in scenarios.RULE_SWITCHES}
    settings |= {"policies": policies, "rules": {**switches, **optional}}
    if seats:  # the other side's seat is its computer pilot
        settings["seats"] = seats | {side: {"pilot": p} for side, p in policies.items()}
        del settings["policies"]
    _deadline(post, settings, bool(seats), errors)
    return {"system": system, "scenario": scenario, "flights": flights, "settings": settings}, errors  # fmt: skip


def _deadline(post: Any, settings: dict[str, Any], seated: bool, errors: list) -> None:
    """The time per decision, if one was given, into ``settings`` (issue 14; battles.play_seats
    .deadline_clean checks it); refused when no person is seated."""
    amount, unit = post.get("deadline_amount", "").strip(), post.get("deadline_unit", "minutes")
    if amount:
        number = digits(amount)
        settings["deadline"] = {unit: number if number is not None else amount}
        if not seated:
            errors.append(
                RuleViolation(
                    "a time per decision is for a battle flown by people: seat a person",
                    field="settings.deadline",
                    code="invalid",
                )
            )


def _person_seat(post: Any, side: str, errors: list) -> dict[str, Any]:
    """A side flown by a person in the browser: the username given (issue 14)."""
    username = post.get(f"{side}_user", "").strip()
    if not username:
        errors.append(
            RuleViolation(
                "give the username of the person flying this side",
                field=f"settings.seats.{side}",
                code="required",
            )
        )
    return {"user": username}


def _other_game_form(post: Any, game: Any) -> tuple[dict[str, Any], list[RuleViolation]]:
    """Another game's battle as the form asks for it: its scenario, and for each side one of
    its computer pilots or a person (then seats, each computer side's pilot in its seat, and
    the time per decision), checked by services.battle_create, each refusal by its field;
    Angels 20's aircraft slots, if any was chosen, are passed on as flights for the game to
    refuse by name."""
    errors: list[RuleViolation] = []
    chosen = {side: [v for v in post.getlist(f"{side}_aircraft") if v] for side in SIDES}
    policies = {side: post.get(f"{side}_policy", game.pilots[0]) for side in game.sides}
    people = {s: _person_seat(post, s, errors) for s, p in policies.items() if p == PERSON}
    settings: dict[str, Any] = {"policies": policies}
    if people:  # the other side's seat is its computer pilot
        rest = {side: {"pilot": p} for side, p in policies.items() if side not in people}
        settings = {"seats": people | rest}
    _deadline(post, settings, bool(people), errors)
    flights: Any = {side: v for side, v in chosen.items() if v}
    built, scenario_settings = form_request(post, game, post.get("scenario", ""))
    errors += form_problems(post, game, post.get("scenario", ""))  # all at once, by field
    if built is not None:  # the scenario's own slots (e.g. Air Pirates' point-built flights)
        flights = {**flights, **built}
    if scenario_settings:
        settings[other_games.SCENARIO_SETTINGS] = scenario_settings
    return {
        "system": game.name, "scenario": post.get("scenario", ""),
        "flights": flights, "settings": settings,
    }, errors  # fmt: skip


def _context(
    post: Any, types: dict[str, dict[int, AircraftType]], errors: list[RuleViolation]
) -> dict:
    by_field = errors_by_field(errors)
    chosen = {side: post.getlist(f"{side}_aircraft") if post else [] for side in SIDES}
    return {
        "scenarios": PAGE_SCENARIOS,
        "scenario": post.get("scenario", ScenarioKind.STANDARD) if post else ScenarioKind.STANDARD,
        "policies": scenarios.policy_names(),
        "person": PERSON,
        "games": other_games.games(PAGE_SCENARIOS),  # issue 25: every game with its scenarios
        "other_pilots": [(s.title, s.pilots) for n, s in tactical_systems().items() if n != DEFAULT_SYSTEM and other_games.offers_scenarios(s)],
        "system": post.get("system", DEFAULT_SYSTEM) if post else DEFAULT_SYSTEM,
        "sides": [
            {
                "side": side,
                "types": list(types[side].values()),
                "slots": [digits(v) for v in (chosen[side] + [""] * FLIGHT_MAX)[:FLIGHT_MAX]],
                "policy": post.get(f"{side}_policy", scenarios.DEFAULT_POLICY) if post else scenarios.DEFAULT_POLICY,
                "user": post.get(f"{side}_user", "") if post else "",
                "errors": by_field.get(f"{side}_aircraft", []) + by_field.get(f"{side}_policy", []),
            }
            for side in SIDES
        ],
        "advanced": [
            {"name": n, "label": label, "rule": BOOL_SWITCHES[n], "on": (n in post) if post else n == "pilot_survival"}
            for n, label in ADVANCED.items()
        ],
        "years": scenarios.catalog_years(), "theaters": list(THEATERS), "situations": list(SITUATIONS),
        "chosen": {k: str(post.get(k, "")) if post else "" for k in ("year", "theater", "advantage", "situation", "deadline_amount", "deadline_unit")},
        "deadline_units": list(DEADLINE_UNITS),
        "resolve_later": bool(post) and post.get("resolve") == "later",
        "form": rules_form_from_post(post, by_field) if post else rules_form_initial(None),
        "errors": by_field,
        "error_count": sum(map(len, by_field.values())),
    }  # fmt: skip


def _types() -> dict[str, dict[int, AircraftType]]:
    rows = AircraftType.objects.exclude(kind__in=BOMBER_KINDS).order_by("side", "name")
    return {side: {t.pk: t for t in rows if t.side == side} for side in SIDES}


def battle_new(request: HttpRequest) -> HttpResponse:
    types = _types()
    if request.method != "POST":
        if (game := chosen_game(request.GET.get("system"))) is not None:  # issue 25: its own
            return render(request, "battles/new_game.html", _game_context(None, game, []))
        return render(request, "battles/new.html", _context(None, types, []))
    if not request.user.is_authenticated:
        return redirect(f"/accounts/login/?next={request.path}")
    post = request.POST
    battle_request, errors = read_battle_form(post, types)
    if not errors:
        try:
            battle = services.battle_create(
                **battle_request, requested_by=request.user, resolve=post.get("resolve") != "later"
            )
        except RuleViolation as exc:
            errors = [exc]
        else:
            if battle.status == BattleStatus.IN_PLAY:
                return redirect("battle-play", pk=battle.pk)
            return redirect("battle-report", pk=battle.pk)
    if (game := chosen_game(post.get("system"))) is not None:  # its own settings again
        return render(
            request, "battles/new_game.html", _game_context(post, game, errors), status=400
        )
    context = _context(post, types, errors)
    return render(request, "battles/new.html", context, status=400)


def _game_context(post: Any, game: Any, errors: list[RuleViolation]) -> dict[str, Any]:
    games = other_games.games(PAGE_SCENARIOS)
    return game_context(post, game, errors, games=games, person=PERSON)

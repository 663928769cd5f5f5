"""The new-battle page for a game other than Angels 20 (issue 25): only that game's settings
as its system describes them (its scenarios, its computer pilots or a person per side, the
time per decision), not Angels 20's aircraft slots and rule switches. Reached with
``?system=<name>`` (the game select's "Choose" button, no script needed); posted to the
same page, read by battles.new_battle._other_game_form.

A scenario that asks for more than its name (``scenario_form``, battles.other_games: e.g. Air
Pirates' point-built flights) gets its slots (an aircraft and a pilot's quality each, every
option with its points) and its settings, each side's points added up as the game describes
them (a unit's aircraft points plus its quality's) and shown beside its flight."""

from __future__ import annotations

from typing import Any

from angels.errors import RuleViolation
from angels.numbers import digits
from rules.tactical import DEFAULT_SYSTEM, TacticalSystem, tactical_systems

from . import other_games
from .forms import errors_by_field
from .play_seats import DEADLINE_UNITS


def chosen_game(name: Any) -> TacticalSystem | None:
    """The registered game other than Angels 20 called ``name`` that offers scenarios."""
    if not isinstance(name, str) or name == DEFAULT_SYSTEM:
        return None
    game = tactical_systems().get(name)
    return game if game is not None and other_games.offers_scenarios(game) else None


def _form_fields(key: str) -> tuple[str, str, str]:
    """The page's names of a scenario's slots and settings (one set per scenario)."""
    return f"{key}-{{side}}_aircraft", f"{key}-{{side}}_quality", f"{key}-setting-{{name}}"


def form_request(post: Any, game: TacticalSystem, key: str) -> tuple[Any, dict[str, Any] | None]:
    """The flights and scenario settings the page's form of scenario ``key`` holds, as the
    API takes them (``flights``, ``settings.scenario_settings``); (None, None) without one."""
    form = other_games.scenario_form(game, key)
    if form is None:
        return None, None
    aircraft, quality, setting = _form_fields(key)
    flights = None
    if "flights" in form:
        flights = {}
        for side in game.sides:
            names = post.getlist(aircraft.format(side=side))
            qualities = post.getlist(quality.format(side=side))
            chosen = [(n, qualities[i] if i < len(qualities) else "") for i, n in enumerate(names)]
            flights[side] = [
                {"aircraft": n, "quality": q or form["flights"]["default_quality"]}
                for n, q in chosen if n
            ]  # fmt: skip
    settings: dict[str, Any] = {}
    for spec in form.get("settings", []):
        raw = str(post.get(setting.format(name=spec["name"]), "")).strip()
        if raw:
            number = digits(raw)
            settings[spec["name"]] = number if number is not None else raw
    return flights, settings


def _form_context(
    post: Any, game: TacticalSystem, key: str, title: str, form: dict[str, Any], by_field: dict
) -> dict[str, Any]:
    """One scenario's form as the page draws it: each side's slots with what was chosen and
    the side's points (the aircraft's plus the quality's), and the settings."""
    aircraft, quality, setting = _form_fields(key)
    spec = form.get("flights") or {}
    points = {o["value"]: o["points"] for o in spec.get("aircraft", [])}
    quality_points = {o["value"]: o["points"] for o in spec.get("qualities", [])}
    sides = []
    for side in game.sides if spec else ():
        names = post.getlist(aircraft.format(side=side)) if post else []
        qualities = post.getlist(quality.format(side=side)) if post else []
        slots = []
        for i in range(int(spec["slots"])):
            name = names[i] if i < len(names) else ""
            chosen = (
                qualities[i] if i < len(qualities) and qualities[i] else spec["default_quality"]
            )
            slots.append({"n": i + 1, "aircraft": name, "quality": chosen})
        total = sum(points.get(s["aircraft"], 0) + quality_points.get(s["quality"], 0)
                    for s in slots if s["aircraft"] in points)  # fmt: skip
        sides.append({
            "side": side, "slots": slots, "points": total,
            "aircraft_name": aircraft.format(side=side), "quality_name": quality.format(side=side),
            "errors": by_field.get(f"{side}_aircraft", []),
        })  # fmt: skip
    settings = [
        dict(s, input=setting.format(name=s["name"]),
             value=str(post.get(setting.format(name=s["name"]), "")) if post else "",
             errors=by_field.get(f"scenario_settings.{s['name']}", []))
        for s in form.get("settings", [])
    ]  # fmt: skip
    legend = title.partition(":")[0]  # "Point-built flights: each side chooses ..." -> its name
    return {"key": key, "title": title, "legend": legend, "flights": spec, "sides": sides,
            "settings": settings}  # fmt: skip


def game_context(
    post: Any, game: TacticalSystem, errors: list[RuleViolation], *, games: list[dict[str, Any]], person: str
) -> dict[str, Any]:  # fmt: skip
    """The page's fields for ``game``, what was entered kept, each problem by its field."""
    post = post or {}
    by_field = errors_by_field(errors)
    scenarios = list(getattr(game, other_games.SCENARIOS).items())
    cards = other_games.roster_cards(game)  # read once for every scenario's form
    return {
        "games": games,
        "system": game.name,
        "game": game,
        "scenarios": scenarios,
        "scenario": post.get("scenario", scenarios[0][0] if scenarios else ""),
        "person": person,
        "sides": [
            {
                "side": side,
                "pilots": list(game.pilots),
                "policy": post.get(f"{side}_policy", game.pilots[0]),
                "user": post.get(f"{side}_user", ""),
                "errors": by_field.get(f"{side}_policy", []) + by_field.get(f"{side}_user", []),
            }
            for side in game.sides
        ],
        "forms": [
            _form_context(post, game, key, title, form, by_field)
            for key, title in scenarios
            if (form := other_games.scenario_form(game, key, cards)) is not None
        ],
        "chosen": {k: str(post.get(k, "")) for k in ("deadline_amount", "deadline_unit")},
        "deadline_units": list(DEADLINE_UNITS),
        "errors": by_field,
        "error_count": sum(map(len, by_field.values())),
    }

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

import re
from typing import Any

from angels.errors import RuleViolation
from angels.numbers import digits
from rules.tactical import DEFAULT_SYSTEM, TacticalSystem, tactical_systems

from . import other_games
from .forms import errors_by_field, plain
from .play_seats import DEADLINE_UNITS


def chosen_game(name: Any) -> TacticalSystem | None:
    """The registered game other than Angels 20 called ``name`` that offers scenarios."""
    if not isinstance(name, str) or name == DEFAULT_SYSTEM:
        return None
    game = tactical_systems().get(name)
    return game if game is not None and other_games.offers_scenarios(game) else None


def _slot_names(key: str, side: str) -> tuple[str, str]:
    """The page's names of a side's aircraft and quality selects in scenario ``key``'s form."""
    return f"{key}-{side}_aircraft", f"{key}-{side}_quality"


def _setting_name(key: str, name: str) -> str:
    """The page's name of setting ``name`` in scenario ``key``'s form."""
    return f"{key}-setting-{name}"


def _posted_slots(post: Any, key: str, side: str) -> list[tuple[str, str]]:
    """A side's slots as posted in scenario ``key``'s form: (aircraft, quality) in slot
    order, "" where a slot's select was not sent; none without a post."""
    if not post:
        return []
    aircraft, quality = (post.getlist(name) for name in _slot_names(key, side))
    return [
        (aircraft[i] if i < len(aircraft) else "", quality[i] if i < len(quality) else "")
        for i in range(max(len(aircraft), len(quality)))
    ]


def _posted_setting(post: Any, key: str, name: str) -> str:
    """Setting ``name`` as posted in scenario ``key``'s form, as typed ("" if not sent)."""
    return str(post.get(_setting_name(key, name), "")) if post else ""


def form_request(post: Any, game: TacticalSystem, key: str) -> tuple[Any, dict[str, Any] | None]:
    """The flights and scenario settings the page's form of scenario ``key`` holds, as the
    API takes them (``flights``, ``settings.scenario_settings``); (None, None) without one."""
    form = other_games.scenario_form(game, key)
    if form is None:
        return None, None
    flights = None
    if "flights" in form:
        default = form["flights"]["default_quality"]
        flights = {
            side: [
                {"aircraft": name, "quality": quality or default}
                for name, quality in _posted_slots(post, key, side)
                if name
            ]
            for side in game.sides
        }
    settings: dict[str, Any] = {}
    for spec in form.get("settings", []):
        raw = _posted_setting(post, key, spec["name"]).strip()
        if raw:
            number = digits(raw)
            settings[spec["name"]] = number if number is not None else raw
    return flights, settings


def _setting_value(spec: dict[str, Any], raw: str) -> int | None:
    """A whole-number setting as typed, if it is one within its bounds (None: not)."""
    number = digits(raw)
    if number is None or not spec.get("min", number) <= number <= spec.get("max", number):
        return None
    return number


def form_problems(post: Any, game: TacticalSystem, key: str) -> list[RuleViolation]:
    """Every problem of the scenario ``key``'s form found at once, each by its field, before
    the game's builder is asked (which stops at the first): a slot's aircraft or pilot's
    quality not among the listed ones (``flights.<side>[i].aircraft`` / ``.quality``), a
    side with no air unit, a setting that is no whole number within its bounds, and a side
    worth more points than a ``budget`` setting (the points the page adds up beside it)."""
    form = other_games.scenario_form(game, key)
    if form is None:
        return []
    spec = form.get("flights") or {}
    rule = spec.get("rule")
    problems: list[RuleViolation] = []
    numbers: dict[str, int] = {}
    for s in form.get("settings", []):
        raw = _posted_setting(post, key, s["name"]).strip()
        number = _setting_value(s, raw) if raw else None
        if raw and number is None:
            bounds = f" from {s['min']} to {s['max']}" if "min" in s and "max" in s else ""
            problems.append(RuleViolation(
                f"{s['label']}: a whole number{bounds}, or empty",
                field=f"settings.{other_games.SCENARIO_SETTINGS}.{s['name']}", code="invalid",
            ))  # fmt: skip
        elif number is not None:
            numbers[s["name"]] = number
    if not spec:
        return problems
    points = {o["value"]: o["points"] for o in spec.get("aircraft", [])}
    quality_points = {o["value"]: o["points"] for o in spec.get("qualities", [])}
    for side in game.sides:
        total, chosen = 0, 0
        for i, (name, quality) in enumerate(_posted_slots(post, key, side)[: int(spec["slots"])]):
            if not name:
                continue
            chosen += 1
            where = f"flights.{side}[{i}]"
            if name not in points:
                problems.append(RuleViolation(
                    f"air unit {i + 1}: choose an aircraft from the list",
                    field=f"{where}.aircraft", code="invalid",
                ))  # fmt: skip
            quality = quality or spec["default_quality"]
            if quality not in quality_points:
                problems.append(RuleViolation(
                    f"air unit {i + 1}: a pilot's quality is one of {', '.join(quality_points)}",
                    field=f"{where}.quality", code="invalid",
                ))  # fmt: skip
            total += points.get(name, 0) + quality_points.get(quality, 0)
        if not chosen:
            problems.append(RuleViolation(
                f"the {side} flight has no air unit: choose at least one aircraft",
                field=f"flights.{side}", code="invalid",
            ))  # fmt: skip
        elif "budget" in numbers and total > numbers["budget"]:
            problems.append(RuleViolation(
                f"the {side} flight is worth {total} points, over the budget of "
                f"{numbers['budget']}", field=f"flights.{side}", rule=rule, code="invalid",
            ))  # fmt: skip
    return problems


def _slot_errors(errors: list[RuleViolation], side: str) -> tuple[dict[int, list], list]:
    """The errors about ``side``'s flight: those of one slot by its index (beside it), and
    the rest (beside the flight's heading)."""
    by_slot: dict[int, list[dict[str, Any]]] = {}
    rest: list[dict[str, Any]] = []
    for exc in errors:
        field = exc.field or ""
        if not re.match(rf"flights\.{side}\b", field):
            continue
        shown = plain(exc)
        m = re.match(rf"flights\.{side}\[(\d+)\]", field)
        target = by_slot.setdefault(int(m[1]), []) if m else rest
        if shown not in target:
            target.append(shown)
    return by_slot, rest


def _options(listed: list[dict[str, Any]], chosen: str) -> list[dict[str, Any]]:
    """A select's options, with a value posted that is not among them kept, chosen and
    said to be so (the page shows what was sent, beside its error)."""
    if not chosen or any(o["value"] == chosen for o in listed):
        return listed
    return [*listed, {"value": chosen, "label": f"{chosen} (not in the list)", "points": ""}]


def _form_context(
    post: Any, game: TacticalSystem, key: str, title: str, form: dict[str, Any],
    errors: list[RuleViolation],
) -> dict[str, Any]:  # fmt: skip
    """One scenario's form as the page draws it: each side's slots with what was chosen
    (kept even when not among the options) and the side's points (the aircraft's plus the
    quality's), and the settings; each error beside its slot, its flight or its setting,
    and those about the flights or settings as a whole at the form's top."""
    spec = form.get("flights") or {}
    points = {o["value"]: o["points"] for o in spec.get("aircraft", [])}
    quality_points = {o["value"]: o["points"] for o in spec.get("qualities", [])}
    sides = []
    for side in game.sides if spec else ():
        posted = _posted_slots(post, key, side)
        by_slot, rest = _slot_errors(errors, side)
        slots = []
        for i in range(int(spec["slots"])):
            name, quality = posted[i] if i < len(posted) else ("", "")
            quality = quality or spec["default_quality"]
            slots.append({
                "n": i + 1, "aircraft": name, "quality": quality,
                "aircraft_options": _options(spec.get("aircraft", []), name),
                "quality_options": _options(spec.get("qualities", []), quality),
                "errors": by_slot.get(i, []),
            })  # fmt: skip
        total = sum(points.get(s["aircraft"], 0) + quality_points.get(s["quality"], 0)
                    for s in slots if s["aircraft"] in points)  # fmt: skip
        aircraft_name, quality_name = _slot_names(key, side)
        sides.append({
            "side": side, "slots": slots, "points": total,
            "aircraft_name": aircraft_name, "quality_name": quality_name, "errors": rest,
        })  # fmt: skip
    prefix = f"settings.{other_games.SCENARIO_SETTINGS}"
    settings = [
        dict(s, input=_setting_name(key, s["name"]), value=_posted_setting(post, key, s["name"]),
             errors=[plain(e) for e in errors if e.field == f"{prefix}.{s['name']}"])
        for s in form.get("settings", [])
    ]  # fmt: skip
    named = {f"{prefix}.{s['name']}" for s in form.get("settings", [])}
    general = [  # about the flights or the settings as a whole: at the form's top
        plain(e) for e in errors
        if (e.field or "") == "flights"
        or ((e.field or "").startswith(prefix) and e.field not in named)
    ]  # fmt: skip
    legend = title.partition(":")[0]  # "Point-built flights: each side chooses ..." -> its name
    return {"key": key, "title": title, "legend": legend, "flights": spec, "sides": sides,
            "settings": settings, "errors": general}  # fmt: skip


def game_context(
    post: Any, game: TacticalSystem, errors: list[RuleViolation], *, games: list[dict[str, Any]], person: str
) -> dict[str, Any]:  # fmt: skip
    """The page's fields for ``game``, what was entered kept, each problem by its field."""
    post = post or {}
    by_field = errors_by_field(errors)
    scenarios = list(getattr(game, other_games.SCENARIOS).items())
    chosen = post.get("scenario", scenarios[0][0] if scenarios else "")
    cards = other_games.roster_cards(game)  # read once for every scenario's form
    return {
        "games": games,
        "system": game.name,
        "game": game,
        "scenarios": scenarios,
        "scenario": chosen,
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
            _form_context(post, game, key, title, form, errors if key == chosen else [])
            for key, title in scenarios
            if (form := other_games.scenario_form(game, key, cards)) is not None
        ],
        "chosen": {k: str(post.get(k, "")) for k in ("deadline_amount", "deadline_unit")},
        "deadline_units": list(DEADLINE_UNITS),
        "errors": by_field,
        "error_count": sum(map(len, by_field.values())),
    }

"""What an import checks and changes so a file creates only what its importer will own
(issue 23): the JSON columns read by the same code that reads live data, battles still to
be flown re-seeded, and the file's people and history kept as text.

Every refusal is an :class:`~angels.errors.RuleViolation` (the import's ``ImportRefused``)
naming the path of the value at fault, e.g. ``tables.campaign.campaign[0].state.turn``.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Callable
from typing import Any

from angels.errors import RuleViolation
from rules.cardgame import GameSetup, GameState, new_game
from rules.cardgame import action_from_json as card_action
from rules.dice import SEED_BITS, Dice
from rules.tactical import DEFAULT_SYSTEM, TacticalSystem, UnknownSystem, system_named

from ..models import ActionKind, Campaign, CampaignStatus
from ..recording import denormalise

# A JSON number beyond this is refused: PostgreSQL's jsonb keeps it, but JavaScript, the
# engines' 64-bit columns and the pages cannot.
JSON_INT_MAX = 2**63 - 1
FINISHED = "finished"
IN_PLAY = "in_play"
# Columns of a battle that a battle still to be flown starts again without.
_RESTART: dict[str, Any] = {
    "actions": [],
    "log": [],
    "result": None,
    "error": "",
    "attempts": 0,
    "started_at": None,
    "finished_at": None,
    "dispatched_at": None,
    "lease_token": "",
    "lease_expires_at": None,
    "progress_turn": 0,
    "applied_at": None,
    "apply_error": "",
    "decision_due": None,
    "handed": {},
    "notes": [],
}


def refuse(message: str, where: str, code: str = "format") -> RuleViolation:
    from .imports import ImportRefused  # one exception class for the whole import

    return ImportRefused(message, field=where, code=code)


def plain_json(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(value))


def first_difference(expected: Any, found: Any, path: str) -> str | None:
    """The path of the first place ``found`` differs from ``expected``, else None."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in [*expected, *(k for k in found if k not in expected)]:
            if key not in expected or key not in found:
                return f"{path}.{key}"
            inner = first_difference(expected[key], found[key], f"{path}.{key}")
            if inner:
                return inner
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for i, (a, b) in enumerate(zip(expected, found, strict=False)):
            inner = first_difference(a, b, f"{path}[{i}]")
            if inner:
                return inner
        return None if len(expected) == len(found) else f"{path}[{min(len(expected), len(found))}]"
    if type(expected) is not type(found) or expected != found:
        return path
    return None


def numbers_check(value: Any, where: str) -> None:
    """No number in a JSON value too large to keep (nor an infinite one, from ``1e400``)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if abs(value) > JSON_INT_MAX:
            raise refuse("is too large a number to keep", where, "range")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise refuse("is not a finite number", where, "range")
    elif isinstance(value, dict):
        for key, item in value.items():
            numbers_check(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            numbers_check(item, f"{where}[{i}]")


def usernames_check(users: list[Any], validator: Callable[[str], None], limit: int) -> list[str]:
    """The file's usernames, each one a username this server would accept (as text only:
    nobody is created or matched)."""
    from django.core.exceptions import ValidationError

    names = []
    for i, person in enumerate(users):
        where = f"users[{i}].username"
        name = person.get("username") if isinstance(person, dict) else None
        if not isinstance(name, str) or not name:
            raise refuse("a user needs a username", where)
        if len(name) > limit:
            raise refuse(f"a username has at most {limit} characters", where, "range")
        try:
            validator(name)
        except ValidationError as error:
            raise refuse(" ".join(error.messages), where, "invalid") from error
        for key in ("first_name", "last_name"):
            if not isinstance(person.get(key, ""), str):
                raise refuse("must be text", f"users[{i}].{key}")
        names.append(name)
    return names


# -- the campaign: its state is the replay of its setup, seed and actions --------------
def campaign_check(row: dict[str, Any], actions: list[dict[str, Any]], where: str) -> None:
    """The file's card game, replayed by the engine from its setup, seed and action
    record, must give the state the file says (and the columns the pages read from it):
    the state is then one the product itself made, whatever the file's author wrote."""
    from ..services import _apply_correction  # the correction an organiser records

    try:
        setup = GameSetup.from_json(row.get("setup"))  # type: ignore[arg-type]
        state = new_game(setup, Dice(row.get("seed")))  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise refuse(f"is not a card game's set-up ({error})", f"{where}.setup") from error
    if plain_json(setup.to_json()) != row.get("setup"):
        path = first_difference(plain_json(setup.to_json()), row.get("setup"), f"{where}.setup")
        raise refuse("is not a set-up the card game writes", path or f"{where}.setup")
    played = sorted(
        (
            (a["sequence"], i, a)
            for i, a in enumerate(actions)
            if isinstance(a.get("sequence"), int) and not a.get("undone")
        ),
        key=lambda t: t[0],
    )
    for _, i, action in played:
        at = f"tables.campaign.campaignaction[{i}].payload"
        try:
            if action.get("kind") == ActionKind.CORRECTION:
                _apply_correction(state, action["payload"])
            else:
                state.apply(card_action(action["payload"]))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise refuse(f"the card game refuses this action: {error}", at) from error
    replayed = plain_json(state.to_json())
    path = first_difference(replayed, row.get("state"), f"{where}.state")
    if path:
        raise refuse(
            "differs from the card game replayed from the file's set-up, seed and actions",
            path,
            "invalid",
        )
    _columns_check(GameState.from_json(replayed), row, where)
    _settings_check(row, where)


def _settings_check(row: dict[str, Any], where: str) -> None:
    """The organiser's settings, checked by the code that checks them when he sets them."""
    from .. import clock
    from ..game import game_checked
    from ..services import _check_engine_settings

    pace = {k: row[k] for k in clock.PACE_FIELDS if k in row}
    _, problems = clock.pace_problems(Campaign(), pace)
    try:
        if problems:
            raise problems[0]
        _check_engine_settings(row.get("engine_rules", {}), row.get("engine_territory", True))
        # issue 25: the game its engagements are flown under, one this server flies
        game_checked(row.get("tactical_system", "angels20"))
        missions = row.get("mission_systems") or {}
        if not isinstance(missions, dict):
            raise RuleViolation("maps a mission id to a game", field="mission_systems")
        for system in missions.values():
            game_checked(system, field="mission_systems")
    except RuleViolation as error:
        raise refuse(
            error.message, f"{where}.{error.field or 'engine_rules'}", "invalid"
        ) from error


def _columns_check(state: GameState, row: dict[str, Any], where: str) -> None:
    shown = Campaign(status=CampaignStatus.ACTIVE, winner="")
    denormalise(shown, state)
    for column in ("turn", "phase", "current_side", "status", "winner"):
        if column in row and row[column] != getattr(shown, column):
            raise refuse(
                f"must be {getattr(shown, column)!r}, as the campaign's state says",
                f"{where}.{column}",
                "invalid",
            )


# -- battles: records when finished, flown again from a fresh seed otherwise -----------
def battle_vet(row: dict[str, Any], where: str, people: set[str]) -> dict[str, Any]:
    """The battle row to store: a finished battle as the file has it (its seats naming
    nobody here), one still to be flown with a fresh secret seed and nothing flown yet.
    A battle still being flown by people is refused: its seats are the file's people,
    its dice the file's seed."""
    settings = row.get("settings", {})
    if not isinstance(settings, dict):
        raise refuse("must be a JSON object", f"{where}.settings")
    seats = settings.get("seats")
    status = row.get("status")
    person_flown = isinstance(seats, dict) and any(
        isinstance(s, dict) and "user" in s for s in seats.values()
    )
    if status == IN_PLAY or (person_flown and status != FINISHED):
        raise refuse(
            "a battle still being flown by people cannot be moved (its seats are people of "
            "another server and its dice the file's): let it finish, or hand its seats to the "
            "computer, before exporting",
            f"{where}.status",
            "state",
        )
    if isinstance(seats, dict):
        settings = {**settings, "seats": _seats_unnamed(seats, people, f"{where}.settings.seats")}
    out = {**row, "settings": settings}
    _setup_check(out, where)
    if status == FINISHED:
        _replay_check(out, where)
        return out
    out |= _RESTART
    out["seed"] = secrets.randbits(SEED_BITS)
    if status == "running":
        out["status"] = "pending"
    return out


def _seats_unnamed(seats: dict[str, Any], people: set[str], where: str) -> dict[str, Any]:
    """A finished battle's seats: the person who flew a side is one of the file's people,
    and is seated nowhere here (``{"user": null}``: "a former user" on its page)."""
    out = {}
    for side, seat in seats.items():
        if isinstance(seat, dict) and "user" in seat:
            if seat["user"] not in people:
                raise refuse(
                    f"a seat names user {seat['user']!r}, who is not in the file's users",
                    f"{where}.{side}.user",
                )
            seat = {**seat, "user": None}
        out[side] = seat
    return out


def _system(row: dict[str, Any], where: str) -> TacticalSystem:
    """The battle's tactical game (issue 25; a file from before it names none: Angels 20)."""
    try:
        return system_named(row.get("system", DEFAULT_SYSTEM))
    except UnknownSystem as error:
        raise refuse(str(error), f"{where}.system", "invalid") from error


def _setup_check(row: dict[str, Any], where: str) -> None:
    setup = row.get("setup")
    system = _system(row, where)
    try:
        written = system.scenario_json(setup)  # type: ignore[arg-type]
        system.new_battle(written, 0)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise refuse(f"is not a battle's set-up ({error})", f"{where}.setup") from error
    path = first_difference(plain_json(written), setup, f"{where}.setup")
    if path:
        raise refuse("is not a set-up the engine writes", path)


def _replay_check(row: dict[str, Any], where: str) -> None:
    """A finished battle is a record: its set-up flown from its seed through its actions
    by the engine (as its report and replay do) gives the log and result the file says."""
    actions = row.get("actions", [])
    if not isinstance(actions, list):
        raise refuse("must be a list of actions", f"{where}.actions")
    system = _system(row, where)
    try:
        state = system.new_battle(row["setup"], row.get("seed"))  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise refuse(f"cannot be flown ({error})", f"{where}.seed") from error
    for i, action in enumerate(actions):
        try:  # checked again, each by the rules (an action they refuse is named)
            state.apply(system.action_from_json(action))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise refuse(
                f"the engine refuses this action ({error})", f"{where}.actions[{i}]"
            ) from error
    for column, replayed in (("result", state.result()), ("log", state.log)):
        path = first_difference(plain_json(replayed), row.get(column), f"{where}.{column}")
        if path:
            raise refuse(
                "differs from the battle flown again from the file's set-up, seed and actions",
                path,
                "invalid",
            )


# -- the file's people and history, as text ---------------------------------------------
def member_words(row: dict[str, Any]) -> str:
    side = f" of the {str(row.get('side')).capitalize()} side" if row.get("side") else ""
    return f"{row.get('user')} ({row.get('role')}{side})"


def history_reason(row: dict[str, Any], importer: str, today: str, limit: int) -> str:
    """An imported history row's reason: who did what, when, as the file says, in words."""
    kinds = {"+": "created", "~": "changed", "-": "deleted"}
    what = kinds.get(str(row.get("history_type")), "changed")
    who = row.get("history_user") or "someone"
    when = str(row.get("history_date") or "")[:10] or "an unknown date"
    said = row.get("history_change_reason") or ""
    text = f"{what} by {who} on {when}, imported by {importer} on {today}"
    return (f"{text}: {said}" if said else text)[:limit]

"""The leaderboard's filters read from a query string, one reading for the aces page,
its CSV and the API (``GET /api/roster/aces/``): each bad value is a
:class:`RuleViolation` naming its parameter. The page lists them all and shows no rows
(rather than rows the user did not ask for), the CSV answers 400 with them, the API
400 with the first."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from angels.errors import RuleViolation
from angels.numbers import whole_number
from roster.models import AircraftType, PilotStatus, Side, Squadron

from .models import campaign_model
from .selectors import LEADERBOARD_STATUS

STATUSES = (*LEADERBOARD_STATUS, *PilotStatus.values)  # a group of statuses, or one
MAX_NAME = 100  # characters of a squadron name searched


def _one_of(field: str, choices: tuple[str, ...]) -> Callable[[str], str]:
    def read(value: str) -> str:
        if value not in choices:
            raise RuleViolation(f"{field} must be one of {', '.join(choices)}", field=field, code="invalid")  # fmt: skip
        return value

    return read


def _id_of(field: str, manager: Any, what: str) -> Callable[[str], Any]:
    def read(value: str) -> Any:
        pk = whole_number(value, field=field)
        row = manager.filter(pk=pk).first()
        if row is None:
            raise RuleViolation(f"no {what} with id {pk}", field=field, code="exists")
        return row

    return read


@dataclass(frozen=True)
class LeaderboardQuery:
    filters: dict[str, Any]  # the arguments of careers.selectors.leaderboard
    problems: list[RuleViolation]  # every bad value, in the order of the form's fields
    squadron: Squadron | None  # the squadron chosen by id, to name it


def leaderboard_filters(params: Mapping[str, str]) -> LeaderboardQuery:
    """The leaderboard's filters read from ``params``, and every bad value; a parameter
    left empty does not filter."""
    problems: list[RuleViolation] = []

    def read(name: str, parse: Callable[[str], Any]) -> Any:
        value = params.get(name, "")
        if value in ("", None):
            return None
        try:
            return parse(str(value))
        except RuleViolation as exc:
            problems.append(exc)
            return None

    filters: dict[str, Any] = {
        "campaign": read("campaign", _id_of("campaign", campaign_model()._default_manager, "campaign")),
        "side": read("side", _one_of("side", tuple(Side.values))),
        "nation": params.get("nation") or None,
    }  # fmt: skip
    squadron = read("squadron", _id_of("squadron", Squadron.objects.only("id", "name"), "squadron"))
    aircraft = read("aircraft_type", _id_of("aircraft_type", AircraftType.objects.only("id"), "aircraft type"))  # fmt: skip
    filters |= {
        "squadron_id": squadron.pk if squadron else None,
        "squadron_name": params.get("squadron_name", "")[:MAX_NAME] or None,
        "aircraft_type_id": aircraft.pk if aircraft else None,
        "status": read("status", _one_of("status", STATUSES)),
        "aces_only": read("aces", _one_of("aces", ("1", "true", "0", "false"))) in ("1", "true"),
    }  # fmt: skip
    return LeaderboardQuery(filters, problems, squadron)

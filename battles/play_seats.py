"""A person-flown battle's seats and time per decision (issue 14), and seating by consent
(issue 23): a person is seated in a battle only by taking the seat themselves or by
accepting the seat offered to them.

``settings["seats"]`` maps each side to ``{"user": id}`` (a person; ``"pilot"`` the computer
pilot standing in) or ``{"pilot": name}``. A seat offered to someone other than the
battle's creator carries ``"offered": true`` until that person accepts it
(:func:`seat_answer`); until every offered seat is answered the battle waits: nobody acts
and no decision's clock runs. A declined seat goes to its computer pilot.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from angels.errors import RuleViolation
from rules.tactical import DEFAULT_SYSTEM

from .models import Battle
from .rules_settings import SIDES


def _pilot_names(system: str) -> tuple[str, ...]:
    """The computer pilots of the battle's game (its system's ``pilots``)."""
    from rules.tactical import system_named  # (the registry loads the games on first use)

    return tuple(getattr(system_named(system), "pilots", ()))


def default_pilot(system: str) -> str:
    """The computer pilot standing in for a person who named none: Angels 20's tactical
    pilot, or another game's first."""
    names = _pilot_names(system)
    return "tactical" if "tactical" in names or not names else names[0]


# -- seats ---------------------------------------------------------------------------
def seats_clean(seats: Any, *, system: str = DEFAULT_SYSTEM) -> dict[str, dict[str, Any]]:
    """Check ``settings.seats`` and answer it with users by id; RuleViolation names the field.

    Each side is ``{"user": id or username}`` or ``{"pilot": "random" | "tactical"}``.
    """
    if not isinstance(seats, dict):
        raise RuleViolation(
            'seats maps each side to {"user": ...} or {"pilot": ...}',
            field="settings.seats",
            code="format",
        )
    for side in seats:
        if side not in SIDES:
            raise RuleViolation(
                f"unknown side {side!r}", field=f"settings.seats.{side}", code="invalid"
            )
    out: dict[str, dict[str, Any]] = {}
    users = get_user_model().objects
    for side in SIDES:
        field = f"settings.seats.{side}"
        seat = seats.get(side)
        if (
            not isinstance(seat, dict)
            or not {"user", "pilot"} & set(seat)
            or set(seat) - {"user", "pilot"}
        ):
            pilot = default_pilot(system)
            raise RuleViolation(
                f'give each side a seat: {{"user": id or username}} or {{"pilot": "{pilot}"}} '
                "(a person's seat may name the computer pilot standing in: "
                f'{{"user": ..., "pilot": "{pilot}"}})',
                field=field,
                code="required",
            )
        if "pilot" in seat and seat["pilot"] not in _pilot_names(system):
            raise RuleViolation(
                f"unknown computer pilot {seat['pilot']!r} (known: {', '.join(_pilot_names(system))})",
                field=f"{field}.pilot",
                code="invalid",
            )
        if "user" not in seat:
            out[side] = {"pilot": seat["pilot"]}
            continue
        ref = seat["user"]
        user = (
            users.filter(pk=ref, is_active=True).first()
            if isinstance(ref, int) and not isinstance(ref, bool)
            else users.filter(username=ref, is_active=True).first()
            if isinstance(ref, str)
            else None
        )
        if user is None:
            raise RuleViolation(f"unknown user {ref!r}", field=f"{field}.user", code="exists")
        out[side] = {"user": user.pk} | ({"pilot": seat["pilot"]} if "pilot" in seat else {})
    return out


# -- the time per decision -----------------------------------------------------------
DEADLINE_UNITS = {"seconds": 1, "minutes": 60, "hours": 3600}
DEADLINE_MAX = 14 * 24 * 3600  # a fortnight: longer, and a battle is abandoned, not slow


def deadline_clean(value: Any) -> dict[str, int]:
    """``settings.deadline``: ``{"seconds" | "minutes" | "hours": n}``, n a whole number, the
    time 1 s to 14 days; answered as ``{"seconds": total}``. RuleViolation names the field."""
    field = "settings.deadline"
    if not isinstance(value, dict) or len(value) != 1 or not set(value) <= set(DEADLINE_UNITS):
        raise RuleViolation(
            'the time per decision is {"seconds": n}, {"minutes": n} or {"hours": n}',
            field=field,
            code="format",
        )
    ((unit, amount),) = value.items()
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise RuleViolation(
            f"the time per decision is a whole number of {unit}, at least 1",
            field=f"{field}.{unit}",
            code="invalid",
        )
    seconds = amount * DEADLINE_UNITS[unit]
    if seconds > DEADLINE_MAX:
        raise RuleViolation(
            "the time per decision is at most 14 days", field=f"{field}.{unit}", code="invalid"
        )
    return {"seconds": seconds}


def deadline_seconds(battle: Battle) -> int | None:
    deadline = (battle.settings or {}).get("deadline")
    return deadline.get("seconds") if isinstance(deadline, dict) else None


def deadline_words(seconds: int) -> str:
    """90 → "1 min 30 s", 7200 → "2 h"."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    parts = [f"{h} h" if h else "", f"{m} min" if m else "", f"{s} s" if s else ""]
    return " ".join(p for p in parts if p) or "0 s"


def settings_with_seats(
    settings: dict[str, Any], *, system: str = DEFAULT_SYSTEM
) -> tuple[dict[str, Any], bool]:
    """(settings to store, flown by people?). Seats with no person are an ordinary battle:
    the computer seats become its ``policies`` and it is flown in the background.
    ``system``: the battle's game, whose computer pilots a seat may name."""
    if "seats" not in settings:
        if "deadline" in settings:
            raise RuleViolation(
                "a time per decision is for a battle flown by people: give the seats",
                field="settings.deadline",
                code="invalid",
            )
        return settings, False
    seats = seats_clean(settings["seats"], system=system)
    if any("user" in seat for seat in seats.values()):
        if "deadline" in settings:
            settings = {**settings, "deadline": deadline_clean(settings["deadline"])}
        return {**settings, "seats": seats}, True
    if "deadline" in settings:
        raise RuleViolation(
            "a time per decision is for a battle flown by people: no seat has a person",
            field="settings.deadline",
            code="invalid",
        )
    rest = {k: v for k, v in settings.items() if k != "seats"}
    return {**rest, "policies": {side: seat["pilot"] for side, seat in seats.items()}}, False


def seats_of(battle: Battle) -> dict[str, dict[str, Any]]:
    return dict((battle.settings or {}).get("seats") or {})


def is_person_flown(battle: Battle) -> bool:
    return any("user" in seat for seat in seats_of(battle).values())


def user_sides(battle: Battle, user: Any) -> list[str]:
    """The sides ``user`` flies in ``battle`` (both, if one person took both seats); a seat
    offered to them and not yet accepted is not one."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return [
        side
        for side, seat in seats_of(battle).items()
        if seat.get("user") == user.pk and not seat.get("offered")
    ]


# -- seating by consent (issue 23) ---------------------------------------------------
def seats_offer(settings: dict[str, Any], *, by: Any) -> dict[str, Any]:
    """The settings with each person's seat but ``by``'s own marked ``offered``: nobody is
    seated by someone else until they accept (:func:`battles.seat_offers.seat_answer`).
    ``by`` None is the product itself (the demo, a command), not a request: no offers."""
    if by is None:
        return settings
    me = getattr(by, "pk", None) if getattr(by, "is_authenticated", False) else None
    seats = {
        side: {**seat, "offered": True} if "user" in seat and seat["user"] != me else seat
        for side, seat in (settings.get("seats") or {}).items()
    }
    return {**settings, "seats": seats}


def offered_sides(battle: Battle, user: Any) -> list[str]:
    """The sides whose seat is offered to ``user`` and waits for their answer."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return [
        side
        for side, seat in seats_of(battle).items()
        if seat.get("user") == user.pk and seat.get("offered")
    ]


def waiting_for(battle: Battle) -> list[str]:
    """The sides whose offered seat is not answered yet: until none is, the battle waits
    (nobody acts, no decision's clock runs)."""
    return [side for side, seat in seats_of(battle).items() if seat.get("offered")]


def refuse_while_waiting(battle: Battle) -> None:
    """RuleViolation while a seat offered in ``battle`` waits for its answer."""
    sides = waiting_for(battle)
    if sides:
        names = seat_names(battle)
        who = ", ".join(f"{names[side]} ({side})" for side in sides)
        raise RuleViolation(
            f"the battle waits for {who} to accept the seat offered", field="status", code="state"
        )


def seat_names(battle: Battle) -> dict[str, str]:
    """Each side's seat in words: the user's name, or "computer pilot (tactical)"."""
    seats = seats_of(battle)
    ids = [seat["user"] for seat in seats.values() if "user" in seat]
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    return {
        side: names.get(seat["user"], "a former user")
        if "user" in seat
        else f"computer pilot ({seat.get('pilot')})"
        for side, seat in seats.items()
    }

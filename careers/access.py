"""Who may write careers, and to which pilots (issue 13, "nobody where they don't belong").

Career writes are open to staff and to the organiser of the campaign concerned
(:func:`can_write`). A write to a shared roster row -- adding a pilot to a
squadron another campaign (or none of theirs) plays with -- is staff's
(:func:`require_may_edit`, the campaign app's ``row_access.may_edit``). A write that names a campaign reaches only that campaign's
own pilots and squadrons, for everyone: which those are is the campaign app's
one definition (``campaign.access.campaign_pilots``), asked through
``careers.hooks``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from angels.errors import RuleViolation

from .hooks import (
    is_campaign_organiser,
    may_write_row,
    pilots_outside_campaign,
    squadron_in_campaign,
)
from .records import EngagementRecord


def can_write(user: Any, campaign: Any = None) -> bool:
    """Career writes: staff, or the organiser of the campaign concerned."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if campaign is None:
        return False
    return is_campaign_organiser(campaign, user)


def engagement_pilot_fields(record: EngagementRecord) -> dict[int, str]:
    """Every pilot an engagement record touches, with the first field naming him."""
    fields: dict[int, str] = {}
    for i, flown in enumerate(record.flown):
        fields.setdefault(flown.pilot_id, f"flown[{i}].pilot_id")
    for i, kill in enumerate(record.kills):
        fields.setdefault(kill.shooter_pilot_id, f"kills[{i}].shooter_pilot_id")
        if kill.victim_pilot_id is not None:
            fields.setdefault(kill.victim_pilot_id, f"kills[{i}].victim_pilot_id")
    return fields


def _add(fields: dict[int, str], value: Any, field: str) -> None:
    # ids that are not whole numbers are left to the service, which names them as format errors
    if isinstance(value, int) and not isinstance(value, bool):
        fields.setdefault(value, field)


def table_pilot_fields(data: Mapping[str, Any]) -> dict[int, str]:
    """Every pilot a table battle's input names (flights, kills and their attacks, damages, probables)."""
    fields: dict[int, str] = {}
    for i, flight in enumerate(data.get("flights") or []):
        _add(fields, flight.get("pilot_id"), f"flights[{i}].pilot_id")
    for i, kill in enumerate(data.get("kills") or []):
        _add(fields, kill.get("victim_pilot_id"), f"kills[{i}].victim_pilot_id")
        for j, attack in enumerate(kill.get("attacks") or []):
            if isinstance(attack, list | tuple) and attack:
                _add(fields, attack[0], f"kills[{i}].attacks[{j}][0]")
    for name in ("damages", "probables"):
        for i, row in enumerate(data.get(name) or []):
            _add(fields, row.get("pilot_id"), f"{name}[{i}].pilot_id")
            _add(fields, row.get("victim_pilot_id"), f"{name}[{i}].victim_pilot_id")
    return fields


def require_campaign_pilots(campaign: Any, pilot_fields: Mapping[int, str]) -> None:
    """Refuse (403, code ``permission``, naming the field) a pilot who is not the campaign's own.

    Pilots that do not exist are left to the service (404-like ``exists`` errors).
    """
    if campaign is None:
        return
    from roster.models import Pilot

    outside = pilots_outside_campaign(campaign, pilot_fields)
    outside &= set(Pilot.objects.filter(pk__in=outside).values_list("pk", flat=True))
    if outside:
        pid = next(p for p in pilot_fields if p in outside)  # the first named
        raise RuleViolation(
            f"pilot {pid} does not serve in {campaign}", field=pilot_fields[pid], code="permission"
        )


def require_campaign_squadron(campaign: Any, squadron: Any, *, field: str = "squadron") -> None:
    """Refuse (403) a squadron that is not one of the campaign's own."""
    if campaign is not None and not squadron_in_campaign(campaign, squadron):
        raise RuleViolation(
            f"{squadron} is not one of {campaign}'s squadrons", field=field, code="permission"
        )


def require_may_edit(user: Any, row: Any, *, field: str) -> None:
    """Refuse (403, naming ``field``) a write to a roster row the user may not write:
    a shared row (``campaign.row_access``) is staff's."""
    if not may_write_row(user, row):
        raise RuleViolation(
            f"{row} is shared with other campaigns (or with none of yours): only staff change it",
            field=field,
            code="permission",
        )


def may_rename(user: Any, pilot: Any) -> bool:
    """Renaming a pilot (issue 24): staff rename anyone; an organiser a pilot drafted
    as a replacement for a campaign they organise (a library pilot is staff's)."""
    from .models import PilotEvent, PilotEventKind

    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return may_write_row(user, pilot) and (
        PilotEvent.objects.filter(
            pilot=pilot,
            kind=PilotEventKind.JOINED,
            details__replacement=True,
            campaign_id=pilot.enrolled_in_id,
        ).exists()
    )

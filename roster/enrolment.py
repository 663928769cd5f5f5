"""Where a pilot may fly: one campaign at a time (issue 12 "One truth per pilot").

A pilot enrolled in a campaign (``Pilot.enrolled_in``) serves there and nowhere
else until the campaign ends and releases him to the free roster; a wounded,
captured, killed, missing or retired pilot flies nowhere until he returns.
These checks are the one place every picker asks (a campaign's planes, a
standalone battle, a table battle). The writes (enrol, release) are
``campaign.enrolment``'s; this module reads the roster only.
"""

from __future__ import annotations

from angels.errors import RuleViolation

from .models import Pilot, PilotStatus


def _campaign_name(pilot: Pilot) -> str:
    campaign = pilot.enrolled_in
    return f"campaign {campaign.name!r}" if campaign is not None else "a campaign"


def pilot_unavailable_reason(pilot: Pilot, *, campaign_id: int | None = None) -> str | None:
    """Why ``pilot`` may not fly in ``campaign_id`` (``None``: standalone), or ``None`` if he may.

    A pilot on duty in a campaign flies only in it; a pilot out of action
    (wounded, captured, killed, missing, retired) flies nowhere, and a wounded
    pilot's message names the turn and campaign he returns on.
    """
    if pilot.status == PilotStatus.WOUNDED:
        where = f" of {_campaign_name(pilot)}" if pilot.enrolled_in_id else ""
        return f"{pilot} is wounded: returns on turn {pilot.wounded_until_turn}{where}"
    if pilot.status != PilotStatus.ACTIVE:
        return f"{pilot} is {pilot.status}, not on duty"
    if pilot.enrolled_in_id is not None and pilot.enrolled_in_id != campaign_id:
        return f"{pilot} serves in {_campaign_name(pilot)} until it ends"
    return None


def pilot_require_available(
    pilot: Pilot, *, campaign_id: int | None = None, field: str | None = None
) -> None:
    """Raise a 400 (code ``state``) naming the pilot and where he serves, if he may not fly."""
    reason = pilot_unavailable_reason(pilot, campaign_id=campaign_id)
    if reason is not None:
        raise RuleViolation(reason, field=field, code="state")


def pilot_enrolment_refusal(pilot: Pilot, *, campaign_id: int) -> str | None:
    """Why ``pilot`` may not be enrolled in ``campaign_id``, or ``None``.

    A pilot already serving in another campaign is refused; a killed, captured,
    missing or retired pilot too (he flies nowhere). A wounded pilot of the free
    roster (wounded in a standalone battle) may be enrolled: he serves once he
    returns.
    """
    if pilot.enrolled_in_id is not None and pilot.enrolled_in_id != campaign_id:
        return f"{pilot} serves in {_campaign_name(pilot)} until it ends"
    if pilot.status not in (PilotStatus.ACTIVE, PilotStatus.WOUNDED):
        return f"{pilot} is {pilot.status}, not on duty"
    return None

"""Hooks the apps above careers fill in, so careers never imports them.

``campaign`` sits above ``careers`` (``rules <- roster <- careers <- campaign``);
who organises a campaign, and which pilots and squadrons are a campaign's own,
is its business. Its ``AppConfig.ready()`` appends its checks here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

# (campaign, user) -> is this user an organiser of this campaign?
ORGANISER_CHECKS: list[Callable[[Any, Any], bool]] = []

# (user) -> queryset of the campaigns this user organises (campaign.access.organised_campaigns).
ORGANISED_CAMPAIGNS: list[Callable[[Any], Any]] = []

# (campaign) -> queryset of roster.Pilot: the campaign's own pilots (campaign.access.campaign_pilots).
CAMPAIGN_PILOTS: list[Callable[[Any], Any]] = []

# (campaign) -> queryset of roster.Squadron: the campaign's own squadrons.
CAMPAIGN_SQUADRONS: list[Callable[[Any], Any]] = []

# (campaign) -> {squadron id: pilots its planes in play lack} or None when the campaign
# flies no plane cards (campaign.plane_needs.squadron_pilot_needs): what replacements fill.
CAMPAIGN_PILOT_NEEDS: list[Callable[[Any], dict[int, int] | None]] = []

# (user, row) -> may this user write this roster row (campaign.row_access.may_edit)?
ROW_WRITE_CHECKS: list[Callable[[Any, Any], bool]] = []


def is_campaign_organiser(campaign: Any, user: Any) -> bool:
    """True if any registered check says the user organises the campaign."""
    return any(check(campaign, user) for check in ORGANISER_CHECKS)


def campaigns_organised_by(user: Any) -> Any:
    """The campaigns ``user`` organises (the first registered answer), or None if no
    app answers (then a user organises none)."""
    return ORGANISED_CAMPAIGNS[0](user) if ORGANISED_CAMPAIGNS else None


def may_write_row(user: Any, row: Any) -> bool:
    """Staff write every row; anyone else only when every registered check agrees
    (closed by default: with no check registered, only staff)."""
    if getattr(user, "is_staff", False) or getattr(user, "is_superuser", False):
        return True
    return bool(ROW_WRITE_CHECKS) and all(check(user, row) for check in ROW_WRITE_CHECKS)


def pilots_outside_campaign(campaign: Any, pilot_ids: Iterable[int]) -> set[int]:
    """The ids of ``pilot_ids`` that are not the campaign's own pilots.

    A pilot is the campaign's own when every registered scope holds him; with
    no scope registered none is (closed by default). One query per scope.
    """
    ids = set(pilot_ids)
    if not ids:
        return set()
    inside = set(ids) if CAMPAIGN_PILOTS else set()
    for scope in CAMPAIGN_PILOTS:
        inside &= set(scope(campaign).filter(pk__in=ids).values_list("pk", flat=True))
    return ids - inside


def squadron_in_campaign(campaign: Any, squadron: Any) -> bool:
    """Is ``squadron`` one of the campaign's own (every registered scope holds it)?"""
    return bool(CAMPAIGN_SQUADRONS) and all(
        scope(campaign).filter(pk=squadron.pk).exists() for scope in CAMPAIGN_SQUADRONS
    )


def campaign_pilot_needs(campaign: Any) -> dict[int, int] | None:
    """How many pilots each of the campaign's squadrons lacks for its planes (the first
    registered answer), or None when no app answers or the campaign flies no planes."""
    return CAMPAIGN_PILOT_NEEDS[0](campaign) if CAMPAIGN_PILOT_NEEDS else None

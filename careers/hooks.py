"""What careers asks the campaign app, which sits above it (``rules <- roster <-
careers <- campaign``): who organises a campaign, which pilots and squadrons are a
campaign's own, what its planes lack. The answers come through the one typed
extension point ``roster.campaign_hooks`` (set by ``CampaignConfig.ready()``), so
careers never imports campaign; with no answer installed every one is closed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from roster.campaign_hooks import current


def is_campaign_organiser(campaign: Any, user: Any) -> bool:
    """True if the campaign app says the user organises the campaign."""
    return current().is_organiser(campaign, user)


def campaigns_organised_by(user: Any) -> Any:
    """The campaigns ``user`` organises, or None if no app answers (then a user
    organises none)."""
    return current().organised_campaigns(user)


def may_write_row(user: Any, row: Any) -> bool:
    """Staff write every row; anyone else only when the campaign app's check agrees
    (closed by default: with no check installed, only staff)."""
    if getattr(user, "is_staff", False) or getattr(user, "is_superuser", False):
        return True
    check = current().may_edit_row
    return check is not None and bool(check(user, row))


def pilots_outside_campaign(campaign: Any, pilot_ids: Iterable[int]) -> set[int]:
    """The ids of ``pilot_ids`` that are not the campaign's own pilots.

    A pilot is the campaign's own when the campaign app's scope holds him; with
    no scope installed none is (closed by default). One query.
    """
    ids = set(pilot_ids)
    scope = current().campaign_pilots
    if not ids or scope is None:
        return ids
    return ids - set(scope(campaign).filter(pk__in=ids).values_list("pk", flat=True))


def squadron_in_campaign(campaign: Any, squadron: Any) -> bool:
    """Is ``squadron`` one of the campaign's own (the campaign app's scope holds it)?"""
    scope = current().campaign_squadrons
    return scope is not None and scope(campaign).filter(pk=squadron.pk).exists()


def campaign_pilot_needs(campaign: Any) -> dict[int, int] | None:
    """How many pilots each of the campaign's squadrons lacks for its planes, or None
    when no app answers or the campaign flies no planes."""
    return current().pilot_needs(campaign)

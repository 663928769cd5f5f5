"""Who may see an object's history (issue 16) and who may revert it (issue 23).

Seeing: staff, or the organiser concerned. A campaign, its career settings and
award definitions: that campaign's organiser. A pilot: the organiser of a
campaign he belongs to (``campaign.access.campaign_pilots``); a squadron: of a
campaign it plays in; an airframe: of its squadron's campaigns; an aircraft
type (the shared catalog): any campaign's organiser.

Reverting is writing: :func:`may_revert` is the edit rule of
``campaign.row_access`` (a shared row -- a library squadron, a pilot not
enrolled in the user's campaign, the catalog -- is staff's), so seeing a
row's history does not let an organiser rewrite it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model

from careers.models import AwardDefinition, CareerSettings
from roster.models import AircraftType, Airframe, Pilot, Squadron

from .access import campaign_pilots
from .models import Campaign, CampaignMember, Role
from .row_access import may_edit


def _organised(user: Any) -> list[Campaign]:
    ids = CampaignMember.objects.filter(user=user, role=Role.ORGANISER).values("campaign_id")
    return list(Campaign.objects.filter(pk__in=ids))


def may_see_history(user: Any, obj: Model) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or user.is_superuser:
        return True
    campaigns = _organised(user)
    if isinstance(obj, Campaign):
        return obj in campaigns
    if isinstance(obj, CareerSettings | AwardDefinition):
        return obj.campaign_id in {c.pk for c in campaigns}
    if isinstance(obj, Pilot):
        return any(campaign_pilots(c).filter(pk=obj.pk).exists() for c in campaigns)
    if isinstance(obj, Squadron):
        return any(c.squadrons.filter(pk=obj.pk).exists() for c in campaigns)
    if isinstance(obj, Airframe):
        squadron_id = obj.squadron_id
        return squadron_id is not None and any(
            c.squadrons.filter(pk=squadron_id).exists() for c in campaigns
        )
    if isinstance(obj, AircraftType):
        return bool(campaigns)
    return False


def may_revert(user: Any, obj: Model) -> bool:
    """A revert is an edit: the same rule as every other write of the row."""
    return may_see_history(user, obj) and may_edit(user, obj)

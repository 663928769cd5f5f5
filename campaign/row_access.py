"""Who may write a row (issue 23, "shared rows are staff's"): one rule per kind of row.

Staff (and superusers) write every row. An organiser writes only what their
campaigns own; a row more than one campaign plays with, or none does, is
shared, and shared rows are staff's:

- a campaign, its career settings and its award definitions: its organiser;
- a squadron: only when every campaign it plays in (``Campaign.squadrons``) is
  one the user organises, and it plays in at least one (a library squadron,
  in no campaign or in another organiser's too, is staff's);
- a pilot: only when he is enrolled in (``Pilot.enrolled_in``) a campaign the
  user organises (a pilot of the free roster, or serving elsewhere, is staff's);
- an airframe: as its squadron, or, with no squadron, as its pilot;
- an aircraft type (the shared catalog): staff only.

Every write path on these rows open to non-staff asks :func:`may_edit`: the
history page's revert (``campaign.history_access.may_revert``), adding a
pilot to a squadron (``careers.access.require_may_edit``, through
``roster.campaign_hooks``' ``may_edit_row``). Until campaigns own their squadrons
(a later issue), "owned" means "played with by the user's campaigns only".
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model

from careers.models import AwardDefinition, CareerSettings
from roster.models import AircraftType, Airframe, Pilot, Squadron

from .access import organised_campaigns
from .models import Campaign


def _is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def _organised_ids(user: Any) -> set[int]:
    return set(organised_campaigns(user).values_list("pk", flat=True))


def may_edit_squadron(user: Any, squadron: Squadron) -> bool:
    """Every campaign the squadron plays in is the user's, and it plays in one at least."""
    if _is_staff(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    playing = set(squadron.campaigns.values_list("pk", flat=True))
    return bool(playing) and playing <= _organised_ids(user)


def may_edit_pilot(user: Any, pilot: Pilot) -> bool:
    """He is enrolled in a campaign the user organises."""
    if _is_staff(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return pilot.enrolled_in_id is not None and pilot.enrolled_in_id in _organised_ids(user)


def may_edit(user: Any, obj: Model) -> bool:
    """May ``user`` write ``obj`` (edit it, revert it, add to it)? See the module's rules."""
    if _is_staff(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if isinstance(obj, Campaign):
        return obj.pk in _organised_ids(user)
    if isinstance(obj, CareerSettings | AwardDefinition):
        return obj.campaign_id in _organised_ids(user)
    if isinstance(obj, Squadron):
        return may_edit_squadron(user, obj)
    if isinstance(obj, Pilot):
        return may_edit_pilot(user, obj)
    if isinstance(obj, Airframe):
        if obj.squadron is not None:
            return may_edit_squadron(user, obj.squadron)
        return obj.pilot is not None and may_edit_pilot(user, obj.pilot)
    if isinstance(obj, AircraftType):
        return False  # the catalog is shared by every campaign: staff's
    return False

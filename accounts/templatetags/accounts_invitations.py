"""The campaign page's invitations block (its organiser only): campaign cannot import
accounts, so its page includes templates/campaign/_invitations.html, which calls this."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth import get_user_model

from campaign import services as campaign_services

from ..models import InvitationStatus
from ..services import campaign_invitations

register = template.Library()


def _people_to_invite(campaign: Any) -> list[dict[str, Any]]:
    """An imported file's members still to invite (campaign.PersonToInvite), less those who
    are members now or invited by username (their answer pending); ``here``: this server
    has a user of that name (who may or may not be the same person: the page says so, the
    organiser decides)."""
    people = list(campaign.people_to_invite.all())
    names = [p.username for p in people]
    User = get_user_model()
    here = set(
        User.objects.filter(**{f"{User.USERNAME_FIELD}__in": names}).values_list(
            User.USERNAME_FIELD, flat=True
        )
    )
    members = set(campaign.members.values_list(f"user__{User.USERNAME_FIELD}", flat=True))
    # invited by username (issue 23): their invitation waits for their answer
    members |= {
        getattr(i.addressee, User.USERNAME_FIELD)
        for i in campaign.invitations.filter(addressee__isnull=False).select_related("addressee")
        if i.status == InvitationStatus.PENDING
    }
    return [{"person": p, "here": p.username in here} for p in people if p.username not in members]


@register.inclusion_tag("accounts/_campaign_block.html", takes_context=True)
def campaign_invitations_block(context: Any, campaign: Any) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if campaign is None or not campaign_services.is_organiser(campaign, user):
        return {"show": False}
    invitations = campaign_invitations(campaign)
    counts = {s.value: 0 for s in InvitationStatus}
    for invitation in invitations:
        counts[invitation.status] += 1
    return {
        "show": True,
        "campaign": campaign,
        "pending": [i for i in invitations if i.status == InvitationStatus.PENDING],
        "counts": counts,
        "people": _people_to_invite(campaign),
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }

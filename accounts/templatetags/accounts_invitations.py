"""The campaign page's invitations block (its organiser only): campaign cannot import
accounts, so its page includes templates/campaign/_invitations.html, which calls this."""

from __future__ import annotations

from typing import Any

from django import template

from campaign import services as campaign_services

from ..models import InvitationStatus
from ..services import campaign_invitations

register = template.Library()


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
        # an imported file's members, for the organiser to invite (campaign.PersonToInvite)
        "people": list(campaign.people_to_invite.all()),
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }

"""Invitations to a known user (issue 23, "consent for commanders"): nobody becomes a
campaign's commander or spectator except by accepting.

The organiser's "invite" form on the campaign page and ``POST /api/campaigns/<id>/members/``
offer a part to a user by username: an :class:`~accounts.models.Invitation` row with that
user as ``addressee`` (no link is shown or mailed: the user answers on their invitations
page, ``/accounts/invitations/``, or with ``POST /api/invitations/<id>/answer/``).
Accepting makes them a member with the part offered (``campaign.services.campaign_member_set``,
the trusted write); declining removes the offer.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from angels.errors import RuleViolation
from campaign import services as campaign_services
from campaign.models import Campaign, CampaignMember, Role

from .models import Invitation, InvitationStatus, token_hash

SIDES = campaign_services.SIDES


def _part_check(campaign: Campaign, user: Any, role: str, side: str) -> str:
    """The side offered (none but a commander's), or a RuleViolation naming the field."""
    if role not in Role.values:
        raise RuleViolation(f"{role!r} is not one of {Role.values}", field="role", code="invalid")
    if role != Role.COMMANDER:
        return ""
    if side not in SIDES:
        raise RuleViolation(
            "a commander commands the allied or the axis side", field="side", code="invalid"
        )
    taken = CampaignMember.objects.filter(campaign=campaign, role=Role.COMMANDER, side=side)
    if taken.exclude(user=user).exists():
        raise RuleViolation(
            f"the {side} side already has a commander", field="side", code="conflict"
        )
    return side


def invitation_offer(
    *, campaign: Campaign, by: Any, user: Any, role: str, side: str = ""
) -> Invitation:
    """The organiser offers ``user`` a part; it waits for their answer (a pending invitation)."""
    if not campaign_services.is_organiser(campaign, by):
        raise RuleViolation(
            "only the campaign's organiser may invite", field="campaign", code="permission"
        )
    side = _part_check(campaign, user, role, side)
    member = campaign_services.membership(campaign, user)
    if member is not None and (member.role, member.side) == (role, side):
        raise RuleViolation(
            f"{user.username} is {role} {side} already".strip(), field="username", code="conflict"
        )
    pending = Invitation.objects.filter(
        campaign=campaign, addressee=user, accepted_at__isnull=True, revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    )  # fmt: skip
    if pending.exists():
        raise RuleViolation(
            f"{user.username} has an invitation to this campaign waiting for an answer",
            field="username",
            code="conflict",
        )
    return Invitation.objects.create(
        campaign=campaign,
        role=role,
        side=side,
        addressee=user,
        token_hash=token_hash(secrets.token_urlsafe(24)),  # never shown: answered by name
        created_by=by,
        expires_at=timezone.now() + timedelta(days=settings.ANGELS_INVITATION_DAYS),
    )


def invitations_waiting(user: Any) -> QuerySet[Invitation]:
    """The invitations addressed to ``user`` that wait for an answer, oldest first."""
    if not getattr(user, "is_authenticated", False):
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(
            addressee=user,
            accepted_at__isnull=True,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        )  # fmt: skip
        .select_related("campaign", "created_by")
        .order_by("created_at", "pk")
    )


def invitation_answer(*, invitation_id: int, user: Any, accept: Any) -> CampaignMember | None:
    """``user`` accepts (the member row made) or declines (the offer removed) an invitation
    addressed to them."""
    if not isinstance(accept, bool):
        raise RuleViolation("accept is true or false", field="accept", code="format")
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .filter(pk=invitation_id, addressee=user)
            .select_related("campaign", "created_by")
            .first()
        )
        if invitation is None:
            raise RuleViolation(
                "no invitation to you with that id", field="invitation", code="exists"
            )
        if invitation.status != InvitationStatus.PENDING:
            raise RuleViolation(
                f"this invitation is {invitation.status_label}", field="invitation", code="state"
            )
        if not accept:
            invitation.delete()
            return None
        member = campaign_services.campaign_member_set(
            campaign=invitation.campaign,
            by=invitation.created_by,
            user=user,
            role=invitation.role,
            side=invitation.side,
        )
        invitation.accepted_by = user
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_by", "accepted_at"])
    return member

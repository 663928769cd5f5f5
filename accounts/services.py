"""Accounts writes: invitations to a campaign (make, mail, accept, revoke) and user settings."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.core.mail import BadHeaderError, EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from angels.errors import RuleViolation
from campaign import services as campaign_services
from campaign.models import Campaign, CampaignMember, Role

from . import identity
from .models import Invitation, InvitationStatus, UserSettings, token_hash

SIDES = campaign_services.SIDES
# Why a link no longer works, in plain words (the page and the API say the same).
REFUSALS = {
    InvitationStatus.EXPIRED: "This invitation has expired.",
    InvitationStatus.ACCEPTED: "This invitation has already been used.",
    InvitationStatus.REVOKED: "This invitation was withdrawn by the organiser.",
}
ASK_AGAIN = "Ask the campaign's organiser for a new link."


# -- user settings ----------------------------------------------------------------
def user_settings(user: Any) -> UserSettings:
    """The user's settings row, made the first time it is asked for."""
    row, _ = UserSettings.objects.get_or_create(user=user)
    return row


def time_zone_check(name: str, *, field: str = "time_zone") -> str:
    """``name`` if it is an IANA time zone name this system knows (zoneinfo)."""
    name = (name or "").strip()
    if not name:
        raise RuleViolation("choose a time zone", field=field, code="required")
    if name not in available_timezones():
        raise RuleViolation(
            f"{name!r} is not a time zone name (such as Europe/London or America/New_York)",
            field=field,
            code="invalid",
        )
    ZoneInfo(name)
    return name


def user_settings_save(*, user: Any, time_zone: str, email: str) -> UserSettings:
    """The user's time zone and e-mail address, checked; nothing stored if either is wrong."""
    time_zone = time_zone_check(time_zone)
    email = email_check(email, required=False)
    if email.casefold() != (user.email or "").casefold() and identity.email_in_use(
        email, exclude_pk=user.pk
    ):  # one account per address, whatever its case: a reset mails one account's link
        raise RuleViolation(
            "another account has this e-mail address", field="email", code="conflict"
        )
    row = user_settings(user)
    row.time_zone = time_zone
    row.save(update_fields=["time_zone"])
    if user.email != email:
        user.email = email
        user.save(update_fields=["email"])
    return row


def email_max_length() -> int:
    """The longest e-mail address stored: the user's column (sign-up checks it) and the
    invitation's (254 both)."""
    fields = (get_user_model()._meta.get_field("email"), Invitation._meta.get_field("email"))
    return min(getattr(f, "max_length", None) or 254 for f in fields)


def email_check(email: str, *, field: str = "email", required: bool = True) -> str:
    email = (email or "").strip()
    if not email:
        if required:
            raise RuleViolation("an e-mail address is needed", field=field, code="required")
        return ""
    limit = email_max_length()
    if len(email) > limit:  # sign-up's limit (the user's column); PostgreSQL stores no more
        raise RuleViolation(
            f"an e-mail address is at most {limit} characters (this one has {len(email)})",
            field=field,
            code="range",
        )
    try:
        validate_email(email)
    except ValidationError:
        raise RuleViolation(f"{email!r} is not an e-mail address", field=field) from None
    return email


# -- invitations ---------------------------------------------------------------------
def invitation_path(token: str) -> str:
    return reverse("accounts:invitation", args=[token])


def invitation_create(
    *,
    campaign: Campaign,
    by: Any,
    role: str = Role.COMMANDER,
    side: str = "",
    email: str = "",
    base_url: str = "",
    days: int | None = None,
) -> tuple[Invitation, str]:
    """The organiser offers a part in the campaign; returns the invitation and its link.

    The link is shown once (only its token's hash is kept). With an e-mail
    address the link is also mailed, after the transaction commits, by a
    Celery task (accounts.send_invitation): the request never waits on SMTP.
    """
    if not campaign_services.is_organiser(campaign, by):
        raise RuleViolation(
            "only the campaign's organiser may invite", field="campaign", code="permission"
        )
    if role not in (Role.COMMANDER, Role.SPECTATOR):
        raise RuleViolation("an invitation offers the part of commander or spectator", field="role")
    if role == Role.COMMANDER:
        if side not in SIDES:
            raise RuleViolation("a commander commands the allied or the axis side", field="side")
        if CampaignMember.objects.filter(
            campaign=campaign, role=Role.COMMANDER, side=side
        ).exists():
            raise RuleViolation(
                f"the {side} side already has a commander", field="side", code="conflict"
            )
    else:
        side = ""
    email = email_check(email, required=False)
    days = settings.ANGELS_INVITATION_DAYS if days is None else days
    if not 1 <= days <= 90:
        raise RuleViolation("a link works for 1 to 90 days", field="days", code="range")
    token = secrets.token_urlsafe(24)
    invitation = Invitation(
        campaign=campaign,
        role=role,
        side=side,
        email=email,
        token_hash=token_hash(token),
        created_by=by,
        expires_at=timezone.now() + timedelta(days=days),
    )
    link = base_url.rstrip("/") + invitation_path(token)
    if email:  # the mail is built before anything is stored: one that cannot be is a refusal
        invitation_mail_check(invitation, link)
    invitation.save()
    if email:
        from .tasks import send_invitation

        transaction.on_commit(lambda: send_invitation.delay(invitation.pk, link))
    return invitation, link


def invitation_by_token(token: str) -> Invitation | None:
    return (
        Invitation.objects.select_related("campaign", "created_by", "accepted_by")
        .filter(token_hash=token_hash(token or ""))
        .first()
    )


def invitation_refusal(invitation: Invitation | None) -> str | None:
    """Why the link cannot be used, in plain words; None when it can."""
    if invitation is None:
        return "This invitation link is not known here: it may have been copied incompletely."
    reason = REFUSALS.get(InvitationStatus(invitation.status))
    return f"{reason} {ASK_AGAIN}" if reason else None


def invitation_accept(*, token: str, user: AbstractBaseUser | AnonymousUser) -> CampaignMember:
    """The signed-in ``user`` takes the part offered: once, before it expires, unless revoked."""
    if not user.is_authenticated:
        raise RuleViolation("sign in to accept an invitation", code="permission")
    with transaction.atomic():
        found = invitation_by_token(token)
        invitation = (
            Invitation.objects.select_for_update().filter(pk=found.pk).first() if found else None
        )
        refusal = invitation_refusal(invitation)
        if refusal or invitation is None:
            raise RuleViolation(refusal or "", field="token", code="state")
        campaign = invitation.campaign
        current = campaign_services.membership(campaign, user)  # type: ignore[arg-type]
        if current is not None and current.role == Role.ORGANISER:
            raise RuleViolation(
                "you organise this campaign already; the invitation is for someone else",
                field="token",
                code="permission",
            )
        try:
            member = campaign_services.campaign_member_set(
                campaign=campaign,
                by=invitation.created_by,
                user=user,  # type: ignore[arg-type]
                role=invitation.role,
                side=invitation.side,
            )
        except RuleViolation as exc:
            if exc.code == "permission":  # the one who invited no longer organises it
                raise RuleViolation(
                    f"the organiser who invited you no longer runs this campaign. {ASK_AGAIN}",
                    field="token",
                    code="state",
                ) from exc
            raise RuleViolation(
                f"{exc.message}. {ASK_AGAIN}", field="token", code=exc.code
            ) from exc
        invitation.accepted_by = user  # type: ignore[assignment]
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_by", "accepted_at"])
    return member


def invitation_revoke(
    *, invitation_id: int, by: Any, campaign: Campaign | None = None
) -> Invitation:
    """The organiser withdraws a link that has not been used yet."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update().select_related("campaign")
            .filter(pk=invitation_id).first()
        )  # fmt: skip
        if invitation is None or (campaign is not None and invitation.campaign_id != campaign.pk):
            raise RuleViolation("no such invitation", field="invitation", code="exists")
        if not campaign_services.is_organiser(invitation.campaign, by):
            raise RuleViolation(
                "only the campaign's organiser may withdraw an invitation",
                field="invitation",
                code="permission",
            )
        if invitation.accepted_at is not None:
            raise RuleViolation(
                "this invitation was accepted already; change the member's part instead",
                field="invitation",
                code="state",
            )
        if invitation.revoked_at is None:
            invitation.revoked_at = timezone.now()
            invitation.save(update_fields=["revoked_at"])
    return invitation


def campaign_invitations(campaign: Campaign) -> list[Invitation]:
    return list(
        Invitation.objects.filter(campaign=campaign).select_related("accepted_by", "created_by")
    )


def invitation_mail_check(invitation: Invitation, link: str) -> None:
    """Build the invitation's mail as the task will send it; a mail that cannot be built
    (a line break in the campaign's name, which is its subject) refuses the invitation."""
    subject, body = invitation_mail(invitation, link)
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [invitation.email]).message()
    except (BadHeaderError, ValueError):
        raise RuleViolation(
            "the invitation's mail cannot be built from this campaign's name (a line break "
            "or control character in it); rename the campaign or invite without an e-mail",
            field="email",
        ) from None


def invitation_mail(invitation: Invitation, link: str) -> tuple[str, str]:
    """The subject and body of an invitation's e-mail."""
    expires = timezone.localtime(invitation.expires_at).strftime("%d %B %Y, %H:%M %Z")
    subject = f"You are invited to the campaign {invitation.campaign.name}"
    body = (
        f"{invitation.created_by.get_username()} invites you to the campaign "
        f'"{invitation.campaign.name}" as {invitation.part}.\n\n'
        f"Open this link to join (you can sign up there if you have no account):\n{link}\n\n"
        f"The link works once, until {expires}.\n"
    )
    return subject, body

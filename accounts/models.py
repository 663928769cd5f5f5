"""Accounts: each user's own settings and invitations to a campaign (issue 15)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone

from campaign.models import Campaign, Role

DEFAULT_TIME_ZONE = "UTC"


class UserSettings(models.Model):
    """A user's own settings, made the first time they are read (accounts.services.user_settings)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="angels_settings"
    )
    time_zone = models.CharField(
        max_length=64,
        default=DEFAULT_TIME_ZONE,
        help_text="An IANA time zone name (zoneinfo), e.g. Europe/London: every page shows times in it.",
    )

    class Meta:
        verbose_name = "user settings"
        verbose_name_plural = "user settings"

    def __str__(self) -> str:
        return f"{self.user} ({self.time_zone})"


class InvitationStatus(models.TextChoices):
    PENDING = "pending", "waiting"
    ACCEPTED = "accepted", "accepted"
    EXPIRED = "expired", "expired"
    REVOKED = "revoked", "revoked"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Invitation(models.Model):
    """An organiser's offer of a part in a campaign (commander of a side, or spectator),
    reached by a link with a random token.

    Why a random token stored hashed on a row rather than a signed link
    (``django.core.signing``): an invitation must be revocable and usable once,
    and both need a row to remember it anyway; with the row there, a signature
    adds nothing. Only the token's SHA-256 is stored, so the database (a
    backup, the admin) never holds a working link; the organiser sees the link
    once, when it is made, and the invited person gets it by e-mail.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.COMMANDER)
    side = models.CharField(max_length=10, blank=True)
    email = models.EmailField(blank=True, help_text="Where the link was sent, if it was mailed.")
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_made"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invitations_accepted",
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # issue 23: an existing user invited by name on the campaign page or the members API;
    # they accept or decline on their invitations page (accounts.offers), no link needed
    addressee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations_received",
        help_text="The user it is addressed to (invited by username); none for a link.",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.campaign}: {self.part} ({self.status})"

    @property
    def part(self) -> str:
        """The part offered in words: "commander of the Axis side", "spectator"."""
        if self.role == Role.COMMANDER:
            return f"commander of the {self.side.capitalize()} side"
        return str(Role(self.role).label).lower()

    @property
    def status(self) -> str:
        if self.revoked_at is not None:
            return InvitationStatus.REVOKED
        if self.accepted_at is not None:
            return InvitationStatus.ACCEPTED
        if self.expires_at <= timezone.now():
            return InvitationStatus.EXPIRED
        return InvitationStatus.PENDING

    @property
    def status_label(self) -> str:
        return str(InvitationStatus(self.status).label)

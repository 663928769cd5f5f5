"""What a user was told (:class:`Notification`, one per user and event key), how each
message went out (:class:`Delivery`, one per channel and target and key, or one daily
digest per user and day), what a user wants to hear of (:class:`Preference`, and
:class:`MailChoice`: every message, a daily digest or no mail) and a campaign's webhook
(:class:`CampaignWebhook`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from angels.events import KINDS

KIND_CHOICES = [(k, k.replace("_", " ").capitalize()) for k in KINDS]
DIGEST = "digest"  # a Delivery's kind for a daily digest (several kinds in one mail)
DELIVERY_KIND_CHOICES = [*KIND_CHOICES, (DIGEST, "Daily digest")]


class Notification(models.Model):
    """One event told to one user: never two rows for the same (user, key)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=KIND_CHOICES)
    key = models.CharField(max_length=200, help_text="The event's own key (angels.events).")
    text = models.TextField()
    url = models.CharField(max_length=300, blank=True)
    in_app = models.BooleanField(
        default=True,
        help_text="Shown in the user's list (else kept only so it is never sent twice).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    for_digest = models.BooleanField(
        default=False, help_text="To be mailed in the user's daily digest (not on its own)."
    )
    digest = models.ForeignKey(
        "Delivery", on_delete=models.SET_NULL, null=True, blank=True, related_name="digested",
        help_text="The daily digest that mailed it.",
    )  # fmt: skip

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_once_per_user_key")
        ]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.user}: {self.text}"


class Channel(models.TextChoices):
    EMAIL = "email", "E-mail"
    WEBHOOK = "webhook", "Webhook"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    SENDING = "sending", "Being sent"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"


class Delivery(models.Model):
    """One message to one target: an e-mail to a user, or a post to a campaign's webhook.

    ``dedup`` (channel, target and event key) is unique, so the same event is
    never queued twice for the same place; ``status`` moves pending -> sending ->
    sent, or back to pending after a failure (with ``next_attempt_at``) and
    failed after :data:`notifications.delivery.MAX_ATTEMPTS`.
    """

    channel = models.CharField(max_length=10, choices=Channel.choices)
    dedup = models.CharField(max_length=260, unique=True)
    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, null=True, blank=True, related_name="deliveries"
    )
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="notification_deliveries",
        null=True, blank=True, help_text="None for a daily digest (it spans campaigns).",
    )  # fmt: skip
    kind = models.CharField(max_length=20, choices=DELIVERY_KIND_CHOICES)
    target = models.CharField(max_length=500, help_text="E-mail address or webhook URL.")
    subject = models.CharField(max_length=200)
    text = models.TextField()
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.channel} to {self.target}: {self.status}"


class Preference(models.Model):
    """A user's choice for one kind of event; without a row the defaults hold
    (:data:`notifications.services.DEFAULT_EMAIL`, in-app for every kind)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    kind = models.CharField(max_length=20, choices=KIND_CHOICES)
    email = models.BooleanField()
    in_app = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_preference_per_user_kind")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.kind}: email={self.email} in_app={self.in_app}"


class MailMode(models.TextChoices):
    EVERY = "every", "Every message"
    DAILY = "daily", "A daily digest"
    NONE = "none", "No e-mail"


class MailChoice(models.Model):
    """How a user's e-mails come (issue 24): each message as it happens, the day's
    messages in one digest, or none. Without a row: every message."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_mail"
    )
    mode = models.CharField(max_length=10, choices=MailMode.choices, default=MailMode.EVERY)

    def __str__(self) -> str:
        return f"{self.user}: {self.get_mode_display()}"


class CampaignWebhook(models.Model):
    """A campaign's optional Discord-compatible webhook, set by its organiser."""

    campaign = models.OneToOneField(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="notification_webhook"
    )
    url = models.URLField(max_length=500, blank=True)
    kinds = models.JSONField(default=list, help_text="The event kinds posted to it.")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.campaign}: {self.url or 'no webhook'}"

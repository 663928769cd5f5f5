"""Notifications: e-mail, per-campaign webhook and the in-app list, for campaign events (issue 15)."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from angels.events import campaign_event

        from .listeners import on_campaign_event

        campaign_event.connect(on_campaign_event, dispatch_uid="notifications.on_campaign_event")

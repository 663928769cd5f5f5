"""Every page in the signed-in user's own time zone (accounts.UserSettings.time_zone)."""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class TimeZoneMiddleware:
    """Activates the user's time zone for the request (after AuthenticationMiddleware).

    One indexed query for a signed-in user; none for the anonymous, who see UTC
    (settings.TIME_ZONE). The settings row is not created here: a user who never
    saved settings has none, and the default applies.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            from .models import UserSettings

            name = (
                UserSettings.objects.filter(user=user).values_list("time_zone", flat=True).first()
            )
        try:
            if name:
                timezone.activate(ZoneInfo(name))
            else:
                timezone.deactivate()
        except (ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()  # a name no longer known to this system's zoneinfo: UTC
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

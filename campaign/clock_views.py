"""Campaign clock pages (issue 15): the organiser's pace form, a commander's holiday form.

Both live in the clock block of the campaign page (templates/campaign/_clock.html);
a refused one re-shows the page (400) with its form, its input and every error.
"""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import dateformat, timezone
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation

from . import clock, forms
from .models import Campaign
from .views import _refuse, _signed_in, campaign_page_response


def _pace_changes(post: Any) -> dict[str, Any]:
    changes: dict[str, Any] = {
        "pace": post.get("pace", ""),
        "pace_hours": post.get("pace_hours", "").strip(),
        "turn_weekdays": post.getlist("turn_weekdays"),
        "turn_time": post.get("turn_time", "").strip() or None,
        "pace_timezone": post.get("pace_timezone", "").strip(),
        "on_deadline": post.get("on_deadline", ""),
        "remind_hours": post.get("remind_hours", "").strip(),
        "auto_advance": bool(post.get("auto_advance")),
        "computer_sides": post.getlist("computer_sides"),
    }
    return changes


@login_required
@require_POST
def campaign_pace(request: HttpRequest, pk: int) -> HttpResponse:
    """Set the pace; a refusal re-shows the campaign page (400) with the form open, every
    error beside its field and in a list, and what was typed kept."""
    campaign = get_object_or_404(Campaign, pk=pk)
    try:
        clock.campaign_pace_set(
            campaign_id=pk, by=_signed_in(request), changes=_pace_changes(request.POST)
        )
    except RuleViolation as exc:
        _refuse(exc)
        refused = exc if isinstance(exc, clock.PaceRefused) else clock.PaceRefused([exc])
        return campaign_page_response(
            request, campaign, pace_refused=refused, pace_posted=request.POST
        )
    messages.success(request, "The campaign's pace is set.")
    return redirect("campaign-detail", pk=pk)


def _holiday_until(value: str) -> datetime | None:
    """The end of the given day in the viewer's time zone (``""``: back from holiday)."""
    if not value.strip():
        return None
    try:
        day = date.fromisoformat(value.strip())
    except ValueError as exc:
        raise RuleViolation(
            f"the holiday's last day is a date such as 2026-12-24 (not {value.strip()!r})",
            field="until",
            code="format",
        ) from exc
    return timezone.make_aware(datetime.combine(day, time(23, 59)))


@login_required
@require_POST
def campaign_holiday(request: HttpRequest, pk: int) -> HttpResponse:
    """A commander's holiday; a refusal re-shows the campaign page (400) with the form,
    the date as typed and the problem beside it, in one plain sentence."""
    campaign = get_object_or_404(Campaign, pk=pk)
    typed = request.POST.get("until", "")
    try:
        until = None if "back" in request.POST else _holiday_until(typed)
        clock.campaign_holiday_set(campaign_id=pk, by=_signed_in(request), until=until)
    except RuleViolation as exc:
        _refuse(exc)
        refused = forms.refused("holiday", [exc], {"until": typed})
        return campaign_page_response(request, campaign, refused=refused)
    if until is None:
        messages.success(request, "Welcome back: your side is yours again.")
    else:
        local = timezone.localtime(until)
        messages.success(
            request,
            f"The computer commander plays your side until {dateformat.format(local, 'D j M, H:i')} "
            f"({timezone.get_current_timezone_name()}).",
        )
    return redirect("campaign-detail", pk=pk)

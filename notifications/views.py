"""Notification pages: the user's list with mark-read, the user's choices, and a
campaign's webhook for its organiser. Thin: each calls one service."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation
from angels.events import KINDS
from campaign.models import Campaign
from campaign.services import is_organiser

from . import selectors, services
from .models import MailMode, Notification


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "notifications/list.html",
        {"notifications": selectors.notifications_of(request.user)[:200]},
    )


@login_required
@require_POST
def notification_read(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        notification = services.notification_read(user=request.user, notification_id=pk)
    except Notification.DoesNotExist as exc:
        raise Http404(str(exc)) from exc
    target = request.POST.get("next", "")
    if (
        target == "url"
        and notification.url.startswith("/")
        and not notification.url.startswith("//")
    ):
        return redirect(notification.url)
    return redirect("notifications:list")


@login_required
@require_POST
def notification_read_all(request: HttpRequest) -> HttpResponse:
    count = services.notifications_read_all(user=request.user)
    messages.success(request, f"{count} notification{'s' if count != 1 else ''} marked read.")
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("notifications:list")


@login_required
def preferences_page(request: HttpRequest) -> HttpResponse:
    error = None
    prefs = services.preferences(request.user)
    mode = services.mail_mode(request.user)
    if request.method == "POST":
        values = {
            kind: {
                "email": bool(request.POST.get(f"{kind}-email")),
                "in_app": bool(request.POST.get(f"{kind}-in_app")),
            }
            for kind in KINDS
        }
        mode = request.POST.get("email_mode", mode)
        try:
            services.preferences_and_mode_set(user=request.user, values=values, mode=mode)
        except RuleViolation as exc:  # a mode not offered: said, nothing stored
            error, prefs = exc, values
        else:
            messages.success(request, "Your choices are saved.")
            return redirect("notifications:settings")
    rows = [{"kind": k, "label": services.LABELS[k], **prefs[k]} for k in KINDS]
    return render(
        request,
        "notifications/settings.html",
        {
            "rows": rows,
            "modes": [
                {"value": v, "label": label, "on": v == mode} for v, label in MailMode.choices
            ],
            "digest_hour": settings.ANGELS_DIGEST_HOUR,
            "digest_zone": settings.TIME_ZONE,
            "error": error,
            "has_email": bool(getattr(request.user, "email", "")),
            "organised": selectors.campaigns_organised_by(request.user),
        },
        status=400 if error else 200,
    )


@login_required
def campaign_webhook_page(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    if not is_organiser(campaign, request.user):
        raise PermissionDenied("only the campaign's organiser sets its notifications")
    error = None
    if request.method == "POST":
        url = request.POST.get("url", "")
        kinds = [k for k in request.POST.getlist("kinds") if k in KINDS]
        try:
            services.webhook_set(campaign=campaign, by=request.user, url=url, kinds=kinds)
        except RuleViolation as exc:
            error = exc
            view = {"url": url, "kinds": kinds}
        else:
            messages.success(request, "The campaign's webhook is saved.")
            return redirect("notifications:campaign", pk=pk)
    else:
        view = services.webhook_view(campaign)
    labels = [{"kind": k, "label": services.LABELS[k], "on": k in view["kinds"]} for k in KINDS]
    return render(
        request,
        "notifications/campaign.html",
        {
            "campaign": campaign,
            "view": view,
            "labels": labels,
            "error": error,
            "deliveries": selectors.campaign_deliveries(campaign)[:50],
        },
        status=400 if error else 200,
    )

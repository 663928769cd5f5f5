"""Accounts pages: sign-up, one's own settings, an invitation's link, a campaign's invitations."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation
from campaign import services as campaign_services
from campaign.models import Campaign

from . import identity, services
from .forms import InvitationForm, SettingsForm, SignUpForm
from .models import Invitation


def _safe_next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def signup(request: HttpRequest) -> HttpResponse:
    """A new account; with an invitation's token, it is accepted at once and the new
    member lands on the campaign's page."""
    token = request.POST.get("invitation") or request.GET.get("invitation") or ""
    invitation = services.invitation_by_token(token) if token else None
    if request.user.is_authenticated:
        if invitation is not None:
            return redirect("accounts:invitation", token=token)
        return redirect(settings.LOGIN_REDIRECT_URL)
    initial = {"email": invitation.email} if invitation is not None and invitation.email else {}
    form = SignUpForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            user = identity.account_create(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                time_zone=form.cleaned_data["time_zone"],
            )
        except RuleViolation as exc:  # a look-alike name made meanwhile
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            return _signed_up(request, user, invitation, token)
    return render(
        request,
        "accounts/signup.html",
        {"form": form, "invitation": invitation, "token": token, "next": _safe_next(request, "")},
    )


def _signed_up(
    request: HttpRequest, user: Any, invitation: Invitation | None, token: str
) -> HttpResponse:
    """The new account signed in; with an invitation, it is accepted."""
    login(request, user)  # the project has one backend (angels.signin_limits)
    if invitation is not None:
        try:
            services.invitation_accept(token=token, user=user)
        except RuleViolation as exc:
            messages.error(request, f"Your account is made, but: {exc.message}")
            return redirect("accounts:invitation", token=token)
        messages.success(request, f"Welcome: you are {invitation.part} in this campaign.")
        return redirect("campaign-detail", pk=invitation.campaign_id)
    messages.success(request, "Welcome: your account is made and you are signed in.")
    return redirect(_safe_next(request, settings.LOGIN_REDIRECT_URL))


@login_required
def user_settings_page(request: HttpRequest) -> HttpResponse:
    row = services.user_settings(request.user)
    form = SettingsForm(
        request.POST or None,
        initial={"time_zone": row.time_zone, "email": getattr(request.user, "email", "")},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.user_settings_save(
                user=request.user,
                time_zone=form.cleaned_data["time_zone"],
                email=form.cleaned_data["email"],
            )
        except RuleViolation as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request, f"Saved: times are shown in {form.cleaned_data['time_zone']}."
            )
            return redirect("accounts:settings")
    return render(
        request,
        "accounts/settings.html",
        {"form": form, "settings_row": row},
        status=400 if form.errors else 200,
    )


def invitation_page(request: HttpRequest, token: str) -> HttpResponse:
    """The invited person's link: join (signed in), or sign up / log in first."""
    invitation = services.invitation_by_token(token)
    refusal = services.invitation_refusal(invitation)
    status = 200 if invitation is not None else 404
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{settings.LOGIN_URL}?next={request.path}")
        try:
            services.invitation_accept(token=token, user=request.user)
        except RuleViolation as exc:
            refusal = exc.message
            status = 403 if exc.code == "permission" else 400
        else:
            assert invitation is not None
            messages.success(request, f"You are {invitation.part} in this campaign.")
            return redirect("campaign-detail", pk=invitation.campaign_id)
    member = (
        campaign_services.membership(invitation.campaign, request.user)
        if invitation is not None
        else None
    )
    return render(
        request,
        "accounts/invitation.html",
        {"invitation": invitation, "refusal": refusal, "token": token, "member": member},
        status=status,
    )


def _organised(request: HttpRequest, pk: int) -> Campaign:
    campaign = get_object_or_404(Campaign, pk=pk)
    if not campaign_services.is_organiser(campaign, request.user):
        raise PermissionDenied("only the campaign's organiser sees and makes its invitations")
    return campaign


@login_required
def campaign_invitations_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's invitations: waiting, accepted, expired, withdrawn; make a new one."""
    campaign = _organised(request, pk)
    # "Invite" beside a person of an imported file: his part there, prefilled
    prefill = {k: request.GET[k] for k in ("role", "side") if k in request.GET}
    form = InvitationForm(
        request.POST or None, initial={"days": settings.ANGELS_INVITATION_DAYS, **prefill}
    )
    link = None
    made = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made, link = services.invitation_create(
                campaign=campaign,
                by=request.user,
                role=data["role"],
                side=data["side"],
                email=data["email"],
                days=data["days"],
                base_url=request.build_absolute_uri("/"),
            )
        except RuleViolation as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            form = InvitationForm(initial={"days": settings.ANGELS_INVITATION_DAYS})
            person = request.GET.get("person", "")
            if (
                person.isdigit() and len(person) < 10
            ):  # invited: he no longer waits in the Invitations block
                campaign.people_to_invite.filter(pk=int(person)).delete()
    return render(
        request,
        "accounts/invitations.html",
        {
            "campaign": campaign,
            "form": form,
            "link": link,
            "made": made,
            "invitations": services.campaign_invitations(campaign),
        },
        status=400 if request.method == "POST" and link is None else 200,
    )


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        invitation = services.invitation_revoke(invitation_id=pk, by=request.user)
    except RuleViolation as exc:
        if exc.code == "exists":
            raise Http404(exc.message) from exc
        if exc.code == "permission":
            raise PermissionDenied(exc.message) from exc
        messages.error(request, exc.message)
        invitation = get_object_or_404(services.Invitation, pk=pk)
    else:
        messages.success(request, f"The invitation ({invitation.part}) no longer works.")
    return redirect(
        _safe_next(request, reverse("accounts:campaign-invitations", args=[invitation.campaign_id]))
    )

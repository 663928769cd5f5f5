"""Pages of invitations to a known user (issue 23): the campaign page's "invite" form
offers a part, the invited user answers on ``/accounts/invitations/`` (``accounts.offers``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation
from campaign import forms as campaign_forms
from campaign.models import Campaign
from campaign.views import campaign_page_response

from . import offers


@login_required
@require_POST
def campaign_invite(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser offers a user a part (it waits for their answer); a refusal re-shows
    the campaign page (400) with the form, what was typed and the problem beside its field."""
    campaign = get_object_or_404(Campaign, pk=pk)
    values = {name: request.POST.get(name, "") for name in ("username", "role", "side")}
    user = get_user_model().objects.filter(username=values["username"]).first()
    try:
        if user is None:
            raise RuleViolation("no user with that username", field="username", code="exists")
        invitation = offers.invitation_offer(
            campaign=campaign, by=request.user, user=user, role=values["role"], side=values["side"]
        )
    except RuleViolation as exc:
        if exc.code == "permission":
            raise PermissionDenied(exc.message) from exc
        refused = campaign_forms.refused("invite", [exc], values)
        return campaign_page_response(request, campaign, refused=refused)
    messages.success(
        request,
        f"{user.username} is invited as {invitation.part}: it waits for them to accept "
        "on their invitations page.",
    )
    return redirect("campaign-detail", pk=pk)


@login_required
def invitations_mine(request: HttpRequest) -> HttpResponse:
    """The invitations addressed to the signed-in user, each with Accept and Decline."""
    return render(
        request,
        "accounts/invitations_mine.html",
        {"waiting": offers.invitations_waiting(request.user)},
    )


@login_required
@require_POST
def invitation_answer(request: HttpRequest, pk: int) -> HttpResponse:
    answer = request.POST.get("answer", "")
    accept = {"accept": True, "decline": False}.get(answer, answer)
    try:
        member = offers.invitation_answer(invitation_id=pk, user=request.user, accept=accept)
    except RuleViolation as exc:
        messages.error(request, f"Not done: {exc.message}")
        return redirect("accounts:invitations-mine")
    if member is None:
        messages.success(request, "Invitation declined.")
        return redirect("accounts:invitations-mine")
    messages.success(request, f"You joined {member.campaign.name} as {member.role} {member.side}.")
    return redirect("campaign-detail", pk=member.campaign_id)

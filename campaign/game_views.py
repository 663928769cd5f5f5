"""The campaign page's form for the game its engagements are flown under (issue 25)."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation

from . import forms, services
from .game import campaign_game_set, game_title
from .models import Campaign


@login_required
@require_POST
def campaign_game(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser chooses the game of the campaign's engagements not yet built (or of
    one mission's, with ``mission``); a refusal re-shows the campaign page (400) with the
    problem beside the field."""
    from .views import campaign_page_response

    campaign = get_object_or_404(Campaign, pk=pk)
    mission = request.POST.get("mission") or None
    system = request.POST.get("tactical_system", "")
    try:
        campaign = campaign_game_set(
            campaign_id=pk, by=cast(User, request.user), tactical_system=system, mission=mission
        )
    except RuleViolation as exc:
        if exc.code == "permission":
            raise PermissionDenied(exc.message) from exc
        if not services.is_organiser(campaign, request.user):
            raise PermissionDenied("only the campaign's organiser may do this") from exc
        refused = forms.refused(
            "game", [exc], {"tactical_system": system, "mission": mission or ""}
        )
        return campaign_page_response(request, campaign, refused=refused)
    where = f"Mission {mission}'s engagement" if mission else "The next engagements"
    chosen = game_title(system) if system else "the campaign's game"
    messages.success(request, f"{where} will be flown under {chosen}.")
    return redirect("campaign-detail", pk=pk)

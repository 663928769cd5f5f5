"""The campaign's printable summary (issue 16): sides, turn, score, squadrons,
pilots with their status and kills, engagements. Figures from the selectors."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from careers import selectors as career_selectors
from roster import selectors as roster_selectors

from . import selectors
from .access import campaign_pilots
from .models import Campaign


def campaign_print(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    # The spectator's view whoever asks: a printed page is passed around the
    # table, so it shows neither side's hand (what visibility.spectator_view hides).
    view = selectors.campaign_view(campaign, None)
    pilots = career_selectors.pilots_with_figures(
        campaign_pilots(campaign).select_related("squadron")
    ).order_by("squadron__side", "squadron__name", "-confirmed_kills", "name", "id")
    squadrons = list(
        roster_selectors.squadron_list(pilots=campaign_pilots(campaign))
        .filter(campaigns=campaign)
        .order_by("side", "name")
    )
    in_play = selectors.planes_in_play_by_squadron(campaign)
    for squadron in squadrons:  # the campaign's planes its pilots fly, not the library's
        squadron.airframes_on_hand = in_play.get(squadron.pk, 0)  # type: ignore[attr-defined]
    return render(
        request,
        "campaign/print.html",
        {
            "campaign": campaign,
            "view": view,
            "stats": career_selectors.campaign_statistics(campaign=campaign),
            "squadrons": squadrons,
            "pilots": pilots,
        },
    )

"""Printable pages, PDFs and CSV exports of the roster pages (issue 16). Thin:
the figures come from the selectors, the layout from ``careers.exports``."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify

from angels.csv_cells import csv_row
from angels.errors import RuleViolation
from roster.models import Pilot, Squadron

from . import exports, selectors
from .leaderboard_filters import leaderboard_filters
from .models import campaign_model
from .squadron_campaign import squadron_campaign


def _attachment(body: bytes | str, *, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv(header: tuple[str, ...], rows: Iterable[Iterable[Any]], filename: str) -> HttpResponse:
    # UTF-8 with a BOM: organisers open these in spreadsheets, and Excel reads a
    # CSV without one as the local code page (the demo's Polish names garbled).
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response)
    # text a spreadsheet would run as a formula (=, +, -, @, tab, CR) is written quoted-off
    writer.writerow(csv_row(header))
    writer.writerows(csv_row(row) for row in rows)
    return response


def squadron_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The squadron's roster and one card per pilot, each on its own printed page."""
    get_object_or_404(Squadron.objects.only("id"), pk=pk)
    try:
        campaign = squadron_campaign(request.GET)  # issue 24: one campaign's roster
    except RuleViolation as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    page = selectors.squadron_page(squadron_id=pk, campaign=campaign)
    return render(request, "careers/squadron_print.html", page)


def squadron_roster_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Squadron.objects.only("id"), pk=pk)
    try:
        campaign = squadron_campaign(request.GET)
    except RuleViolation as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    page = selectors.squadron_page(squadron_id=pk, log_limit=0, campaign=campaign)
    return _attachment(
        exports.squadron_roster_pdf(page),
        content_type="application/pdf",
        filename=f"{slugify(page['squadron'].name) or 'squadron'}-roster.pdf",
    )


def pilot_card_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        career = selectors.pilot_career(pilot_id=pk)
    except Pilot.DoesNotExist:
        raise Http404("no such pilot") from None
    return _attachment(
        exports.pilot_card_pdf(career),
        content_type="application/pdf",
        filename=f"{slugify(career['pilot'].name) or 'pilot'}-card.pdf",
    )


def aces_csv(request: HttpRequest) -> HttpResponse:
    """The whole leaderboard, with the aces page's filters (its query string), unpaged;
    bad filter values answer 400 with each in plain words."""
    query = leaderboard_filters(request.GET)
    if query.problems:
        return HttpResponseBadRequest(
            "".join(f"{p.message}\n" for p in query.problems),
            content_type="text/plain; charset=utf-8",
        )
    pilots = selectors.leaderboard(**query.filters)
    return _csv(exports.ACES_HEADER, exports.aces_rows(pilots), "aces.csv")


def campaign_stats_csv(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_object_or_404(campaign_model(), pk=pk)
    stats = selectors.campaign_statistics(campaign=campaign)
    return _csv(
        exports.STATISTICS_HEADER,
        exports.statistics_rows(stats),
        f"{slugify(campaign.name) or 'campaign'}-statistics.csv",
    )

"""The enrolment page: the organiser picks squadrons or pilots for the campaign (issue 12)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from angels.errors import RuleViolation
from angels.numbers import digits
from roster.enrolment import pilot_enrolment_refusal
from roster.models import Pilot, Squadron

from .enrolment import campaign_enrol
from .models import Campaign
from .services import is_organiser


def _ids(values: list[str], field: str) -> list[int]:
    ids = [digits(value) for value in values]
    if any(i is None or i < 1 for i in ids):
        raise RuleViolation("pick from the list", field=field, code="format")
    return [i for i in ids if i is not None]


@login_required
def campaign_enrol_page(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    if not is_organiser(campaign, request.user):
        raise PermissionDenied("only the campaign's organiser enrols pilots")
    error: RuleViolation | None = None
    result = None
    if request.method == "POST":
        try:
            result = campaign_enrol(
                campaign_id=campaign.pk,
                by=request.user,  # type: ignore[arg-type]  # login_required
                squadrons=_ids(request.POST.getlist("squadrons"), "squadrons"),
                pilots=_ids(request.POST.getlist("pilots"), "pilots"),
            )
        except RuleViolation as exc:
            if exc.code == "permission":
                raise PermissionDenied(exc.message) from exc
            error = exc
        if result is not None and not result.left_out:
            return redirect("campaign-enrol", pk=campaign.pk)
    pilots = Pilot.objects.select_related("squadron", "enrolled_in").order_by(
        "squadron__name", "name"
    )
    return render(
        request,
        "campaign/enrol.html",
        {
            "campaign": campaign,
            "error": error,
            "result": result,
            "enrolled": [p for p in pilots if p.enrolled_in_id == campaign.pk],
            "candidates": [
                {"pilot": p, "refusal": pilot_enrolment_refusal(p, campaign_id=campaign.pk)}
                for p in pilots
                if p.enrolled_in_id != campaign.pk
            ],
            "squadrons": Squadron.objects.order_by("side", "name"),
            "posted_pilots": request.POST.getlist("pilots"),
            "posted_squadrons": request.POST.getlist("squadrons"),
        },
    )

from typing import cast
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.forms import ModelChoiceField
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation
from angels.listing import filtered_page
from angels.numbers import digits
from roster import selectors as roster_selectors
from roster.filters import PilotFilter, SquadronFilter
from roster.models import AircraftType, Pilot, Side, Squadron

from . import charts, selectors, services
from .access import can_write, may_rename, require_campaign_pilots, table_pilot_fields
from .entry_sentences import table_battle_outcomes
from .forms import FlightFormSet, ShotFormSet, TableBattleForm, table_battle_input
from .hooks import campaigns_organised_by
from .leaderboard_filters import leaderboard_filters
from .models import Claim, TableBattle, campaign_model
from .squadron_campaign import squadron_campaign


def home_context() -> dict:
    """What the home page shows everyone (the signed-in player's "your turn" list on top
    of it: ``accounts.waiting_views.home``)."""
    squadrons, squadrons_total = roster_selectors.squadron_overview()
    return {
        "squadrons": squadrons,
        "squadrons_total": squadrons_total,
        "per_side": roster_selectors.HOME_SQUADRONS_PER_SIDE,
        "aces": selectors.ace_list(limit=10),
        "campaigns": campaign_model()._default_manager.only("id", "name"),
        "table_battles": TableBattle.objects.only("id", "name", "system")[:10],
    }


def pilot_detail(request, pk: int, *, problem: RuleViolation | None = None, status: int = 200):
    try:
        career = selectors.pilot_career(pilot_id=pk)
    except Pilot.DoesNotExist:
        raise Http404("no such pilot") from None
    career["chart"] = charts.kills_over_turns_svg(career["kills_by_turn"])
    career["may_rename"] = may_rename(request.user, career["pilot"])
    career["rename_problem"] = problem
    career["rename_value"] = request.POST.get("name", "") if problem else ""
    return render(request, "careers/pilot.html", career, status=status)


@require_POST
@login_required
def pilot_rename(request, pk: int):
    """The pilot page's rename form (issue 24): staff, or the organiser of the
    campaign he was drafted for; a bad name is the page again (400) saying why."""
    pilot = get_object_or_404(Pilot, pk=pk)
    if not may_rename(request.user, pilot):
        raise PermissionDenied(
            "Only staff, or the organiser of the campaign he was drafted for, rename a pilot."
        )
    try:
        pilot = services.pilot_rename(
            pilot_id=pk, name=request.POST.get("name", ""), by=request.user.username
        )
    except RuleViolation as exc:
        return pilot_detail(request, pk, problem=exc, status=400)
    messages.success(request, f"Renamed: {pilot.name}.")
    return redirect("pilot", pk=pk)


def squadron_detail(request, pk: int):
    get_object_or_404(Squadron.objects.only("id"), pk=pk)
    status, problem = 200, ""
    try:
        campaign = squadron_campaign(request.GET)
    except RuleViolation as exc:
        status, problem, campaign = 400, str(exc), None
    page = selectors.squadron_page(squadron_id=pk, campaign=campaign)
    page["campaigns"] = selectors.squadron_campaigns(squadron_id=pk)
    page["problem"] = problem
    page["chart"] = charts.grouped_bars_svg(
        page["per_turn"],
        (("shot_down", "#a8322d", "aircraft shot down"), ("replacements", "#2b5fad", "replacements"),
         ("lost_pilots", "#555", "pilots lost")),
        label_key="turn", title="Losses and replacements per turn",
    )  # fmt: skip
    return render(request, "careers/squadron.html", page, status=status)


def aces(request):
    """The leaderboard, 50 pilots a page. Flat in the roster's size (issue 17): no
    count of every ranked pilot (previous / next links, the rank of each row),
    and the squadron filter is a search by name, not a list of every squadron;
    a squadron chosen by id (``?squadron=``, the API's and older links' filter)
    is named and can be cleared. A bad filter value is listed in plain words, with no rows."""
    query = leaderboard_filters(request.GET)
    number = digits(request.GET.get("page", "")) or 1
    page = (
        selectors.LeaderboardPage(pilots=[], number=1, per_page=50, has_next=False)
        if query.problems  # no rows rather than rows the user did not ask for
        else selectors.leaderboard_page(number=number, **query.filters)
    )
    return render(
        request,
        "careers/aces.html",
        {
            "page": page,
            "filters": request.GET,
            "sides": Side.choices,
            "statuses": list(selectors.LEADERBOARD_STATUS),
            "squadron": query.squadron,
            "problems": [p.message for p in query.problems],
            "aircraft_types": AircraftType.objects.filter(squadrons__isnull=False)
            .distinct()
            .only("id", "name"),
            "campaigns": campaign_model()._default_manager.only("id", "name"),
            "nations": Squadron.objects.order_by("nation")
            .values_list("nation", flat=True)
            .distinct(),
            "query": _query(request.GET, "page"),
            "without_squadron": _query(request.GET, "page", "squadron"),
        },
    )


def _query(params, *leave_out: str) -> str:
    """The query string without ``leave_out`` (for links that change them)."""
    return urlencode([(k, v) for k, v in params.items() if k not in leave_out])


def campaign_stats(request, pk: int):
    campaign = get_object_or_404(campaign_model(), pk=pk)
    stats = selectors.campaign_statistics(campaign=campaign)
    stats["turns_chart"] = charts.grouped_bars_svg(
        stats["turns"],
        (("allied_kills", "#2b5fad", "Allied kills"), ("axis_kills", "#a8322d", "Axis kills"),
         ("allied_losses", "#9db5dc", "Allied losses"), ("axis_losses", "#dca39f", "Axis losses")),
        label_key="turn", title="Kills and losses per side per turn",
    )  # fmt: skip
    stats["ratio_chart"] = charts.grouped_bars_svg(
        stats["ratios"], (("kills", "#256029", "kills"), ("losses", "#a8322d", "losses")),
        label_key="aircraft", title="Kills and losses by aircraft type",
    )  # fmt: skip
    return render(request, "careers/campaign_stats.html", stats)


@login_required
def table_battle_new(request):
    """Staff record a table battle of any campaign (or none); a campaign's organiser one
    of theirs, chosen from those only; anyone else is told who may, not shown a form."""
    form = TableBattleForm(request.POST or None)
    if not request.user.is_staff:
        organised = campaigns_organised_by(request.user)
        if organised is None or not organised.exists():
            raise PermissionDenied(
                "Only staff or a campaign's organiser record table battles: you organise no campaign."
            )
        campaign_field = cast(ModelChoiceField, form.fields["campaign"])
        campaign_field.required = True
        if not form.is_bound:  # offered: theirs; posted: another's is refused below (403)
            campaign_field.queryset = organised
    flights = FlightFormSet(request.POST or None, prefix="flight")
    shots = ShotFormSet(request.POST or None, prefix="shot")
    problem = None  # the service's refusal, shown with the form's own errors
    # every part checked, so each one's errors show at once
    valid = [part.is_valid() for part in (form, flights, shots)] if request.method == "POST" else []
    if valid and all(valid):
        data = form.cleaned_data
        if not can_write(request.user, data["campaign"]):
            raise PermissionDenied("only staff or the campaign's organiser record table battles")
        rows = table_battle_input(flights, shots)
        try:
            require_campaign_pilots(data["campaign"], table_pilot_fields(rows))
        except RuleViolation as exc:  # a pilot of another campaign: a refusal, not a typo
            raise PermissionDenied(str(exc)) from exc
        try:
            battle = services.table_battle_record(
                name=data["name"], system=data["system"], territory=data["territory"],
                campaign=data["campaign"], campaign_turn=data["campaign_turn"], recorded_by=request.user.username,
                confirm=data["confirm"], **rows,
            )  # fmt: skip
        except RuleViolation as exc:
            problem = exc
        else:
            messages.success(request, f"Recorded {battle.name}.")
            return redirect("table-battle", pk=battle.pk)
    context = {"form": form, "flights": flights, "shots": shots, "problem": problem}
    status = 400 if request.method == "POST" else 200
    return render(request, "careers/table_battle_form.html", context, status=status)


def table_battle_detail(request, pk: int):
    battle = get_object_or_404(
        TableBattle.objects.select_related("campaign", "applied_result"), pk=pk
    )
    claims = battle.claims.select_related("pilot", "victim", "victim_type")
    return render(
        request,
        "careers/table_battle.html",
        {
            "battle": battle,
            "claims": claims,
            "can_decide": can_write(request.user, battle.campaign),
            "outcomes": table_battle_outcomes(battle),
        },
    )


@require_POST
@login_required
def claim_decide(request, pk: int):
    claim = get_object_or_404(Claim.objects.select_related("battle__campaign"), pk=pk)
    if not can_write(request.user, claim.battle.campaign):
        raise PermissionDenied("only staff or the campaign's organiser decide claims")
    reason = request.POST.get("reason", "")
    try:
        with transaction.atomic():
            if request.POST.get("decision") == "confirm":
                services.claim_confirm(claim_id=pk, by=request.user.username, reason=reason)
            else:
                services.claim_deny(claim_id=pk, by=request.user.username, reason=reason)
    except RuleViolation as exc:
        messages.error(request, str(exc))
    return redirect("table-battle", pk=claim.battle_id)


def pilot_list(request):
    """Every pilot: search, filters and pages (issue 16 "Find things")."""
    page = filtered_page(request, PilotFilter, roster_selectors.pilot_list())
    return render(request, "careers/pilot_list.html", page)


def squadron_list(request):
    """Every squadron with its figures: search, filters and pages (issue 16 "Find things")."""
    page = filtered_page(request, SquadronFilter, roster_selectors.squadron_list())
    return render(request, "careers/squadron_list.html", page)

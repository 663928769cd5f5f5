"""Campaign pages: the list, the table with the viewer's actions, the log, the PP/ST chart."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation
from angels.listing import filtered_page
from angels.numbers import digits
from battles.forms import rules_form_from_post, rules_form_initial, rules_from_post_all
from roster.enrolment import pilot_enrolment_refusal
from roster.models import Pilot, PilotStatus, Squadron

from . import clock, decisions, forms, page, selectors, services
from .access import may_create_campaign
from .charts import history_chart_svg
from .filters import CampaignFilter
from .models import Campaign, ResolutionMode
from .web_engagements import web_battles_view
from .work import campaign_work


def _signed_in(request: HttpRequest) -> User:
    """The user of a ``@login_required`` view (the decorator turned the anonymous away)."""
    assert request.user.is_authenticated
    return request.user


def _refuse(exc: RuleViolation) -> None:
    """A refusal by who is asking is a 403 page; other rules broken come back as a message."""
    if exc.code == "permission":
        raise PermissionDenied(exc.message) from exc


def campaign_list(request: HttpRequest) -> HttpResponse:
    """The campaigns: search, filters and pages (issue 16 "Find things"); the form that starts one."""
    return _campaign_list_page(request)


# the parts the invite form offers, in its order
INVITE_ROLES = ("commander", "spectator", "organiser")
# the start form's fields that are not optional rules (the rules' errors open their part)
START_FIELDS = {
    "name",
    "resolution_mode",
    "squadrons",
    "pilots",
    "engine_territory",
    "form",
    "tactical_system",
}


def _squadron_picks(squadrons: list[Squadron], ticked: set[str], pilots: set[str] | None) -> list:
    """The start form's squadrons, each with its pilots who may enlist (issue 24): not
    killed or retired; one serving elsewhere (or captured, missing) shown as not
    available, with where he serves. ``pilots``: the ids ticked (None: every free one).
    One query for the pilots."""
    by_squadron: dict[int, list[dict]] = {s.pk: [] for s in squadrons}
    roll = Pilot.objects.filter(squadron_id__in=list(by_squadron)).exclude(
        status__in=[PilotStatus.KILLED, PilotStatus.RETIRED]
    )
    for pilot in roll.select_related("enrolled_in").order_by("name", "pk"):
        refusal = pilot_enrolment_refusal(pilot, campaign_id=0)  # (no campaign yet)
        checked = refusal is None and (pilots is None or str(pilot.pk) in pilots)
        by_squadron[pilot.squadron_id].append({"p": pilot, "refusal": refusal, "checked": checked})
    return [
        {
            "s": s,
            "checked": str(s.pk) in ticked,
            "pilots": by_squadron[s.pk],
            "free": sum(1 for row in by_squadron[s.pk] if row["refusal"] is None),
        }
        for s in squadrons
    ]


def _campaign_list_page(request: HttpRequest, start: dict | None = None) -> HttpResponse:
    """The list page; with ``start`` (a refused start form: ``campaign.forms.refused``), its
    form re-shown with what was typed and every problem (HTTP 400)."""
    page = filtered_page(request, CampaignFilter, selectors.campaign_list())
    squadrons = list(Squadron.objects.order_by("side", "name"))
    pilots: set[str] | None = None  # every free pilot ticked at first
    if start is None:
        values = {"name": "", "resolution_mode": ResolutionMode.CARD, "engine_territory": True}
        ticked = {str(s.pk) for s in squadrons}
        form = rules_form_initial(None)
    else:
        values = start["values"]
        ticked, pilots = set(values["squadrons"]), set(values["pilots"])
        form = rules_form_from_post(values["post"], start["errors"])
    return render(
        request,
        "campaign/list.html",
        {
            **page,
            "campaigns": page["rows"],
            "modes": ResolutionMode.choices,
            "squadrons": _squadron_picks(squadrons, ticked, pilots),
            "form": form,
            "start": start or {"values": values, "errors": {}, "problems": [], "open": False},
            "rules_open": bool(start and set(start["errors"]) - START_FIELDS),
            "may_create": may_create_campaign(request.user),
        },
        status=400 if start else 200,
    )


@login_required
def campaign_new(request: HttpRequest) -> HttpResponse:
    """Start a campaign; a refusal re-shows the list page's form (400) with every problem
    beside its field and in a list, and what was typed kept."""
    if request.method != "POST":  # the form lives on the list page (GET here was a blank 405)
        return redirect(reverse("campaign-list") + "#start")
    if not may_create_campaign(request.user):
        raise PermissionDenied("only staff start campaigns here (ANGELS_CAMPAIGN_CREATORS)")
    post = request.POST
    errors: list[RuleViolation] = []
    squadrons: list[Squadron] = []
    ids = [digits(value) for value in post.getlist("squadrons")]
    if None in ids:
        errors.append(RuleViolation("unknown squadron id", field="squadrons", code="format"))
    else:
        squadrons = list(Squadron.objects.filter(pk__in=ids))
        if len(squadrons) != len(set(ids)):
            errors.append(RuleViolation("unknown squadron id", field="squadrons", code="exists"))
    # the pilots ticked under a ticked squadron enlist (issue 24); under an unticked one
    # they go with their squadron
    pilot_ids = [digits(value) for value in post.getlist("pilots")]
    chosen: list[int] = []
    if None in pilot_ids:
        errors.append(RuleViolation("unknown pilot id", field="pilots", code="format"))
    else:
        taking_part = [s.pk for s in squadrons]
        chosen = list(
            Pilot.objects.filter(pk__in=pilot_ids, squadron_id__in=taking_part)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    name = post.get("name", "")
    try:
        services.campaign_name_check(name)
    except RuleViolation as exc:
        errors.append(exc)
    engine_rules, rule_errors = rules_from_post_all(post, field="engine_rules")
    errors += rule_errors
    if not errors:
        try:
            campaign = services.campaign_open(
                name=name,
                created_by=_signed_in(request),
                resolution_mode=post.get("resolution_mode", ResolutionMode.CARD),
                squadrons=squadrons,
                pilots=chosen,
                engine_rules=engine_rules,
                engine_territory=bool(post.get("engine_territory")),
                tactical_system=post.get("tactical_system") or "angels20",  # issue 25
            )
        except RuleViolation as exc:
            _refuse(exc)
            errors.append(exc)
        else:
            return redirect("campaign-detail", pk=campaign.pk)
    values = {
        "name": name,
        "resolution_mode": post.get("resolution_mode", ""),
        "squadrons": post.getlist("squadrons"),
        "pilots": post.getlist("pilots"),
        "engine_territory": bool(post.get("engine_territory")),
        "tactical_system": post.get("tactical_system", ""),
        "post": post,
    }
    return _campaign_list_page(request, start=forms.refused("start", errors, values))


def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign page (issue 15): what happened, what to do now, the grouped decisions.

    A POST is one grouped decision (``campaign.decisions``): the engine actions it stands
    for are applied all or none; a refusal re-shows the page with the error beside the
    form and the choices kept (HTTP 400)."""
    campaign = get_object_or_404(Campaign, pk=pk)
    posted: dict = {}
    error: RuleViolation | None = None
    data = request.POST if request.method == "POST" else request.GET
    umpire = data.get("umpire", "") or None
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    try:  # the organiser acts for a side only as its umpire (?umpire=<side>)
        if request.method != "POST":  # the page reads the campaign's view (and battles) once
            return campaign_page_response(request, campaign, umpire=umpire)
        view = selectors.campaign_view(campaign, request.user, umpire=umpire)
    except RuleViolation as exc:
        _refuse(exc)
        messages.error(request, str(exc))
        return redirect("campaign-detail", pk=pk)
    if request.method == "POST":
        posted = {
            "group": request.POST.get("group", ""),
            "choices": request.POST.getlist("choice"),
            "umpire_reason": request.POST.get("umpire_reason", ""),
        }
        try:
            version = digits(request.POST.get("version", ""))
            if version is None:
                raise RuleViolation(
                    "the form has no campaign version", field="version", code="format"
                )
            actions = decisions.group_actions(
                side=campaign.current_side, key=posted["group"], choices=posted["choices"]
            )
            names = page.action_names(campaign, view)
            decisions.campaign_act_group(
                campaign_id=pk, user=_signed_in(request), actions=actions, version=version,
                names=names, umpire_reason=posted["umpire_reason"] if umpire else "",
            )  # fmt: skip
        except RuleViolation as exc:
            _refuse(exc)
            error = exc
        else:
            messages.success(request, _done_message(actions, names))
            return redirect(_detail_url(pk, umpire))
        campaign.refresh_from_db()
    return campaign_page_response(request, campaign, posted=posted, error=error, umpire=umpire)


def _detail_url(pk: int, umpire: str | None = None) -> str:
    """The campaign page, in umpire mode for ``umpire``'s side when given."""
    url = reverse("campaign-detail", kwargs={"pk": pk})
    return f"{url}?umpire={umpire}" if umpire else url


def campaign_page_response(
    request: HttpRequest,
    campaign: Campaign,
    *,
    posted: dict | None = None,
    error: RuleViolation | None = None,
    pace_refused: clock.PaceRefused | None = None,
    pace_posted: QueryDict | None = None,
    refused: dict | None = None,
    umpire: str | None = None,
) -> HttpResponse:
    """The campaign page; HTTP 400 when it re-shows a refused form: a decision (``error``,
    with the ``posted`` choices), the pace (``pace_refused``, with what was typed,
    ``pace_posted``; ``campaign.templatetags.campaign_clock``), or the invite, engine
    rules or holiday form (``refused``: ``campaign.forms.refused``)."""
    # the campaign's battles, read once for the engagements table, the battles flown by
    # people, the work under way and those not applied (test_campaign_page.py pins it)
    battles = selectors.campaign_battles(campaign)
    view = selectors.campaign_view(campaign, request.user, battles=battles, umpire=umpire)
    return render(
        request,
        "campaign/detail.html",
        {
            "campaign": campaign,
            "view": view,
            "web": web_battles_view(campaign, request.user, battles=battles),
            "work": campaign_work(campaign_id=campaign.pk, battles=battles),
            "not_applied": selectors.not_applied(battles),
            **page.campaign_page(campaign, view),
            "posted": posted or {},
            "error": error,
            "chart": history_chart_svg(view["history"]),
            "is_organiser": services.is_organiser(campaign, request.user),
            "members": campaign.members.select_related("user"),
            "engine": selectors.engine_rules_view(campaign),
            "form": (
                rules_form_from_post(refused["values"]["post"], refused["errors"])
                if refused and refused["form"] == "engine_rules"
                else rules_form_initial(campaign.engine_rules)
            ),
            "refused": refused or {},
            "roles": INVITE_ROLES,
            "invite_sides": [*services.SIDES, ""],
            "clock": clock.clock_view(campaign, request.user),  # issue 15
            "pace_refused": pace_refused,
            "pace_posted": pace_posted,
        },
        status=400 if error or pace_refused or refused else 200,
    )


def _action_label(action: dict, names: dict) -> str:
    """One engine action in words, for the message after a decision."""
    return decisions.describe(action, names, done=True)


def _done_message(actions: list[dict], names: dict) -> str:
    text = "; ".join(_action_label(a, names) for a in actions)
    return f"Done: {text[:1].upper()}{text[1:]}."


@login_required
@require_POST
def campaign_act(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Campaign, pk=pk)
    try:
        action = json.loads(request.POST.get("action", ""))
        version = int(request.POST.get("version", ""))
        services.campaign_act(
            campaign_id=pk, user=_signed_in(request), action=action, version=version,
            umpire_reason=request.POST.get("umpire_reason", ""),
        )  # fmt: skip
    except (ValueError, TypeError, RecursionError):  # (RecursionError: JSON nested too deeply)
        messages.error(request, "That form was not a game action.")
    except RuleViolation as exc:
        _refuse(exc)
        messages.error(request, f"Not done: {exc}")
    return redirect("campaign-detail", pk=pk)


@login_required
@require_POST
def campaign_start(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser starts a campaign that was gathering its commanders."""
    get_object_or_404(Campaign, pk=pk)
    try:
        services.campaign_start(campaign_id=pk, by=_signed_in(request))
        messages.success(request, "The campaign has started: turn 1 is under way.")
    except RuleViolation as exc:
        _refuse(exc)
        messages.error(request, str(exc))
    return redirect("campaign-detail", pk=pk)


@login_required
def campaign_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the confirmation page, naming the action that would be taken back; POST
    (its Confirm button): take it back."""
    campaign = get_object_or_404(Campaign, pk=pk)
    if request.method != "POST":
        if not services.is_organiser(campaign, request.user):
            raise PermissionDenied("only the campaign's organiser may do this")
        view = selectors.campaign_view(campaign, request.user)
        return render(
            request,
            "campaign/undo_confirm.html",
            {"campaign": campaign, "undo": page.undo_preview(campaign, view)},
        )
    try:
        services.campaign_undo_last(campaign_id=pk, by=_signed_in(request))
        messages.success(request, "The last action was taken back.")
    except RuleViolation as exc:
        _refuse(exc)
        messages.error(request, str(exc))
    return redirect("campaign-detail", pk=pk)


@login_required
@require_POST
def campaign_engine_rules(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser changes the optional rules of the next engine engagements; a refusal
    re-shows the campaign page (400) with the rules as posted and every problem."""
    campaign = get_object_or_404(Campaign, pk=pk)
    engine_rules, errors = rules_from_post_all(request.POST, field="engine_rules")
    if not errors:
        try:
            services.campaign_engine_rules_set(
                campaign_id=pk,
                by=_signed_in(request),
                engine_rules=engine_rules,
                engine_territory=bool(request.POST.get("engine_territory")),
            )
        except RuleViolation as exc:
            _refuse(exc)
            errors.append(exc)
    if errors:
        if not services.is_organiser(campaign, request.user):
            raise PermissionDenied("only the campaign's organiser may do this")
        values = {
            "engine_territory": bool(request.POST.get("engine_territory")),
            "post": request.POST,
        }
        refused = forms.refused("engine_rules", errors, values)
        return campaign_page_response(request, campaign, refused=refused)
    messages.success(request, "The next engine engagements fly with these rules.")
    return redirect("campaign-detail", pk=pk)

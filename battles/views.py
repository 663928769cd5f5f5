"""Battle pages: list, report (map stepping through the log); the new-battle form is in new_battle.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation
from angels.listing import filtered_page
from angels.throttling import page_throttled

from . import access, services
from .board_drawing import report_frames, setup_map
from .filters import BattleFilter
from .game_pages import draws_map, page_parts
from .models import Battle, BattleBatch, BattleStatus
from .play_notes import notes_into_frames
from .report import (
    HEX_SIZE,
    frames_from_log,
    hex_grid_points,
    map_legend,
    map_size,
    outcome_rows,
    rules_summary,
)
from .selectors import battle_crews, battle_plane_names, hidden_seeds
from .selectors import battle_list as battle_list_query


def battle_list(request: HttpRequest) -> HttpResponse:
    """The battles: filters and pages (issue 16 "Find things"); the runs of batches only
    when asked for (kind "batch" or a batch's id)."""
    runs = request.GET.get("origin") == "batch" or bool(request.GET.get("batch"))
    page = filtered_page(request, BattleFilter, battle_list_query(with_batch_runs=runs))
    battles = list(page["rows"])
    return render(
        request,
        "battles/list.html",
        {
            **page,
            "battles": battles,
            "hidden_seeds": hidden_seeds(battles, request.user),  # seeds kept from this viewer
            "batches": BattleBatch.objects.all()[:20],
        },
    )


def battle_report(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_object_or_404(Battle, pk=pk)
    width, height = battle.setup.get("width", 16), battle.setup.get("height", 22)
    crews = battle_crews(battle)  # the roster pilot of each aircraft, by its number
    finished = battle.status == BattleStatus.FINISHED
    frames = frames_from_log(battle.log, battle.setup, crews) if finished else []
    if draws_map(battle):  # issue 25: its grid and what is placed on it, as it describes them
        drawn = setup_map(battle)
    else:
        drawn = report_frames(battle, frames) if finished else {}
    frames = drawn.pop("frames", frames)  # issue 25: another game's own map and words
    frames = notes_into_frames(frames, battle)  # issue 14: deadlines passed, hand-overs
    svg_w, svg_h = map_size(width, height)
    odds = BattleBatch.objects.filter(purpose=f"odds:{battle.pk}").order_by("-created_at").first()
    names = {i: a["stats"]["name"] for i, a in enumerate(battle.setup.get("aircraft", []))}
    labels = battle_plane_names(battle, crews)  # "#3 P-47 Thunderbolt (Col Hubert Zemke)"
    outcome = outcome_rows(battle.result, crews)  # each row numbered as its log does
    parts = page_parts(battle)
    # pilot survival (Angels 20's advanced rule): a column only where a row has a roll, or
    # as always for Angels 20; Air Pirates has no such roll
    survival = parts["angels_parts"] or any(a.get("survival_roll") for a in outcome)
    return render(
        request,
        "battles/report.html",
        {
            "battle": battle,
            "seed_shown": services.seed_visible(battle, request.user),
            "may_manage": access.may_manage(battle, request.user),
            "result": battle.result,
            "names": names,
            "crew_list": [
                {"i": i, "aircraft": names.get(i, ""), **crew} for i, crew in sorted(crews.items())
            ],
            "outcome": outcome,
            "survival_shown": survival,
            "legend": map_legend(battle.setup, crews),
            "plane_names": labels,  # to the page as json_script (no user text as code)
            "kills": [
                {
                    "turn": k.get("turn"),
                    "attacker": labels.get(k.get("attacker"), "?"),
                    "target": labels.get(k.get("target"), "?"),
                }
                for k in (battle.result or {}).get("kills", [])
            ],
            "frames": frames,
            "grid": hex_grid_points(width, height),
            "svg_w": svg_w,
            "svg_h": svg_h,
            "hex_size": HEX_SIZE,
            "odds": odds,
            "aircraft": [{"i": i, **a} for i, a in enumerate(battle.setup.get("aircraft", []))],
            "rules": rules_summary(battle.setup, battle.log or []),
            "features": {"clouds": [], "flak": [], "balloons": []},  # a described map's: drawn
            **parts,  # issue 25: Angels 20's map and rules card for its battles only
            **drawn,  # another game's map as it describes it (battles.board_drawing)
        },
    )


@login_required
@require_POST
def battle_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """Resolve, preview the odds of, retry, or re-apply the result of a battle: its creator,
    its campaign's organiser or staff."""
    battle = get_object_or_404(Battle, pk=pk)
    if action not in ("resolve", "odds", "retry", "apply"):
        raise Http404("no such action")
    if not access.may_manage(battle, request.user):
        raise PermissionDenied("only the battle's creator, its campaign's organiser or staff")
    if action == "odds" and (wait := page_throttled(request, "odds")) is not None:
        detail = "You asked for many odds previews lately (the limit is per user)."
        return render(request, "429.html", {"detail": detail, "wait": round(wait)}, status=429)
    try:
        if action == "resolve":
            services.battle_resolve(battle_id=pk)
        elif action == "odds":
            services.odds_preview(battle_id=pk, requested_by=request.user)
        elif action == "retry":
            services.battle_retry(battle_id=pk)
        else:
            services.battle_reapply(battle_id=pk, user=request.user)
    except RuleViolation as exc:
        messages.error(request, str(exc))
    return redirect("battle-report", pk=pk)


def batch_detail(request: HttpRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(BattleBatch, pk=pk)
    counts = {s: batch.battles.filter(status=s).count() for s in BattleStatus.values}
    return render(request, "battles/batch.html", {"batch": batch, "counts": counts})

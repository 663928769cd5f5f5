"""Career reads: the leaderboard, a pilot's career, a squadron's page, a
campaign's statistics. Each runs a fixed number of queries whatever the
roster's size (tests/careers/test_queries.py pins them)."""

from __future__ import annotations

from typing import Any, cast

from django.db.models import Count, F, Q, QuerySet
from django.urls import reverse

from roster.models import Airframe, Pilot, PilotStatus, Squadron
from rules.careers.progression import LEADERBOARD_ACE_KILLS

from .models import AppliedResult, PilotAward, PilotEvent, PilotEventKind
from .types import CampaignLike, CampaignModel

LEADERBOARD_STATUS: dict[str, tuple[str, ...]] = {
    "living": (PilotStatus.ACTIVE, PilotStatus.WOUNDED, PilotStatus.RETIRED),
    "captured": (PilotStatus.CAPTURED,),
    "killed": (PilotStatus.KILLED,),
    "missing": (PilotStatus.MISSING,),
}


def campaign_events(campaign: CampaignLike) -> QuerySet[PilotEvent]:
    """Career events of a campaign: those tied to it, and those the card game's
    count carry-over logs with the campaign's name."""
    return PilotEvent.objects.filter(Q(campaign=campaign) | Q(details__campaign=campaign.name))


def leaderboard(
    *, campaign: CampaignLike | None = None, side: str | None = None, nation: str | None = None,
    squadron_id: int | None = None, aircraft_type_id: int | None = None, status: str | None = None,
    aces_only: bool = False,
) -> QuerySet[Pilot]:  # fmt: skip
    """Pilots with a confirmed or claimed kill: most confirmed kills first, ties to
    fewer missions; ``claimed_kills`` = confirmed + claims awaiting a decision."""
    qs = (
        Pilot.objects.select_related("squadron__aircraft_type")
        .annotate(claimed_kills=F("air_kills") + F("unconfirmed_kills"))
        .filter(Q(air_kills__gt=0) | Q(unconfirmed_kills__gt=0))
    )
    if campaign is not None:
        qs = qs.filter(squadron__campaigns=cast(CampaignModel, campaign))
    if side:
        qs = qs.filter(squadron__side=side)
    if nation:
        qs = qs.filter(nation__iexact=nation)
    if squadron_id:
        qs = qs.filter(squadron_id=squadron_id)
    if aircraft_type_id:
        qs = qs.filter(squadron__aircraft_type_id=aircraft_type_id)
    if status:
        qs = qs.filter(status__in=LEADERBOARD_STATUS.get(status, (status,)))
    if aces_only:
        qs = qs.filter(air_kills__gte=LEADERBOARD_ACE_KILLS)
    return qs.order_by("-air_kills", "experience_markers", "-unconfirmed_kills", "name", "id")


def _kills_chart_points(kills: list[PilotEvent]) -> list[tuple[str, int]]:
    by_turn: dict[int, int] = {}
    for event in kills:
        by_turn[event.campaign_turn or 0] = by_turn.get(event.campaign_turn or 0, 0) + 1
    total, points = 0, []
    for turn in sorted(by_turn):
        total += by_turn[turn]
        points.append((f"turn {turn}", total))
    return points


def battle_report_url(applied: AppliedResult | None) -> str:
    """Where the battle an event came from is reported: a table battle's page, or
    the engine battle's report (source key ``battle:<pk>``, page ``/battles/<pk>/``)."""
    if applied is None:
        return ""
    if applied.mode == "table":
        battle = getattr(applied, "table_battle", None)
        return reverse("table-battle", args=[battle.pk]) if battle is not None else ""
    if applied.mode == "engine" and applied.source_key.startswith("battle:"):
        pk = applied.source_key.split(":", 1)[1]
        return f"/battles/{pk}/" if pk.isdigit() else ""
    return ""


def pilot_career(*, pilot_id: int) -> dict[str, Any]:
    """A pilot's page: the pilot, every career event (oldest first, each with the
    link to its battle's report), the kills, damage, shoot-downs and survival
    rolls, awards and a kills-by-turn series. Three queries."""
    pilot = Pilot.objects.select_related("squadron__aircraft_type").get(pk=pilot_id)
    events = list(
        PilotEvent.objects.filter(pilot_id=pilot_id)
        .select_related("applied_result__table_battle")
        .order_by("created_at", "id")
    )
    for event in events:
        event.report_url = battle_report_url(event.applied_result)
    awards = list(PilotAward.objects.filter(pilot_id=pilot_id))
    by_kind: dict[str, list[PilotEvent]] = {}
    for event in events:
        by_kind.setdefault(event.kind, []).append(event)
    kills = by_kind.get(PilotEventKind.KILL, [])
    return {
        "pilot": pilot,
        "events": events,
        "kills": kills,
        "damage": by_kind.get(PilotEventKind.DAMAGED, []),
        "shot_down": by_kind.get(PilotEventKind.SHOT_DOWN, []),
        "survival_rolls": by_kind.get(PilotEventKind.SURVIVAL_ROLL, []),
        "denied": by_kind.get(PilotEventKind.KILL_DENIED, []),
        "awards": awards,
        "missions": pilot.experience_markers,
        "kills_by_turn": _kills_chart_points(kills),
    }


def squadron_page(*, squadron_id: int, log_limit: int = 100) -> dict[str, Any]:
    """A squadron's page: roster, losses and replacements per campaign turn,
    aircraft on hand by type and state, the latest log entries. Five queries."""
    squadron = Squadron.objects.select_related("aircraft_type").get(pk=squadron_id)
    pilots = list(
        Pilot.objects.filter(squadron_id=squadron_id)
        .select_related("squadron")
        .order_by("status", "-air_kills", "name")
    )
    per_turn: dict[int, dict[str, int]] = {}
    rows = (
        PilotEvent.objects.filter(pilot__squadron_id=squadron_id)
        .filter(Q(kind=PilotEventKind.SHOT_DOWN) | Q(kind=PilotEventKind.JOINED, details__replacement=True)
                | Q(kind__in=[PilotEventKind.KILLED, PilotEventKind.CAPTURED, PilotEventKind.MISSING]))
        .values("campaign_turn", "kind")
        .annotate(n=Count("id"))
    )  # fmt: skip
    for row in rows:
        turn = per_turn.setdefault(
            row["campaign_turn"] or 0, {"shot_down": 0, "replacements": 0, "lost_pilots": 0}
        )
        if row["kind"] == PilotEventKind.SHOT_DOWN:
            turn["shot_down"] += row["n"]
        elif row["kind"] == PilotEventKind.JOINED:
            turn["replacements"] += row["n"]
        else:
            turn["lost_pilots"] += row["n"]
    aircraft = list(
        Airframe.objects.filter(squadron_id=squadron_id)
        .values("aircraft_type__name", "state")
        .annotate(n=Count("id"))
        .order_by("aircraft_type__name", "state")
    )
    log = list(
        PilotEvent.objects.filter(pilot__squadron_id=squadron_id)
        .select_related("pilot")
        .order_by("-created_at", "-id")[:log_limit]
    )
    return {
        "squadron": squadron,
        "pilots": pilots,
        "strength": sum(p.status in (PilotStatus.ACTIVE, PilotStatus.WOUNDED) for p in pilots),
        "per_turn": [{"turn": t, **v} for t, v in sorted(per_turn.items())],
        "aircraft": aircraft,
        "log": log,
    }


def campaign_statistics(*, campaign: CampaignLike) -> dict[str, Any]:
    """Losses and kills per side per campaign turn, and kill ratios by aircraft
    type (kills by pilots of squadrons flying the type / those pilots' losses).
    Two queries."""
    rows = (
        campaign_events(campaign)
        .filter(kind__in=[PilotEventKind.KILL, PilotEventKind.SHOT_DOWN, PilotEventKind.KILL_DENIED])
        .values("campaign_turn", "kind", "pilot__squadron__side", "pilot__squadron__aircraft_type__name")
        .annotate(n=Count("id"))
    )  # fmt: skip
    turns: dict[int, dict[str, int]] = {}
    types: dict[str, dict[str, int]] = {}
    for row in rows:
        side, kind, n = row["pilot__squadron__side"], row["kind"], row["n"]
        sign = -1 if kind == PilotEventKind.KILL_DENIED else 1
        key = "losses" if kind == PilotEventKind.SHOT_DOWN else "kills"
        turn = turns.setdefault(
            row["campaign_turn"] or 0,
            {"allied_kills": 0, "axis_kills": 0, "allied_losses": 0, "axis_losses": 0},
        )
        turn[f"{side}_{key}"] += sign * n
        name = row["pilot__squadron__aircraft_type__name"] or "—"
        t = types.setdefault(name, {"kills": 0, "losses": 0})
        t[key] += sign * n
    ratios = [
        {
            "aircraft": name,
            **v,
            "ratio": round(v["kills"] / v["losses"], 2) if v["losses"] else None,
        }
        for name, v in sorted(types.items(), key=lambda kv: (-kv[1]["kills"], kv[0]))
    ]
    return {
        "campaign": campaign,
        "turns": [{"turn": t, **v} for t, v in sorted(turns.items())],
        "ratios": ratios,
        "battles": AppliedResult.objects.filter(campaign=cast(CampaignModel, campaign))
        .exclude(mode="roster")
        .count(),
    }

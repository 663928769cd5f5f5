"""Battle reads other apps show; who flew each aircraft of a battle."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.db.models.fields.json import KT
from django.urls import reverse

from roster.campaign_hooks import current
from roster.models import Pilot
from rules.tactical import UnknownSystem, pilot_refs, system_named

from .log_sentences import plane_names
from .models import SETUP_NAME, Battle, BattleStatus
from .services import seed_visible


def battles_not_applied(*, source_key_prefix: str) -> QuerySet[Battle]:
    """Finished battles asked for by ``source_key_prefix`` (a campaign's) whose result could not be applied."""
    return (
        Battle.objects.filter(
            source_key__startswith=source_key_prefix,
            status=BattleStatus.FINISHED,
            applied_at__isnull=True,
        )
        .exclude(apply_error="")
        .only("pk", "source_key", "apply_error", "finished_at", "status", "applied_at")
        .order_by("finished_at")
    )


def battle_crews(battle: Battle) -> dict[int, dict[str, str]]:
    """The roster pilot of each aircraft of the battle, by the number its game's log and
    result call it by (``rules.tactical.pilot_refs``: the game says where its scenario keeps
    each aircraft's ``pilot_ref``; Angels 20 numbers its aircraft from 0, Air Pirates its
    units from 1): ``{"name", "url"}`` (his career page). ``pilot:<id>`` refs are roster
    pilots (standalone battles); other refs ("plane:allied-3" of a campaign engagement) by
    ``roster.campaign_hooks``' ``battle_plane_pilots``. Aircraft flown by no roster pilot
    are left out. At most two queries."""
    refs = pilot_refs(_system(battle), battle.setup)
    ids = {
        int(r.removeprefix("pilot:"))
        for r in refs.values()
        if r.startswith("pilot:") and r.removeprefix("pilot:").isdigit()
    }
    named: dict[str, dict[str, Any]] = {
        f"pilot:{p.pk}": {"name": str(p), "url": reverse("pilot", args=[p.pk])}
        for p in Pilot.objects.filter(pk__in=ids)
    }
    others = {r for r in refs.values() if r and not r.startswith("pilot:")}
    if others:
        named.update(current().battle_plane_pilots(battle, others))
    return {i: named[r] for i, r in refs.items() if r in named}


def battle_plane_names(battle: Battle, crews: dict[int, dict[str, str]]) -> dict[int, str]:
    """Each aircraft of the battle as its report names it (its kills list, its map's
    titles), by the number its game's log and result call it by: "#3 P-47 Thunderbolt
    (Col Hubert Zemke)", its type and pilot quality as its game names them
    (``rules.tactical.aircraft_names``), the roster pilot ``crews`` (``battle_crews``)
    gives it, else its quality ("#1 Bf 109E (average pilot)")."""
    return plane_names(battle.setup, crews, _system(battle))


def _system(battle: Battle) -> object:
    try:
        return system_named(battle.system)
    except UnknownSystem:
        return None  # a game no longer installed: its scenario read as Angels 20's


def with_setup_name(qs: QuerySet[Battle]) -> QuerySet[Battle]:
    """``qs`` with each battle's setup's name read by the database (``Battle.setup_name``),
    so a list that defers the setup still titles a battle built from one by its own
    scenario's name (``Battle.scenario_title``) without a query per row."""
    return qs.annotate(**{SETUP_NAME: KT("setup__name")})


def battle_list(*, with_batch_runs: bool = True) -> QuerySet[Battle]:
    """Battles, newest first, without their logs (search and filters:
    ``battles.filters.BattleFilter``); the page leaves out the runs of batches
    unless asked for them."""
    qs = with_setup_name(
        Battle.objects.defer("log", "actions", "setup").order_by("-created_at", "-pk")
    )
    return qs if with_batch_runs else qs.filter(batch__isnull=True)


def hidden_seeds(battles: list[Battle], user: Any) -> set[int]:
    """The ids of ``battles`` whose seed ``user`` may not see (``services.seed_visible``),
    asking once per kind of battle, not once per row: whether a seed is shown depends
    on the battle's batch and on the campaign it was flown for (its ``settings`` and
    ``source_key`` name it, campaign.engagements.battle_seed_hidden), so the page's
    queries do not grow with its rows."""
    answers: dict[tuple[Any, ...], bool] = {}
    hidden = set()
    for battle in battles:
        settings = battle.settings if isinstance(battle.settings, dict) else {}
        key = (battle.batch_id, str(settings.get("campaign")), battle.source_key.split(":")[0])
        if key not in answers:
            answers[key] = seed_visible(battle, user)
        if not answers[key]:
            hidden.add(battle.pk)
    return hidden

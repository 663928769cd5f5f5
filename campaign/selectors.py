"""Campaign reads. Only the game core's views leave the server: a side sees its
own hand, never the other's, and no one sees a deck's order."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet
from django.db.models.fields.json import KT
from django.urls import reverse

from angels.errors import RuleViolation
from battles.models import STATUS_WORDS, Battle, BattleStatus
from battles.rules_settings import optional_rules_on
from careers.models import TableBattle
from careers.templatetags.careers import quality_words
from rules.cardgame import spectator_view, view_for

from .engagements import battle_mission_name
from .models import Campaign, CampaignAction, CampaignPlane, CampaignStatus
from .services import SIDES, game_state, is_organiser, membership, viewer_side

UMPIRE_PREFIX = "umpire: "  # an organiser's action for a side, as umpire (services.campaign_act)


def campaign_list() -> QuerySet[Campaign]:
    """Campaigns, newest first, without their game state (search and filters:
    ``campaign.filters.CampaignFilter``)."""
    return (
        Campaign.objects.select_related("created_by")
        .defer("state", "setup")
        .order_by("-created_at", "-pk")
    )


def engine_rules_view(campaign: Campaign) -> dict[str, Any]:
    """The optional rules of the campaign's engine engagements, and their names in force."""
    return {
        "engine_rules": campaign.engine_rules,
        "engine_territory": campaign.engine_territory,
        "optional_rules": list(optional_rules_on(campaign.engine_rules)),
    }


def campaign_view(
    campaign: Campaign,
    user: User | AnonymousUser | None,
    *,
    log_since: int = 0,
    battles: list[Battle] | None = None,
    umpire: str | None = None,
) -> dict[str, Any]:
    """What ``user`` may see of the campaign now.

    A commander sees the game as their side; anyone else, the organiser included, gets
    the spectator's view (no hand at all). The organiser sees a side's hand and decisions
    only as its umpire (``umpire``: a side they do not command; each action then needs a
    reason, ``services.campaign_act``). ``battles``: the campaign's, already read
    (:func:`campaign_battles`), for its engagements.
    """
    state = game_state(campaign)
    organiser = is_organiser(campaign, user)
    side = viewer_side(campaign, user)
    if umpire:
        if umpire not in SIDES:
            raise RuleViolation(
                f"umpire is one of {list(SIDES)} (not {umpire!r})", field="umpire", code="invalid"
            )
        if not organiser:
            raise RuleViolation(
                "only the campaign's organiser acts as umpire", field="umpire", code="permission"
            )
        if umpire == side:
            umpire = None  # a commander acts for their own side as its commander
        else:
            side = umpire
    view = (
        view_for(state, side, log_since=log_since)
        if side
        else spectator_view(state, log_since=log_since)
    )
    view["hand_limit"] = state.setup.hand_limit  # 003 Debriefing phase: 7 unless the setup says
    member = membership(campaign, user)
    pilots = {p.plane_id: p for p in campaign_planes(campaign)}
    for plane in view["planes"]:
        record = pilots.get(plane["id"])
        plane["pilot"] = _pilot_json(record)
    view["campaign"] = {
        "id": campaign.pk,
        "name": campaign.name,
        "version": campaign.version,
        "status": campaign.status,
        "winner": campaign.winner,
        "resolution_mode": campaign.resolution_mode,
        "progression_rule": campaign.progression_rule,
        "survival_rule": campaign.survival_rule,
        "tactical_system": campaign.tactical_system,  # issue 25: the game it flies
        **engine_rules_view(campaign),
    }
    view["you"] = {
        "role": "organiser" if organiser else (member.role if member else "spectator"),
        "side": viewer_side(campaign, user),
        "acting_as": side,
        "umpire": umpire or None,
        "may_umpire": [s for s in SIDES if s != viewer_side(campaign, user)] if organiser else [],
    }
    view["umpire_actions"] = umpire_actions(campaign)
    if campaign.status == CampaignStatus.GATHERING or not (side and side == view["current_side"]):
        view["legal_actions"] = []  # nothing is played before the organiser starts it
    view["engagement_reports"] = campaign_engagements(campaign, state=state, battles=battles)
    return view


def umpire_actions(campaign: Campaign) -> list[dict[str, Any]]:
    """The actions the organiser took for a side as umpire, oldest first, with the reason
    given (the action rows' ``reason``: ``"umpire: <reason>"``)."""
    rows = CampaignAction.objects.filter(
        campaign=campaign, undone=False, reason__startswith=UMPIRE_PREFIX
    ).select_related("actor")
    return [
        {
            "sequence": a.sequence,
            "turn": a.turn,
            "side": a.side,
            "type": a.payload.get("type"),
            "by": a.actor.username if a.actor else "",
            "reason": a.reason.removeprefix(UMPIRE_PREFIX),
        }
        for a in rows.order_by("sequence")
    ]


# what the campaign page reads of its battles (campaign_battles)
BATTLE_FIELDS = ("id", "source_key", "status", "settings", "progress_turn", "applied_at",
                 "apply_error", "created_at", "finished_at")  # fmt: skip


def campaign_battles(campaign: Campaign) -> list[Battle]:
    """The campaign's battles (``source_key`` ``campaign:<id>:...``), oldest first, as the
    campaign page's boxes read them: the engagements table, the battles flown by people
    (``web_engagements.web_battles_view``), the work under way (``work.campaign_work``)
    and those whose result could not be applied (:func:`not_applied`).
    One query, whatever their number, and narrow: no log, scenario, actions or result;
    each row has ``scenario_name`` (its scenario's name), ``result_in`` (has a result) and
    ``result_winner`` instead."""
    return list(
        Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")
        .only(*BATTLE_FIELDS)
        .annotate(
            scenario_name=KT("setup__name"),
            result_in=ExpressionWrapper(Q(result__isnull=False), output_field=BooleanField()),
            result_winner=KT("result__winner"),
        )
        .order_by("created_at", "pk")
    )


def not_applied(battles: list[Battle]) -> list[Battle]:
    """Of the campaign's ``battles`` (:func:`campaign_battles`), those flown whose result
    could not be applied, as ``battles.selectors.battles_not_applied`` picks them."""
    failed = [
        b
        for b in battles
        if b.status == BattleStatus.FINISHED and b.applied_at is None and b.apply_error
    ]
    return sorted(failed, key=lambda b: (b.finished_at is None, b.finished_at or b.created_at))


# how an engagement was resolved, in words (the engagements table; ``mode`` stays the code)
ENGAGEMENT_MODES = {
    "card": "card-game dice",
    "engine": "computer pilots",
    "web": "flown in the browser",
    "table": "table battle",
}


def battle_label(battle: Battle) -> str:
    """A campaign's battle named for people: "Battle 5 (being flown)"."""
    return f"Battle {battle.pk} ({STATUS_WORDS.get(battle.status, battle.status)})"


def campaign_engagements(
    campaign: Campaign, *, state: Any = None, battles: list[Battle] | None = None
) -> list[dict[str, Any]]:
    """Every engagement of the campaign, newest first, with the link to its
    report: an engine engagement's battle (``/battles/<pk>/``, also while it is
    still to be flown), a table engagement's table battles of that turn. Card
    engagements were rolled in the game (their rolls are in the log). Two queries
    (one when the campaign's ``battles`` are given, :func:`campaign_battles`)."""
    state = state or game_state(campaign)
    battles_by_key = {
        b.source_key: b for b in (campaign_battles(campaign) if battles is None else battles)
    }

    def mode_of(key: str, mode: str) -> str:  # an engine battle flown by people: "web"
        battle = battles_by_key.get(key)
        return "web" if battle is not None and (battle.settings or {}).get("seats") else mode

    def mission_name(mission_id: str) -> str:  # the mission card's name, not its id ("m29")
        try:
            return state.setup.card_name(mission_id)
        except KeyError:
            return mission_id

    tables: dict[int | None, list[TableBattle]] = {}
    for t in TableBattle.objects.filter(campaign=campaign).only(
        "id", "name", "campaign_turn", "system"
    ):
        tables.setdefault(t.campaign_turn, []).append(t)

    def links(key: str, mode: str, turn: int) -> list[dict[str, str]]:
        found = [battles_by_key.pop(key)] if key in battles_by_key else []
        out = [
            {"label": battle_label(b), "url": reverse("battle-report", args=[b.pk])} for b in found
        ]
        if mode == "table":
            out += [
                # issue 25: which rules it was played under
                {
                    "label": f"{t.name} (played under {t.get_system_display()})",
                    "url": reverse("table-battle", args=[t.pk]),
                }
                for t in tables.get(turn, [])
            ]
        return out

    rows = []
    for e in state.engagements:
        key = f"campaign:{campaign.pk}:turn{e['turn']}:{e['mission_id']}"
        mode = mode_of(key, e["mode"])
        rows.append({
            "turn": e["turn"], "mission": e["mission_id"], "mission_name": mission_name(e["mission_id"]),
            "mode": mode, "mode_words": ENGAGEMENT_MODES.get(mode, mode), "losses": len(e["losses"]),
            "kills": len(e["kills"]), "links": links(key, e["mode"], e["turn"]),
        })  # fmt: skip
    for key in list(battles_by_key):  # engine engagements not entered into the game yet
        turn = key.split(":")[2].removeprefix("turn")
        mode, mission_id = mode_of(key, "engine"), key.rsplit(":", 1)[1]
        battle = battles_by_key[key]  # its mission as the battle names it (no setup read)
        named = battle_mission_name(
            campaign, battle, scenario_name=str(getattr(battle, "scenario_name", None) or "")
        )
        rows.append({
            "turn": int(turn) if turn.isdigit() else None, "mission": mission_id, "mission_name": named,
            "mode": mode, "mode_words": ENGAGEMENT_MODES.get(mode, mode), "losses": None, "kills": None,
            "links": links(key, "engine", 0),
        })  # fmt: skip
    return rows[::-1]


def _pilot_json(record: CampaignPlane | None) -> dict[str, Any] | None:
    if record is None or record.pilot is None:
        return None
    p = record.pilot
    return {
        "id": p.pk,
        "name": str(p),
        "quality": p.quality,
        # issue 24: his quality as every page says it, with its scale
        "quality_words": quality_words(p),
        "experience_markers": p.experience_markers,
        "air_kills": p.air_kills,
    }


def campaign_planes(campaign: Campaign) -> QuerySet[CampaignPlane]:
    return campaign.planes.select_related("pilot", "aircraft_type")


def campaign_actions(campaign: Campaign) -> QuerySet[CampaignAction]:
    return campaign.actions.select_related("actor", "undone_by").order_by("sequence")


def plane_crews(campaign_ref: Any, plane_ids: set[str]) -> dict[str, dict[str, Any]]:
    """Who flew each of a campaign's planes (``campaign_ref``: its pk, or its name as
    the card game's carry-over entries give it): ``{plane id: {"pilot_id", "pilot",
    "aircraft"}}``. ``roster.campaign_hooks``' ``plane_crews``, so a kill on "allied-8"
    names its victim. One query."""
    key = (
        {"campaign_id": campaign_ref}
        if isinstance(campaign_ref, int)
        else {"campaign__name": campaign_ref}
    )
    rows = CampaignPlane.objects.filter(plane_id__in=plane_ids, **key).select_related(
        "pilot", "aircraft_type"
    )
    return {
        p.plane_id: {
            "pilot_id": p.pilot_id,
            "pilot": str(p.pilot) if p.pilot_id else "",
            "aircraft": p.aircraft_type.name,
        }
        for p in rows
    }


def squadron_aircraft(campaign: Any, squadron_id: int) -> list[dict[str, Any]]:
    """A squadron's aircraft in a campaign (issue 24): the card game's planes its pilots
    fly or flew there, by type, "in play" or "lost" (``CampaignPlane.left_turn``). Fills
    ``roster.campaign_hooks.CampaignHooks.campaign_aircraft``. One query."""
    rows = (
        CampaignPlane.objects.filter(campaign=campaign, pilot__squadron_id=squadron_id)
        .values("aircraft_type__name", "left_turn")
        .order_by("aircraft_type__name")
    )
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (row["aircraft_type__name"], "in play" if row["left_turn"] is None else "lost")
        counts[key] = counts.get(key, 0) + 1
    return [
        {"aircraft_type__name": name, "state": state, "n": n}
        for (name, state), n in sorted(counts.items())
    ]


def planes_in_play_by_squadron(campaign: Any) -> dict[int, int]:
    """How many of the campaign's planes in play each squadron's pilots fly. One query."""
    rows = (
        CampaignPlane.objects.filter(campaign=campaign, left_turn__isnull=True)
        .exclude(pilot=None)
        .values("pilot__squadron_id")
        .annotate(n=Count("id"))
    )
    return {row["pilot__squadron_id"]: row["n"] for row in rows}


def battle_plane_pilots(battle: Any, refs: set[str]) -> dict[str, dict[str, str]]:
    """The roster pilots of a campaign engagement's aircraft (``pilot_ref``
    ``plane:<plane id>``, campaign.engagements): ``roster.campaign_hooks``'
    ``battle_plane_pilots``. One query."""
    campaign_id = (battle.settings or {}).get("campaign")
    planes = {r.removeprefix("plane:") for r in refs if r.startswith("plane:")}
    if not isinstance(campaign_id, int) or not planes:
        return {}
    rows = CampaignPlane.objects.filter(
        campaign_id=campaign_id, plane_id__in=planes, pilot__isnull=False
    ).select_related("pilot")
    return {
        f"plane:{p.plane_id}": {"name": str(p.pilot), "url": reverse("pilot", args=[p.pilot_id])}
        for p in rows
    }

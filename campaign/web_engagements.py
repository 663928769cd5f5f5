"""Engagements flown by people in their browsers (resolution mode ``web``, issue 14).

A web engagement is an engine engagement (:mod:`campaign.engagements`: the same
scenario, the same seed from the campaign's seed, turn and mission, the same
result entered the same way) whose sides are seated to people through the
play-by-web seats (:mod:`battles.play`, ``settings["seats"]``) instead of
computer pilots:

- a side is flown by its commander (the first, if the organiser named several);
- a side with no person -- no commander (the organiser plays it), a side the
  computer commander plays (``computer_sides``, solo play), a commander on
  holiday -- is flown by the tactical computer pilot. With no person at all the
  battle is an ordinary engine battle, flown in the background.

Under a campaign pace each decision of the battle has a time (``settings["deadline"]``,
:func:`decision_minutes`), after which the side's computer pilot decides (battles.play).
Each seated commander is told (``MUST_ACT``, once per battle) that a battle
waits, with a link to its play page; the campaign page shows the same
(:func:`web_battles_view`, in ``templates/campaign/_web_battles.html``). When
the battle ends, ``battles.apply_result`` runs the campaign's hook
(:func:`campaign.engagements.engagement_battle_finished`), exactly as for an
engine battle: its kills and losses reach the game and the roster once.

Rulings: docs/rulings.md, "Web engagements".
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from angels.events import MUST_ACT, send_campaign_event
from battles.models import Battle, BattleStatus
from battles.play import battle_state, seats_of, user_sides
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.sides import AXIS_FIRST

from .engagements import WEB_MODE, battle_mission_name
from .models import Campaign, CampaignMember, Pace, Role
from .selectors import campaign_battles

COMPUTER_SEAT = {"pilot": "tactical"}
SIDES = AXIS_FIRST  # the engine's order, as the battle it flies (rules.sides)
DECISION_SHARE = 12  # a battle's decision gets this share of a campaign decision's time
MIN_DECISION_MINUTES = 15
WEEKLY_DECISION_MINUTES = 12 * 60


def web_seats(campaign: Campaign, *, now: datetime | None = None) -> dict[str, dict[str, Any]]:
    """Each side's seat in the campaign's web battle: its commander, or the tactical pilot."""
    now = now or timezone.now()
    computer = set(campaign.computer_sides or [])
    seats: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        commander = (
            CampaignMember.objects.filter(
                campaign=campaign, role=Role.COMMANDER, side=side, user__is_active=True
            )
            .order_by("pk")
            .first()
        )
        away = (
            commander is not None
            and commander.holiday_until is not None
            and commander.holiday_until > now
        )
        if side in computer or commander is None or away:
            seats[side] = dict(COMPUTER_SEAT)
        else:
            seats[side] = {"user": commander.user_id}
    return seats


def decision_minutes(campaign: Campaign) -> int | None:
    """The battle's time per decision under the campaign's pace (ruling "Web engagements:
    the time per decision"): a twelfth of the campaign's hours per decision, between 15
    minutes and a day; 12 hours under weekly turn days; none without a pace."""
    if campaign.pace == Pace.HOURS and campaign.pace_hours:
        return max(MIN_DECISION_MINUTES, min(24 * 60, campaign.pace_hours * 60 // DECISION_SHARE))
    if campaign.pace == Pace.WEEKLY:
        return WEEKLY_DECISION_MINUTES
    return None


def web_battle_settings(campaign: Campaign, settings: dict[str, Any]) -> dict[str, Any]:
    """An engine engagement's battle settings, its computer pilots replaced by the seats
    and, with a person seated and a campaign pace, a time per decision (``deadline``)."""
    rest = {k: v for k, v in settings.items() if k != "policies"}
    seats = web_seats(campaign)
    minutes = decision_minutes(campaign)
    if minutes is not None and any("user" in seat for seat in seats.values()):
        rest["deadline"] = {"minutes": minutes}
    return {**rest, "seats": seats}


def web_battle_announce(campaign: Campaign, battle: Battle) -> None:
    """Tell each side flown by a person that the battle waits for them (once per battle)."""
    if battle.status != BattleStatus.IN_PLAY:
        return
    url = reverse("battle-play", args=[battle.pk])
    mission = battle_mission_name(campaign, battle)
    for side, seat in seats_of(battle).items():
        if "user" not in seat:
            continue
        send_campaign_event(
            campaign_id=campaign.pk, kind=MUST_ACT, side=side, key=f"web_battle:{battle.pk}:{side}",
            text=f"{campaign.name}: the battle for {mission} waits for you ({side}): fly it in your browser.",
            url=url,
        )  # fmt: skip


def web_battles_view(
    campaign: Campaign, user: Any, *, battles: list[Battle] | None = None
) -> dict[str, Any]:
    """The campaign's battles flown by people, for the campaign page: the ones in play
    first (whose decision, and whether it is ``user``'s), then the finished ones.

    ``battles``: the campaign's, as :func:`campaign.selectors.campaign_battles` reads them
    (read here when not given). Besides them, one query for the seated people's names and,
    with battles in play, one for those battles' scenarios and moves (whose decision it is):
    the same number however many battles the campaign has."""
    if battles is None:
        battles = campaign_battles(campaign)
    seated = sorted((b for b in battles if seats_of(b)), key=lambda b: b.pk, reverse=True)
    ids = {seat["user"] for b in seated for seat in seats_of(b).values() if "user" in seat}
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    in_play = [b.pk for b in seated if b.status == BattleStatus.IN_PLAY]
    flying = (
        {b.pk: b for b in Battle.objects.filter(pk__in=in_play).defer("log")} if in_play else {}
    )
    rows = []
    for battle_row in seated:
        # annotated by campaign_battles: scenario_name, result_in, result_winner
        b: Any = battle_row
        turn = b.source_key.split(":")[2]
        row: dict[str, Any] = {
            "id": b.pk,
            "mission": battle_mission_name(campaign, b, scenario_name=b.scenario_name or ""),
            "turn": turn.removeprefix("turn"),
            "in_play": b.pk in flying,
            "status": b.get_status_display(),
            "play_url": reverse("battle-play", args=[b.pk]),
            "report_url": reverse("battle-report", args=[b.pk]),
            "seats": {
                side: names.get(seat["user"], "a former user")
                if "user" in seat
                else "the tactical computer pilot"
                for side, seat in seats_of(b).items()
            },
            "yours": False,
            "your_turn": False,
            "to_act": None,
        }
        if row["in_play"]:  # whose decision: the state alone, not the whole turn view
            battle = flying[b.pk]
            state = battle_state(battle)
            side = state.current_side()
            to_act = ENGINE_SIDES[side] if side is not None else None
            mine = user_sides(battle, user)
            row.update(yours=bool(mine), your_turn=to_act in mine, to_act=to_act,
                       game_turn=state.turn)  # fmt: skip
        elif b.result_in:  # (campaign_battles reads these instead of the result)
            row["winner"] = b.result_winner or "nobody"
        rows.append(row)
    return {
        "mode_web": campaign.resolution_mode == WEB_MODE,
        "waiting": [r for r in rows if r["in_play"]],
        "yours_waiting": [r for r in rows if r["your_turn"]],
        "finished": [r for r in rows if not r["in_play"]][:10],
    }

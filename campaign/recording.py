"""Recording a campaign action: the one write every game action goes through.

A player's action (:func:`campaign.services.campaign_act`), the product's own
umpire entry of a battle's result (:func:`campaign.services.campaign_umpire_act`)
and the clock's automatic actions (:mod:`campaign.clock`) are each the same
steps, in this order, inside the campaign row's lock: apply the action to the
game, write the action's row, store the new state under the version read with
the lock, bring the planes in play on the roster up to date, and do what the
action set off (results announced, a new turn begun, the end of the campaign,
the next engagement's battle). :func:`action_record` does them; the callers
check who may act and what, and call the clock afterwards.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import F

from angels.errors import RuleViolation
from angels.events import BATTLE_RESULT, CAMPAIGN_END, send_campaign_event
from careers.services import campaign_turn_begin
from rules.cardgame import Action, GameState, RuleError, action_to_json
from rules.cardgame.engagement import FLAK
from rules.sides import ALLIED_FIRST

from .enrolment import enrolment_release
from .models import ActionKind, Campaign, CampaignAction, CampaignStatus
from .pilot_experience import pilot_experience_bring
from .planes import sync_planes

SIDES = ALLIED_FIRST  # the card game's order (rules.sides)


def _moved_on(since: int) -> str:
    """A stale page's refusal in words: how far the game went on since it was loaded (the
    version itself stays a hidden field of the forms)."""
    if since > 0:
        steps = "1 change" if since == 1 else f"{since} changes"
        return (
            f"the campaign has moved on ({steps} since you loaded the page): reload and try again"
        )
    return "the campaign has moved on since you loaded the page: reload and try again"


def campaign_locked(campaign_id: int, version: int | None) -> Campaign:
    """The campaign row, locked (``select_for_update``: call inside ``atomic()``), at the
    version the caller acted on when it names one."""
    campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if campaign is None:
        raise RuleViolation(f"no campaign with id {campaign_id}", field="campaign", code="exists")
    if version is not None and version != campaign.version:
        raise RuleViolation(
            _moved_on(campaign.version - version),
            field="version",
            code="conflict",
        )
    return campaign


def next_sequence(campaign: Campaign) -> int:
    last = campaign.actions.order_by("-sequence").values_list("sequence", flat=True).first()
    return (last or 0) + 1


def state_save(campaign: Campaign, state: GameState, expected_version: int) -> None:
    """Write the new state, guarded by the version read under the lock."""
    denormalise(campaign, state)
    updated = Campaign.objects.filter(pk=campaign.pk, version=expected_version).update(
        state=state.to_json(),
        version=F("version") + 1,
        status=campaign.status,
        winner=campaign.winner,
        turn=campaign.turn,
        phase=campaign.phase,
        current_side=campaign.current_side,
    )
    if updated != 1:  # only reachable where the lock is not real (never on PostgreSQL)
        raise RuleViolation(
            "the campaign changed while this action was applied",
            field="version",
            code="conflict",
        )
    campaign.version = expected_version + 1
    campaign.state = state.to_json()


def denormalise(campaign: Campaign, state: GameState) -> None:
    campaign.turn = state.turn
    campaign.phase = state.phase if not state.step else f"{state.phase}:{state.step}"
    campaign.current_side = state.current_side() or ""
    if state.is_over():
        campaign.status = CampaignStatus.FINISHED
        campaign.winner = state.winner or ""


def action_record(
    campaign: Campaign,
    state: GameState,
    action: Action,
    *,
    user: User | None,
    actor: str,
    reason: str = "",
) -> int:
    """Apply ``action`` (already checked by the caller) and record it; the action's sequence.

    ``user`` is the person who acted (none for the product's own actions), ``actor``
    the name the roster's notes give, ``reason`` why the product acted. The caller
    holds the campaign's lock (:func:`campaign_locked`); a rule the game refuses is a
    :class:`RuleViolation` naming it and nothing is written.
    """
    before_version, turn, phase = campaign.version, state.turn, state.phase
    resolved = len(state.engagements)
    try:
        state.apply(action)
    except RuleError as exc:
        raise RuleViolation(exc.message, field="action", rule=exc.rule) from exc
    sequence = next_sequence(campaign)
    CampaignAction.objects.create(
        campaign=campaign,
        sequence=sequence,
        kind=ActionKind.PLAY,
        side=action.side,
        payload=action_to_json(action),
        actor=user,
        reason=reason,
        turn=turn,
        phase=phase,
    )
    state_save(campaign, state, before_version)
    assigned = sync_planes(campaign, state, actor=actor, action=sequence)
    if pilot_experience_bring(campaign, state, assigned, action=sequence) is not None:
        state_save(campaign, state, campaign.version)
    _after_action(campaign, state, turn_before=turn, actor=actor, engagements_before=resolved)
    return sequence


def _after_action(
    campaign: Campaign, state: GameState, *, turn_before: int, actor: str, engagements_before: int
) -> None:
    from .engagements import engagement_battle_ensure

    _announce_results(campaign, state, engagements_before)
    if state.turn > turn_before:
        # roster hook: wounded pilots due back return, squadrons draft replacements
        campaign_turn_begin(campaign=campaign, campaign_turn=state.turn, recorded_by=actor)
    if campaign.status == CampaignStatus.FINISHED:
        send_campaign_event(
            campaign_id=campaign.pk,
            kind=CAMPAIGN_END,
            key=f"campaign_end:{campaign.pk}:{campaign.winner}",
            text=f"{campaign.name} is over: {campaign.winner or 'nobody'} won.",
            url=f"/campaigns/{campaign.pk}/",
        )
        enrolment_release(campaign=campaign, actor=actor)  # back to the free roster (issue 12)
        return
    engagement_battle_ensure(campaign=campaign, state=state)


def _announce_results(campaign: Campaign, state: GameState, engagements_before: int) -> None:
    """The battle_result event for each engagement the action resolved with the cards or on
    the table (an engine or web engagement's battle sends its own, linked to the battle)."""
    for index, e in enumerate(state.engagements[engagements_before:], start=engagements_before):
        mode = e.get("mode", "card")
        if mode not in ("card", "table"):
            continue
        mission = e.get("mission_id", "")
        send_campaign_event(
            campaign_id=campaign.pk,
            kind=BATTLE_RESULT,
            key=f"battle_result:campaign:{campaign.pk}:engagement:{index}:turn{e.get('turn')}:{mission}",
            text=engagement_result_text(campaign, state, e),
            url=f"/campaigns/{campaign.pk}/",
        )


def engagement_result_text(campaign: Campaign, state: GameState, e: dict[str, Any]) -> str:
    """An engagement's result in one sentence, as the players and the campaign's webhook
    read it: the mission by name, each side's planes lost, shot down by fighters (and by
    flak: its kills are not the fighters') and lost in all."""
    how = "with the cards" if e.get("mode", "card") == "card" else "on the table"
    mission = e.get("mission_id", "")
    spec = state.setup.mission_cards.get(mission)
    name = spec.name if spec is not None else mission
    losses = list(e.get("losses", ()))
    sides = [
        (state.lost.get(p) or state.planes.get(p) or {}).get("side", p.split("-")[0])
        for p in losses
    ]
    lost = ", ".join(f"{side} lost {sides.count(side)}" for side in SIDES)
    kills = [k for k in e.get("kills", ()) if k.get("shooter_id") != FLAK]
    flak = len(e.get("kills", ())) - len(kills)
    by_flak = f", {flak} by flak" if flak else ""
    return (
        f"{campaign.name}: the engagement for {name} was fought {how}: {lost} "
        f"({len(kills)} shot down by fighters{by_flak}, {len(losses)} lost in all)."
    )

"""Play the demo campaign a few turns forward, so a new user finds every page filled.

Both sides are played by a fixed-seed random player that passes half the time
it may and always scrambles its fighters; the organiser hands the first two
interceptions to the engine (the umpire's per-mission override), the others
are resolved by the card game's rolls. Everything goes through the same
services a player's request does.
"""

from __future__ import annotations

import random
from typing import Any

from django.db import transaction

from angels.background import inline
from battles.models import Battle, BattleStatus
from battles.services import battle_apply, battle_run
from campaign.models import Campaign
from campaign.services import campaign_act
from rules.cardgame import GameState, action_to_json
from rules.cardgame.state import SCRAMBLE

ENGINE_ENGAGEMENTS = 2


@inline()  # flown here, in order, not by the web process's background threads
def demo_campaign_play(
    *, campaign: Campaign, organiser, until_turn: int = 6, seed: int = 1941
) -> int:
    """Play until the campaign reaches ``until_turn``; does nothing if it was played before.

    Returns the number of actions taken.
    """
    if campaign.actions.filter(actor__isnull=False).exists():  # (automatic ones have no actor)
        return 0
    rng = random.Random(seed)
    engine_left = ENGINE_ENGAGEMENTS
    taken = 0
    for _ in range(5000):
        campaign.refresh_from_db()
        if campaign.status == "finished" or campaign.turn >= until_turn:
            break
        state = GameState.from_json(campaign.state)
        mission = state.current_mission
        if (
            engine_left
            and state.step == SCRAMBLE
            and mission
            and mission not in state.mode_overrides
        ):
            action = {"type": "mode", "mission": mission, "mode": "engine", "side": "umpire"}
            engine_left -= 1
        else:
            actions = state.legal_actions()
            if not actions:  # waiting for the engine battle of this engagement
                if not _fly_waiting_battle(campaign):
                    break  # queued on a real broker: the workers will fly it
                continue
            action = action_to_json(stand_in_choice(actions, rng))
        with transaction.atomic():
            campaign_act(
                campaign_id=campaign.pk, user=organiser, version=campaign.version, action=action,
                umpire_reason="stand-in commander",
            )  # fmt: skip
        taken += 1
    return taken


def stand_in_choice(
    actions: list[Any], rng: random.Random, *, assign: float = 0.7, advance: float = 0.6
) -> Any:
    """A stand-in commander's pick among the legal actions: scramble whenever he may (so
    engagements have two sides), else assign a plane (chance ``assign``), else advance
    (chance ``advance``), else anything. The demo and the tests' campaigns play with it."""
    scrambles = [a for a in actions if a.kind == "scramble"]
    if scrambles:
        return scrambles[0]
    assigns = [a for a in actions if a.kind == "assign"]
    if assigns and rng.random() < assign:
        return rng.choice(assigns)
    advances = [a for a in actions if a.kind == "advance"]
    if advances and rng.random() < advance:
        return advances[0]
    return rng.choice(actions)


def _fly_waiting_battle(campaign: Campaign) -> bool:
    """In embedded mode, fly the pending engagement battle and apply its result now (both
    steps are idempotent, so their own tasks after commit then find nothing to do)."""
    from django.conf import settings

    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    battle = Battle.objects.filter(
        source_key__startswith=f"campaign:{campaign.pk}:", status=BattleStatus.PENDING
    ).first()
    if battle is None or not battle_run(battle_id=battle.pk):
        return False
    # and hand the result on now (idempotent: the apply task after commit finds it applied)
    battle_apply(battle_id=battle.pk)
    return True

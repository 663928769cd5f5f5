"""Engagements resolved by the Angels 20 engine: the campaign hands the interception
to a battle, enters its result, and the kills reach the pilots' careers."""

import random

import pytest

from battles.models import Battle
from campaign import services
from campaign.models import CampaignAction
from careers.models import PilotEvent
from demo.campaign import stand_in_choice
from demo.roster import demo_roster_create
from roster.models import Squadron
from rules.cardgame import GameState, action_to_json

pytestmark = pytest.mark.django_db


def _play_until_an_engine_battle(campaign, user, capture, max_actions=1500):
    rng = random.Random(campaign.seed)
    for _ in range(max_actions):
        campaign.refresh_from_db()
        if Battle.objects.filter(
            source_key__startswith=f"campaign:{campaign.pk}:", status="finished"
        ).exists():
            return True
        if campaign.status == "finished":
            return False
        state = GameState.from_json(campaign.state)
        actions = state.legal_actions()
        # defenders scramble whenever they can, so engagements have two sides
        action = stand_in_choice(actions, rng)
        with capture(execute=True):
            services.campaign_act(
                campaign_id=campaign.pk,
                user=user,
                version=campaign.version,
                action=action_to_json(action),
                umpire_reason="the test plays both sides",
            )
    return False


def engine_war_until_a_battle(organiser, capture):
    """The demo roster, an engine-mode campaign of all its squadrons (seed 4), played by
    stand-in commanders until its first engine battle is flown; returns the campaign."""
    demo_roster_create()
    campaign = services.campaign_create(
        name="Engine war", created_by=organiser, seed=4, resolution_mode="engine",
        squadrons=list(Squadron.objects.all()),
        # the stand-in commanders advance every phase themselves: seed 4's play (and its
        # first battle, with a kill) was chosen so, before phases advanced by themselves
        auto_advance=False,
    )  # fmt: skip
    assert _play_until_an_engine_battle(campaign, organiser, capture)
    return campaign


def test_an_engine_engagement_is_flown_and_its_kills_reach_the_pilots(
    catalog, users, django_capture_on_commit_callbacks, client
):
    campaign = engine_war_until_a_battle(users["organiser"], django_capture_on_commit_callbacks)
    battle = (
        Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")
        .order_by("pk")
        .first()
    )
    assert battle.scenario == "engagement" and battle.status == "finished"
    # the result went back into the game as the umpire's recorded action, and the game moved on
    entered = CampaignAction.objects.filter(campaign=campaign, payload__type="result")
    assert entered.exists()
    campaign.refresh_from_db()
    state = GameState.from_json(campaign.state)
    assert any(e["mode"] == "engine" for e in state.engagements)
    # the record still replays to the stored state
    assert services.campaign_replay(campaign).to_json() == campaign.state
    # every kill of the battle is on its pilot's career, linked to the battle report
    kills = battle.result["kills"]
    assert kills, "with seed 4 the first engine battle has a kill"
    events = PilotEvent.objects.filter(
        kind="kill", applied_result__source_key=f"battle:{battle.pk}"
    )
    assert events.count() == len(kills)
    leaderboard = client.get(f"/aces/?campaign={campaign.pk}").content.decode()
    for event in events:
        page = client.get(f"/pilots/{event.pilot_id}/").content.decode()
        assert f"/battles/{battle.pk}/" in page
        assert event.pilot.name in leaderboard
    losses = [a for a in battle.result["aircraft"] if a["fate"] == "destroyed"]
    shot_down = PilotEvent.objects.filter(
        kind="shot_down", applied_result__source_key=f"battle:{battle.pk}"
    )
    assert shot_down.count() == len(losses)

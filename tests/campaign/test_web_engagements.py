"""Engagements flown by people (resolution mode "web", issue 14): the interception becomes
a battle seated to the two commanders, flown through the turn API, and its result enters
the game and the roster once, like an engine battle's."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from angels.errors import RuleViolation
from battles.models import Battle, BattleStatus
from battles.play import battle_state, hand_over, settings_with_seats, turn_act
from battles.services import battle_apply, seed_visible
from campaign import services
from campaign.engagements import engagement_seed
from campaign.models import Campaign, CampaignAction, CampaignMember
from campaign.web_engagements import COMPUTER_SEAT, web_battle_settings, web_seats
from careers.models import PilotEvent
from demo.campaign import stand_in_choice
from demo.roster import demo_roster_create
from notifications.models import Notification
from roster.models import Squadron
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.cardgame import GameState, action_to_json
from rules.cardgame.engagement import STANDARD_RESOLUTION

pytestmark = pytest.mark.django_db
SEED = 4
MORE_BATTLES = 4


def campaign_battles(campaign):
    return Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")


def play_until_a_web_battle(campaign, user, max_actions=1500):
    """Stand-in commanders (the organiser acting) until the game waits on a battle in play."""
    rng = random.Random(campaign.seed)
    for _ in range(max_actions):
        battle = campaign_battles(campaign).filter(status=BattleStatus.IN_PLAY).first()
        if battle is not None:
            return battle
        campaign.refresh_from_db()
        assert campaign.status != "finished"
        action = stand_in_choice(GameState.from_json(campaign.state).legal_actions(), rng)
        services.campaign_act(
            campaign_id=campaign.pk, user=user, version=campaign.version,
            action=action_to_json(action), umpire_reason="stand-in commanders",
        )  # fmt: skip
    raise AssertionError("no web battle")


def web_war(users, *, name="Web war", seed=SEED, invite=True):
    demo_roster_create()
    campaign = services.campaign_create(
        name=name, created_by=users["organiser"], seed=seed, resolution_mode="web",
        squadrons=list(Squadron.objects.all()),
    )  # fmt: skip
    if invite:
        for side in ("axis", "allied"):
            services.campaign_member_set(
                campaign=campaign, by=users["organiser"], user=users[side], role="commander",
                side=side,
            )  # fmt: skip
    return campaign


def fly_to_the_end(battle, users):
    """The side to act decides once by the turn API (its tactical pilot's choice), then each
    commander hands the side to the tactical pilot, which flies the rest at once."""
    battle.refresh_from_db()
    side = ENGINE_SIDES[battle_state(battle).current_side()]
    turn_act(battle_id=battle.pk, user=users[side], version=battle.version, computer="tactical")
    for side in ("axis", "allied"):
        battle.refresh_from_db()
        if battle.status == BattleStatus.IN_PLAY:
            hand_over(battle_id=battle.pk, user=users[side], side=side)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED


def _refused(code, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        turn_act(computer="tactical", **kwargs)
    assert caught.value.code == code
    return caught.value


def test_a_web_engagement_is_flown_by_the_two_commanders(
    catalog, users, django_capture_on_commit_callbacks, client
):
    campaign = web_war(users)
    with django_capture_on_commit_callbacks(execute=True):
        battle = play_until_a_web_battle(campaign, users["organiser"])
    # seated to the two commanders, seeded as an engine battle from the campaign's seed
    assert battle.settings["seats"] == {
        "axis": {"user": users["axis"].pk},
        "allied": {"user": users["allied"].pk},
    }
    name = battle.source_key.split(":", 2)[2]
    assert battle.seed == engagement_seed(campaign.seed, name)
    # the mission is named in the battle's settings when it is created
    mission = battle.settings["mission"]
    assert mission["id"] == name.rsplit(":", 1)[1]
    assert battle.setup["name"] == f"{campaign.name}: {mission['name']} (turn {campaign.turn})"
    assert battle.scenario == "engagement" and battle.status == BattleStatus.IN_PLAY
    # each commander is told once, with a link to the play page
    for side in ("axis", "allied"):
        note = Notification.objects.get(user=users[side], kind="must_act", url__contains="/play/")
        assert note.url == f"/battles/{battle.pk}/play/"
        assert f"the battle for {mission['name']} waits for you ({side})" in note.text
    # (read from the settings: a campaign renamed since still names the mission)
    Campaign.objects.filter(pk=campaign.pk).update(name="Web war, renamed")
    # the campaign page tells the one whose decision it is, and links both to the battle
    first = ENGINE_SIDES[battle_state(battle).current_side()]
    other = "allied" if first == "axis" else "axis"
    for side in (first, other):
        client.force_login(users[side])
        page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
        assert ("Your battle waits" in page) == (side == first)
        assert f"<em>{mission['name']}</em>, campaign turn" in page
        assert f'href="/battles/{battle.pk}/play/"' in page
        play_page = client.get(f"/battles/{battle.pk}/play/").content.decode()
        assert f'<a href="/campaigns/{campaign.pk}/">Back to the campaign</a>' in play_page
    # refusals, nothing changed: the organiser is not in a seat, the other side waits its turn
    version = battle.version
    _refused("permission", battle_id=battle.pk, user=users["organiser"], version=version)
    refusal = _refused("state", battle_id=battle.pk, user=users[other], version=version)
    assert refusal.field == "action"
    battle.refresh_from_db()
    assert battle.version == version
    # the seed stays hidden from its players while it is flown, even from a seated organiser
    assert not seed_visible(battle, users[first])

    with django_capture_on_commit_callbacks(execute=True):
        fly_to_the_end(battle, users)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED and battle.applied_at is not None
    assert not battle_apply(battle_id=battle.pk)  # the result is handed on once
    mission = name.rsplit(":", 1)[1]
    entered = [
        a
        for a in CampaignAction.objects.filter(campaign=campaign, payload__type="result")
        if f'"mission_id": "{mission}"' in a.payload["result"]
    ]
    assert len(entered) == 1 and '"mode": "web"' in entered[0].payload["result"]
    campaign.refresh_from_db()
    assert services.campaign_replay(campaign).to_json() == campaign.state
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Your battle waits" not in page and f'href="/battles/{battle.pk}/"' in page
    # a battle with a kill (seed 4's first has one; should the campaign's flow change, the
    # next web battles are flown until one has): each kill on its pilot's page, linked
    for _ in range(MORE_BATTLES):
        if battle.result["kills"]:
            break
        with django_capture_on_commit_callbacks(execute=True):
            battle = play_until_a_web_battle(campaign, users["organiser"])
            fly_to_the_end(battle, users)
    kills = battle.result["kills"]
    assert kills, f"none of {MORE_BATTLES + 1} web battles had a kill"
    events = PilotEvent.objects.filter(
        kind="kill", applied_result__source_key=f"battle:{battle.pk}"
    )
    assert events.count() == len(kills)
    for event in events:
        assert f"/battles/{battle.pk}/" in client.get(f"/pilots/{event.pilot_id}/").content.decode()


def test_a_side_without_a_person_is_flown_by_the_tactical_pilot(catalog, users):
    campaign = web_war(users, invite=False)
    assert web_seats(campaign) == {"axis": COMPUTER_SEAT, "allied": COMPUTER_SEAT}
    services.campaign_member_set(
        campaign=campaign, by=users["organiser"], user=users["axis"], role="commander", side="axis"
    )
    services.campaign_member_set(
        campaign=campaign, by=users["organiser"], user=users["allied"], role="commander",
        side="allied",
    )  # fmt: skip
    now = timezone.now()
    CampaignMember.objects.filter(campaign=campaign, side="axis").update(
        holiday_until=now + timedelta(days=3)
    )
    assert web_seats(campaign, now=now) == {
        "axis": COMPUTER_SEAT,
        "allied": {"user": users["allied"].pk},
    }
    assert web_seats(campaign, now=now + timedelta(days=4))["axis"] == {"user": users["axis"].pk}
    Campaign.objects.filter(pk=campaign.pk).update(computer_sides=["allied"])
    campaign.refresh_from_db()
    assert web_seats(campaign, now=now)["allied"] == COMPUTER_SEAT
    Campaign.objects.filter(pk=campaign.pk).update(computer_sides=[])
    CampaignMember.objects.filter(campaign=campaign, side="axis").update(holiday_until=None)
    campaign.refresh_from_db()
    # under a campaign pace each decision has a time: a twelfth of the campaign's, at least 15 min
    Campaign.objects.filter(pk=campaign.pk).update(pace="hours", pace_hours=48)
    campaign.refresh_from_db()
    settings, by_people = settings_with_seats(web_battle_settings(campaign, {"policies": {}}))
    assert by_people and settings["deadline"] == {"seconds": 4 * 3600}
    Campaign.objects.filter(pk=campaign.pk).update(pace_hours=1)
    campaign.refresh_from_db()
    assert web_battle_settings(campaign, {})["deadline"] == {"minutes": 15}
    # no person in either seat: an ordinary engine battle, flown in the background
    CampaignMember.objects.filter(campaign=campaign, role="commander").delete()
    settings, by_people = settings_with_seats(web_battle_settings(campaign, {"policies": {}}))
    assert (
        not by_people
        and "deadline" not in settings
        and settings["policies"] == {"axis": "tactical", "allied": "tactical"}
    )


def test_the_organiser_chooses_the_web_mode_page_and_api(catalog, users, client):
    client.force_login(users["organiser"])
    assert 'value="web"' in client.get("/campaigns/").content.decode()
    answer = client.post(
        "/api/campaigns/create/", {"name": "By web", "resolution_mode": "web"},
        content_type="application/json",
    )  # fmt: skip
    assert answer.status_code == 201, answer.content
    campaign = Campaign.objects.get(name="By web")
    assert campaign.resolution_mode == "web" and campaign.setup["engagement_mode"] == "web"
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Battles flown in the browser" in page and "No battle waits" in page
    bad = client.post(
        "/api/campaigns/create/", {"name": "By pigeon", "resolution_mode": "pigeon"},
        content_type="application/json",
    )  # fmt: skip
    assert bad.status_code == 400 and bad.json()["field"] == "resolution_mode"
    # a mission's engagement may be switched to web by the umpire (mode_overrides)
    assert "web" in STANDARD_RESOLUTION.modes


def test_the_organiser_switches_one_mission_to_web(catalog, users, client):
    """A card campaign's mission switched to web by the umpire's mode action (mode_overrides)."""
    campaign = services.campaign_create(name="Cards", created_by=users["organiser"], seed=SEED)
    rng = random.Random(SEED)
    for _ in range(300):
        campaign.refresh_from_db()
        state = GameState.from_json(campaign.state)
        if state.missions_in_play:
            break
        action = stand_in_choice(state.legal_actions(), rng)
        services.campaign_act(
            campaign_id=campaign.pk, user=users["organiser"], version=campaign.version,
            umpire_reason="the test plays both sides",
            action=action_to_json(action),
        )  # fmt: skip
    mission = state.missions_in_play[0]
    client.force_login(users["organiser"])

    def switch(mode):
        campaign.refresh_from_db()
        return client.post(
            f"/api/campaigns/{campaign.pk}/actions/",
            {"version": campaign.version, "action": {"type": "mode", "mission": mission, "mode": mode, "side": "umpire"}},
            content_type="application/json",
        )  # fmt: skip

    bad = switch("pigeon")
    assert bad.status_code == 400 and bad.json()["field"] == "action"
    assert "pigeon" in bad.json()["detail"]
    assert switch("web").status_code == 200
    campaign.refresh_from_db()
    assert GameState.from_json(campaign.state).mode_overrides == {mission: "web"}

"""A new campaign waits for its people (issue 24 §3): created from the page or the API it
gathers its commanders, plays nothing, runs no deadline and refuses game actions until
the organiser starts it; then it is played as before."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign import clock
from campaign.models import Campaign, CampaignAction, CampaignStatus

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def gathering(catalog, users) -> Campaign:
    organiser = _client(users["organiser"])
    response = organiser.post(
        "/api/campaigns/create/",
        {"name": "Malta 1942", "seed": 11, "resolution_mode": "card"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["campaign"]["status"] == "gathering"
    campaign = Campaign.objects.get(name="Malta 1942")
    for side in ("allied", "axis"):
        answer = organiser.post(
            f"/api/campaigns/{campaign.pk}/members/",
            {"username": users[side].username, "role": "commander", "side": side},
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.content
        # issue 23: nobody is a commander until they accept the invitation
        accepted = _client(users[side]).post(
            f"/api/invitations/{answer.json()['id']}/answer/",
            {"accept": True},
            content_type="application/json",
        )
        assert accepted.status_code == 200, accepted.content
    return campaign


def test_a_new_campaign_plays_nothing_and_runs_no_deadline(gathering):
    gathering.refresh_from_db()
    assert gathering.status == CampaignStatus.GATHERING
    assert not CampaignAction.objects.filter(campaign=gathering).exists()
    assert gathering.decision_due_at is None and gathering.decision_side == ""
    # the clock's watch finds nothing to do for it
    clock.watch_deadlines()
    assert not CampaignAction.objects.filter(campaign=gathering).exists()


def test_a_game_action_before_the_start_is_refused_with_nothing_stored(gathering, users):
    side = gathering.current_side
    response = _client(users[side]).post(
        f"/api/campaigns/{gathering.pk}/actions/",
        {"version": gathering.version, "action": {"type": "advance", "side": side}},
        content_type="application/json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "state" and "has not started" in body["detail"]
    gathering.refresh_from_db()
    assert gathering.version == 0 and not gathering.actions.exists()


def test_only_the_organiser_starts_it_and_then_it_is_played(gathering, users):
    refused = _client(users["allied"]).post(f"/api/campaigns/{gathering.pk}/start/")
    assert refused.status_code == 403
    gathering.refresh_from_db()
    assert gathering.status == CampaignStatus.GATHERING

    started = _client(users["organiser"]).post(f"/api/campaigns/{gathering.pk}/start/")
    assert started.status_code == 200, started.content
    assert started.json()["campaign"]["status"] == "active"
    gathering.refresh_from_db()
    assert gathering.status == CampaignStatus.ACTIVE
    # the clock now awaits the side to act, as in any started campaign
    assert gathering.decision_side == gathering.current_side != ""

    again = _client(users["organiser"]).post(f"/api/campaigns/{gathering.pk}/start/")
    assert again.status_code == 400 and "already started" in again.json()["detail"]


def test_the_page_shows_the_wait_and_the_organiser_starts_it_there(gathering, users):
    page = _client(users["organiser"]).get(f"/campaigns/{gathering.pk}/").content.decode()
    assert "Gathering commanders" in page and "Start the campaign" in page
    commander_page = _client(users["axis"]).get(f"/campaigns/{gathering.pk}/").content.decode()
    assert "has not started yet" in commander_page and "Start the campaign" not in commander_page

    response = _client(users["organiser"]).post(f"/campaigns/{gathering.pk}/start/")
    assert response.status_code == 302
    gathering.refresh_from_db()
    assert gathering.status == CampaignStatus.ACTIVE
    page = _client(users["organiser"]).get(f"/campaigns/{gathering.pk}/").content.decode()
    assert "Gathering commanders" not in page and "Turn 1" in page

"""The campaign through its REST API: permissions, hidden information, whole games."""

import json
import random
from collections import Counter

import pytest

from campaign.models import Campaign, CampaignAction
from rules.cardgame import GameState
from tests.errors import reason

pytestmark = pytest.mark.django_db


def _client_for(client_factory, user):
    client = client_factory()
    client.force_login(user)
    return client


@pytest.fixture
def clients(users):
    from django.test import Client

    return {name: _client_for(Client, user) for name, user in users.items()}


def _card_locations(state: GameState) -> Counter:
    where = Counter()
    for side in ("allied", "axis"):
        where.update(state.plane_deck[side])
        where.update(state.plane_discard[side])
        where.update(state.hands[side])
    where.update(p["card"] for p in state.planes.values())
    where.update(state.mission_deck)
    where.update(state.mission_discard)
    where.update(state.missions_in_play)
    where.update(state.event_deck)
    where.update(state.event_discard)
    return where


def _assert_hidden(state: GameState, body: dict, viewer: str | None, log_since: int = 0) -> None:
    """No card of another side's hand and no deck order in what ``viewer`` got.

    Only the log entries written since ``log_since`` are checked: an old entry
    may name a card that was played, reshuffled and drawn again since.
    """
    text = json.dumps({k: v for k, v in body.items() if k != "log"}) + json.dumps(
        body.get("log", [])[log_since:]
    )
    for side in ("allied", "axis"):
        if side == viewer:
            continue
        for card in state.hands[side]:
            assert f'"{card}"' not in text, f"{side}'s hand card {card} leaked to {viewer}"
    for deck in (
        state.event_deck,
        state.mission_deck,
        state.plane_deck["allied"],
        state.plane_deck["axis"],
    ):
        if len(deck) >= 2:
            assert json.dumps(deck[:2])[1:-1] not in text, "deck order leaked"


def test_create_a_campaign_through_the_api(clients, catalog):
    response = clients["organiser"].post(
        "/api/campaigns/create/",
        {"name": "Malta 1942", "seed": 11, "resolution_mode": "card"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["campaign"]["name"] == "Malta 1942"
    assert body["pp"] == {"allied": 10, "axis": 10}
    assert body["you"]["role"] == "organiser"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "X", "resolution_mode": "dice"}, "resolution_mode"),
        ({"name": "X", "squadrons": [9999]}, "squadrons"),
    ],
)
def test_bad_campaign_input_is_a_400_naming_the_field(clients, catalog, payload, field):
    response = clients["organiser"].post(
        "/api/campaigns/create/", payload, content_type="application/json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == field and body["errors"][0]["field"] == field
    assert not Campaign.objects.exists()


def test_anonymous_users_cannot_act(client, campaign):
    response = client.post(
        f"/api/campaigns/{campaign.pk}/actions/",
        {"version": 0, "action": {"type": "advance", "side": "allied"}},
        content_type="application/json",
    )
    assert response.status_code == 401  # not signed in (a token, a session or Basic credentials)
    assert response.json()["code"] == "not_authenticated"


def test_acting_for_the_other_side_is_a_403_naming_the_field(clients, campaign):
    other = "axis" if campaign.current_side == "allied" else "allied"
    response = clients[other].post(
        f"/api/campaigns/{campaign.pk}/actions/",
        {"version": campaign.version, "action": {"type": "advance", "side": campaign.current_side}},
        content_type="application/json",
    )
    assert response.status_code == 403 and response.json()["field"] == "side"
    assert reason(response.json()) == "permission"
    assert not CampaignAction.objects.exists()


def test_each_side_sees_its_own_hand_only(clients, campaign):
    state = GameState.from_json(campaign.state)
    # play the Event phase: the first side draws two event cards
    clients["organiser"].post(
        f"/api/campaigns/{campaign.pk}/actions/",
        {
            "version": 0,
            "action": {"type": "advance", "side": campaign.current_side},
            "umpire_reason": "the test plays both sides",
        },
        content_type="application/json",
    )
    campaign.refresh_from_db()
    state = GameState.from_json(campaign.state)
    for viewer in ("allied", "axis", "spectator"):
        response = clients[viewer].get(f"/api/campaigns/{campaign.pk}/")
        assert response.status_code == 200
        body = response.json()
        if viewer == "spectator":
            assert body["hand"] is None
        else:
            assert [c["id"] for c in body["hand"]] == state.hands[viewer]
        _assert_hidden(state, body, None if viewer == "spectator" else viewer)


def _play_to_the_end(campaign, clients, seed: int, max_actions: int) -> GameState:
    rng = random.Random(seed)
    expected_cards = None
    log_seen = {"allied": 0, "axis": 0}
    for _ in range(max_actions):
        campaign.refresh_from_db()
        if campaign.status == "finished":
            break
        side = campaign.current_side
        view = clients[side].get(f"/api/campaigns/{campaign.pk}/?log_since={log_seen[side]}").json()
        log_seen[side] = view["log_length"]
        # Random legal play that passes half the time it may: games of a few
        # hundred actions instead of thousands of assign/unassign toggles.
        advances = [a for a in view["legal_actions"] if a["type"] == "advance"]
        action = (
            advances[0] if advances and rng.random() < 0.5 else rng.choice(view["legal_actions"])
        )
        response = clients[side].post(
            f"/api/campaigns/{campaign.pk}/actions/",
            {"version": view["campaign"]["version"], "action": action},
            content_type="application/json",
        )
        assert response.status_code == 200, response.content
        campaign.refresh_from_db()
        state = GameState.from_json(campaign.state)
        locations = _card_locations(state)
        expected_cards = expected_cards or Counter(state.setup.all_card_ids())
        assert locations == expected_cards, "a card is in two places or none"
        assert min(*state.pp.values(), *state.st.values()) >= 0
        _assert_hidden(state, response.json(), side, log_since=view["log_length"] - 1)
    return GameState.from_json(campaign.state)


@pytest.mark.parametrize("seed", [5, 11])  # games of ~420 actions
def test_whole_campaigns_played_through_the_api_reach_victory(clients, catalog, users, seed):
    from campaign import services

    campaign = services.campaign_create(
        name=f"Random {seed}", created_by=users["organiser"], seed=seed
    )
    for side in ("allied", "axis"):
        services.campaign_member_set(
            campaign=campaign, by=users["organiser"], user=users[side], role="commander", side=side
        )
    state = _play_to_the_end(campaign, clients, seed, max_actions=1500)
    campaign.refresh_from_db()
    assert campaign.status == "finished", f"no winner after 1500 actions (turn {state.turn})"
    assert campaign.winner in ("allied", "axis")
    # the record replays to the same final state
    assert services.campaign_replay(campaign).to_json() == campaign.state

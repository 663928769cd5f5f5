"""Issue 24 §3: a signed-in player's home page starts with what waits for them ("your
turn"): campaigns where their side must act and battles where their seat must decide,
each with its deadline, battle seats offered and invitations waiting; the same list is
GET /api/me/waiting/. Anonymous visitors see the home page as before."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from accounts.services import invitation_create
from campaign import clock
from tests.battles.seating import seats_accepted
from tests.campaign.conftest import campaign as campaign  # noqa: F401  (fixtures)
from tests.campaign.conftest import users as users  # noqa: F401

pytestmark = pytest.mark.django_db

NOTHING = "Nothing waits for you"


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _home(user) -> str:
    return _text(_client(user).get("/").content.decode())


def _waiting(user) -> list[dict]:
    response = _client(user).get("/api/me/waiting/")
    assert response.status_code == 200
    return response.json()


def test_anonymous_visitors_see_the_home_page_as_before(db):
    page = Client().get("/")
    text = _text(page.content.decode())
    assert page.status_code == 200 and "Squadrons" in text and "Aces" in text
    assert "Your turn" not in text
    assert Client().get("/api/me/waiting/").status_code in (401, 403)


def test_the_side_to_act_sees_its_campaign_first_with_the_deadline(campaign, users):  # noqa: F811
    clock.campaign_pace_set(
        campaign_id=campaign.pk, by=users["organiser"], changes={"pace": "hours", "pace_hours": 48}
    )
    campaign.refresh_from_db()
    side, other = campaign.current_side, "axis" if campaign.current_side == "allied" else "allied"
    assert campaign.decision_due_at is not None
    html = _client(users[side]).get("/").content.decode()
    assert html.index('id="your-turn"') < html.index("<h1>Squadrons</h1>")  # first thing
    text = _text(html)
    assert f"Channel 1941 : Your {side.capitalize()} side must act: turn 1" in text
    assert "By " in text and NOTHING not in text
    [item] = _waiting(users[side])
    assert item["kind"] == "campaign" and item["url"] == f"/campaigns/{campaign.pk}/"
    assert item["due"] is not None
    assert NOTHING in _home(users[other]) and _waiting(users[other]) == []
    assert _waiting(users["spectator"]) == []


def test_an_invitation_to_the_players_address_waits_on_the_dashboard(campaign, users):  # noqa: F811
    users["spectator"].email = "reporter@example.org"
    users["spectator"].save()
    invitation_create(
        campaign=campaign, by=users["organiser"], role="spectator", email="Reporter@example.org"
    )
    text = _home(users["spectator"])
    assert "You are invited as spectator" in text
    [item] = _waiting(users["spectator"])
    assert item["kind"] == "invitation" and item["title"] == "Channel 1941"


@pytest.fixture
def cast(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "staff": make("umpire", password="pw-umpire-1", is_staff=True),
        "axis": make("hans", password="pw-hans-123"),
        "allied": make("tom", password="pw-tom-1234"),
    }


def _battle(cast) -> int:
    settings = {
        "seats": {"axis": {"user": "hans"}, "allied": {"user": "tom"}},
        "deadline": {"hours": 1},
    }
    body = {"scenario": "dogfight", "settings": settings, "seed": 21}
    response = _client(cast["staff"]).post(
        "/api/battles/create/", body, content_type="application/json"
    )
    assert response.status_code == 202, response.content
    return response.json()["id"]


def test_seat_offers_then_the_seat_to_decide_wait_on_the_dashboard(cast):
    pk = _battle(cast)
    for who in ("axis", "allied"):  # both seats offered, not yet answered
        [item] = _waiting(cast[who])
        assert item["kind"] == "seat_offer" and item["url"] == f"/battles/{pk}/play/"
        assert "A seat is offered to you" in _home(cast[who])
    seats_accepted(pk)
    turn = _client(cast["axis"]).get(f"/api/battles/{pk}/turn/").json()
    to_act = turn["to_act"]
    idle = "allied" if to_act == "axis" else "axis"
    [item] = _waiting(cast[to_act])
    assert item["kind"] == "battle" and item["due"] is not None
    assert f"Battle {pk} : Your {to_act} side must decide" in _home(cast[to_act])
    assert _waiting(cast[idle]) == []

"""Issue 24 §3: "Undo the last action" and "hand the side to the computer" are confirmed on
a page first (GET: what will be undone or handed over, and a Confirm button; POST: done),
without JavaScript (the site's CSP forbids inline script). The API stays one step."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from campaign.models import CampaignAction
from tests.battles.test_play_deadlines import _create, _turn
from tests.battles.test_play_deadlines import cast as cast  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _advance(campaign, users, client) -> None:
    campaign.refresh_from_db()
    side = campaign.current_side
    client.force_login(users[side])
    answer = client.post(
        f"/api/campaigns/{campaign.pk}/actions/",
        {"version": campaign.version, "action": {"type": "advance", "side": side}},
        content_type="application/json",
    )
    assert answer.status_code == 200


def test_undo_is_confirmed_on_a_page_first(campaign, users, client):
    _advance(campaign, users, client)
    client.force_login(users["organiser"])
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'href="/campaigns/{campaign.pk}/undo/"' in page  # a link, not a one-click form
    assert f'action="/campaigns/{campaign.pk}/undo/"' not in page
    confirm = client.get(f"/campaigns/{campaign.pk}/undo/")
    text = _text(confirm.content.decode())
    assert confirm.status_code == 200 and "Undo the last action?" in text
    assert "This takes back action 1" in text and "Went on" in text
    assert "Confirm: undo it" in text and "<script" not in confirm.content.decode()
    assert not CampaignAction.objects.filter(undone=True).exists()  # GET changes nothing
    done = client.post(f"/campaigns/{campaign.pk}/undo/", follow=True)
    assert "The last action was taken back." in done.content.decode()
    assert CampaignAction.objects.get(campaign=campaign).undone


def test_the_undo_page_says_when_nothing_can_be_undone(campaign, users, client):
    client.force_login(users["organiser"])
    confirm = client.get(f"/campaigns/{campaign.pk}/undo/")
    text = _text(confirm.content.decode())
    assert confirm.status_code == 200 and "There is nothing to undo." in text
    assert "Confirm" not in text


def test_only_the_organiser_sees_the_undo_page(campaign, users, client):
    _advance(campaign, users, client)
    client.force_login(users["spectator"])
    assert client.get(f"/campaigns/{campaign.pk}/undo/").status_code == 403
    assert client.post(f"/campaigns/{campaign.pk}/undo/").status_code == 403
    assert not CampaignAction.objects.filter(undone=True).exists()


def test_the_undo_api_stays_one_step(campaign, users, client):
    _advance(campaign, users, client)
    client.force_login(users["organiser"])
    assert client.post(f"/api/campaigns/{campaign.pk}/undo/").status_code == 200
    assert CampaignAction.objects.get(campaign=campaign).undone


def test_handing_a_side_to_the_computer_is_confirmed_first(cast):  # noqa: F811
    pk = _create(cast)
    hans = Client()
    hans.force_login(cast["axis"])
    board = hans.get(f"/battles/{pk}/play/").content.decode()
    assert 'name="hand_to" value="computer"' not in board  # no one-click hand-over
    assert "Hand the axis side to the computer pilot…" in board
    before = _turn(hans, pk)
    confirm = hans.get(f"/battles/{pk}/play/?hand_side=axis")
    text = _text(confirm.content.decode())
    assert confirm.status_code == 200
    assert "Hand the axis side to the computer pilot?" in text
    assert "your whole axis side" in text and "Confirm: hand it over" in text
    assert _turn(hans, pk)["version"] == before["version"]  # nothing handed by a GET
    assert "Take the axis side back" not in hans.get(f"/battles/{pk}/play/").content.decode()
    done = hans.post(f"/battles/{pk}/play/", {"hand_side": "axis", "hand_to": "computer"})
    assert done.status_code == 302
    assert "Take the axis side back" in hans.get(f"/battles/{pk}/play/").content.decode()


def test_handing_an_aircraft_over_is_confirmed_and_only_by_its_pilot(cast):  # noqa: F811
    pk = _create(cast)
    hans = Client()
    hans.force_login(cast["axis"])
    mine = next(a for a in _turn(hans, pk)["aircraft"] if a["side"] == "axis")
    confirm = hans.get(f"/battles/{pk}/play/?hand_side=axis&hand_aircraft={mine['id']}")
    text = _text(confirm.content.decode())
    assert confirm.status_code == 200 and f"Hand {mine['name']} to the computer pilot?" in text
    assert f'name="hand_aircraft" value="{mine["id"]}"' in confirm.content.decode()
    assert "Take it back" not in hans.get(f"/battles/{pk}/play/").content.decode()
    assert hans.get(f"/battles/{pk}/play/?hand_side=allied").status_code == 403

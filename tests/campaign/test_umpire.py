"""Issue 24 §3: the organiser is an umpire, not a hidden commander. Without "act as umpire
for <side>" the organiser sees what a spectator sees (no hand, no decisions); acting for
a side they do not command needs a reason, which the action row and the log keep."""

from __future__ import annotations

import re
from html import unescape

import pytest

from campaign import services
from campaign.models import CampaignAction

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _side_to_act(campaign):
    campaign.refresh_from_db()
    return campaign.current_side


def test_the_organiser_sees_no_hand_and_is_offered_umpire_links(campaign, users, client):
    side = _side_to_act(campaign)
    client.force_login(users["organiser"])
    html = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    text = _text(html)
    assert "Your hand" not in text and "must act now" not in text
    assert 'id="decisions"' not in html
    assert "Act as umpire for Allied" in text and "Act as umpire for Axis" in text
    assert f'href="?umpire={side}"' in html
    body = client.get(f"/api/campaigns/{campaign.pk}/").json()
    assert body["hand"] is None and body["legal_actions"] == []
    assert body["you"]["acting_as"] is None and body["you"]["may_umpire"] == ["allied", "axis"]


def test_in_umpire_mode_the_page_shows_the_hand_and_asks_a_reason(campaign, users, client):
    side = _side_to_act(campaign)
    word = side.capitalize()
    client.force_login(users["organiser"])
    html = client.get(f"/campaigns/{campaign.pk}/?umpire={side}").content.decode()
    text = _text(html)
    assert f"{side.capitalize()}'s hand" in text
    assert f"You (as umpire for {word}) must act now" in text
    assert html.count('name="umpire_reason" required') >= 1
    form = html[html.index('data-group="advance"') :]
    form = form[: form.index("</form>")]
    version = campaign.version
    post = {"version": version, "group": "advance", "choice": "|", "umpire": side}
    refused = client.post(f"/campaigns/{campaign.pk}/", {**post, "umpire_reason": "  "})
    assert refused.status_code == 400 and "give umpire_reason" in refused.content.decode()
    assert not CampaignAction.objects.filter(campaign=campaign).exists()
    done = client.post(f"/campaigns/{campaign.pk}/", {**post, "umpire_reason": "Bob is ill"})
    assert done.status_code == 302 and done["Location"].endswith(f"?umpire={side}")
    row = CampaignAction.objects.get(campaign=campaign)
    assert row.actor == users["organiser"] and row.reason == "umpire: Bob is ill"
    page = _text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert f"by the organiser as umpire for {word}: Bob is ill" in page
    client.force_login(users["spectator"])  # everyone reading the log sees it
    page = _text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert f"by the organiser as umpire for {word}: Bob is ill" in page
    assert 'name="umpire"' in form  # the form carries the mode


def test_the_api_refuses_the_organiser_without_a_reason(campaign, users, client):
    side = _side_to_act(campaign)
    client.force_login(users["organiser"])
    url = f"/api/campaigns/{campaign.pk}/actions/"
    action = {"type": "advance", "side": side}
    answer = client.post(
        url, {"version": campaign.version, "action": action}, content_type="application/json"
    )
    assert answer.status_code == 400 and answer.json()["field"] == "umpire_reason"
    assert not CampaignAction.objects.filter(campaign=campaign).exists()
    answer = client.post(
        url,
        {"version": campaign.version, "action": action, "umpire_reason": "commander away"},
        content_type="application/json",
    )
    assert answer.status_code == 200
    body = answer.json()
    assert body["you"]["umpire"] == side
    assert body["umpire_actions"][0]["reason"] == "commander away"
    row = CampaignAction.objects.get(campaign=campaign)
    assert row.actor == users["organiser"] and row.reason == "umpire: commander away"


def test_the_api_detail_in_umpire_mode_is_the_organisers_only(campaign, users, client):
    side = _side_to_act(campaign)
    client.force_login(users["organiser"])
    body = client.get(f"/api/campaigns/{campaign.pk}/?umpire={side}").json()
    assert body["hand"] is not None and body["legal_actions"]
    assert body["you"]["umpire"] == side and body["you"]["acting_as"] == side
    bad = client.get(f"/api/campaigns/{campaign.pk}/?umpire=martians")
    assert bad.status_code == 400 and bad.json()["field"] == "umpire"
    other = "axis" if side == "allied" else "allied"
    client.force_login(users[other])  # a commander cannot peek at the other hand
    assert client.get(f"/api/campaigns/{campaign.pk}/?umpire={side}").status_code == 403
    assert client.get(f"/campaigns/{campaign.pk}/?umpire={side}").status_code == 403


def test_a_commander_acts_for_their_side_without_a_reason(campaign, users, client):
    side = _side_to_act(campaign)
    client.force_login(users[side])
    answer = client.post(
        f"/api/campaigns/{campaign.pk}/actions/",
        {"version": campaign.version, "action": {"type": "advance", "side": side}},
        content_type="application/json",
    )
    assert answer.status_code == 200
    assert CampaignAction.objects.get(campaign=campaign).reason == ""


def test_an_organiser_who_commands_a_side_acts_for_it_as_commander(campaign, users):
    side = _side_to_act(campaign)
    users["organiser"].is_superuser = True  # staff organise every campaign
    users["organiser"].save()
    services.campaign_member_set(campaign=campaign, by=users["organiser"], user=users[side], role="spectator")  # fmt: skip
    services.campaign_member_set(
        campaign=campaign, by=users["organiser"], user=users["organiser"], role="commander", side=side
    )  # fmt: skip
    services.campaign_act(
        campaign_id=campaign.pk, user=users["organiser"], action={"type": "advance", "side": side}
    )
    assert CampaignAction.objects.get(campaign=campaign).reason == ""

"""A new user starts a campaign from the pages; two commanders play a turn each; the log reads back."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from campaign.models import Campaign
from demo.roster import demo_roster_create

pytestmark = pytest.mark.django_db


def _login(username: str, password: str) -> Client:
    client = Client()
    response = client.post("/accounts/login/", {"username": username, "password": password})
    assert response.status_code == 302, "login failed"
    return client


def _press(client: Client, campaign: Campaign, group: str) -> None:
    """Submit the page's decision form ``group`` (a grouped form, issue 15)."""
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    forms = {
        key: body
        for key, body in re.findall(r'data-group="([^"]+)">(.*?)</form>', page, flags=re.S)
    }
    # the hand limit (003 "DEBRIEFING PHASE") may ask for discards before passing
    key = "discard" if "discard" in forms else group
    if key not in forms:
        raise AssertionError(f"no {group!r} form among {list(forms)}")
    version = re.search(r'name="version" value="(\d+)"', forms[key]).group(1)
    # a discard takes exactly the cards over the hand limit ("Discard down to 7 cards (2 over)")
    over = re.search(r"\((\d+) over\)", forms[key]) if key == "discard" else None
    choices = re.findall(r'name="choice" value="([^"]*)"', forms[key])[
        : int(over.group(1)) if over else 1
    ]
    response = client.post(
        f"/campaigns/{campaign.pk}/", {"version": version, "group": key, "choice": choices}
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def test_start_a_campaign_and_play_a_turn_for_each_side(catalog):
    demo_roster_create()
    User = get_user_model()
    User.objects.create_user("orga", password="orga-pass-1")
    User.objects.create_user("monty", password="monty-pass-1")
    User.objects.create_user("kesselring", password="kess-pass-1")

    orga = _login("orga", "orga-pass-1")
    assert "Start a campaign" in orga.get("/campaigns/").content.decode()
    response = orga.post("/campaigns/new/", {"name": "Desert Air War", "resolution_mode": "card"})
    campaign = Campaign.objects.get(name="Desert Air War")
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{campaign.pk}/"
    for username, side in (("monty", "allied"), ("kesselring", "axis")):
        response = orga.post(
            f"/campaigns/{campaign.pk}/invite/",
            {"username": username, "role": "commander", "side": side},
        )
        assert response.status_code == 302
    commanders = {
        "allied": _login("monty", "monty-pass-1"),
        "axis": _login("kesselring", "kess-pass-1"),
    }
    for side, client in commanders.items():  # each accepts the invitation (issue 23)
        mine = client.get("/accounts/invitations/").content.decode()
        assert f"invites you as commander of the {side.capitalize()} side" in mine
        pk = re.search(r'data-invitation="(\d+)"', mine).group(1)
        answer = client.post(f"/accounts/invitations/{pk}/answer/", {"answer": "accept"})
        assert answer.status_code == 302
    # a new campaign gathers its commanders until the organiser starts it (issue 24)
    assert orga.post(f"/campaigns/{campaign.pk}/start/").status_code == 302
    campaign.refresh_from_db()

    first = campaign.current_side
    other = "axis" if first == "allied" else "allied"
    # The other commander sees no decision forms while it is not their move.
    waiting = commanders[other].get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Your decisions" not in waiting and 'data-group="' not in waiting
    assert f"Nothing for you to do now: {first.capitalize()} must" in waiting
    # Each side plays its whole first turn (no missions on a side's first turn) by advancing.
    for side in (first, other):
        for _ in range(40):
            campaign.refresh_from_db()
            if campaign.current_side != side:
                break
            _press(commanders[side], campaign, "advance")
        campaign.refresh_from_db()
        assert campaign.current_side != side or campaign.turn > 1
    campaign.refresh_from_db()
    page = commanders["allied"].get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Planes in play" in page and "takes the first turn" in page and "production" in page
    assert "<svg" in page  # the PP/ST chart
    # the hand shown is the viewer's own
    assert "Your hand" in page
    spectator_page = Client().get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Your hand" not in spectator_page


def test_a_refused_action_shows_the_rule_and_changes_nothing(catalog):
    demo_roster_create()
    User = get_user_model()
    User.objects.create_user("orga", password="orga-pass-1")
    orga = _login("orga", "orga-pass-1")
    orga.post("/campaigns/new/", {"name": "Stale"})
    campaign = Campaign.objects.get(name="Stale")
    orga.post(f"/campaigns/{campaign.pk}/start/")
    campaign.refresh_from_db()
    version = campaign.version
    action = json.dumps({"type": "advance", "side": campaign.current_side})
    umpire = "the organiser plays both sides"  # as umpire, with a reason (issue 24)
    orga.post(
        f"/campaigns/{campaign.pk}/act/",
        {"version": version, "action": action, "umpire_reason": umpire},
    )
    campaign.refresh_from_db()
    moved = campaign.version  # one action, and any automatic ones after it (auto_advance)
    assert moved > version
    response = orga.post(
        f"/campaigns/{campaign.pk}/act/",
        {"version": version, "action": action, "umpire_reason": umpire},
        follow=True,
    )
    assert "the campaign has moved on" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.version == moved


def test_the_campaign_list_and_summary_give_the_phase_and_side_in_words(client, campaign, users):
    Campaign.objects.filter(pk=campaign.pk).update(phase="mission:assign", current_side="axis")
    client.force_login(users["organiser"])
    row = re.search(
        rf'<tr data-campaign="{campaign.pk}">.*?</tr>',
        client.get("/campaigns/").content.decode(),
        re.S,
    ).group(0)
    cells = [
        re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    ]
    assert cells[3:5] == ["Mission (assigning planes)", "Axis"]
    assert "mission:assign" not in row
    printed = client.get(f"/campaigns/{campaign.pk}/print/").content.decode()
    assert re.search(r"phase [A-Z][a-z]+ ·", printed)  # the game's phase by its name


def test_an_action_nested_too_deeply_is_not_a_game_action(catalog):
    demo_roster_create()
    get_user_model().objects.create_user("orga", password="orga-pass-1")
    orga = _login("orga", "orga-pass-1")
    orga.post("/campaigns/new/", {"name": "Deep"})
    campaign = Campaign.objects.get(name="Deep")
    deep = "[" * 5000 + "]" * 5000
    response = orga.post(
        f"/campaigns/{campaign.pk}/act/", {"version": campaign.version, "action": deep}, follow=True
    )
    assert "That form was not a game action." in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).version == campaign.version

"""The campaign pages' small forms keep what was typed: a refused post re-shows its form
(HTTP 400) with every problem beside its field and in a list at the top, and nothing is
stored: the start form on the list page, and the invite, engine-rules and holiday forms
on the campaign page (as the pace form does). Before, each answered a 302 and a one-line
message, and the input was gone."""

from __future__ import annotations

import re

import pytest

from campaign.models import Campaign, CampaignMember
from roster.models import Squadron

pytestmark = pytest.mark.django_db


def _alert(page: str) -> str:
    """The list of problems at the top of the refused form."""
    found = re.search(r'<div class="refusal" role="alert".*?</div>', page, re.S)
    assert found, "no list of problems"
    return found[0]


def test_start_form_keeps_the_name_squadrons_and_rules(client, campaign, users):
    client.force_login(users["organiser"])
    chosen = Squadron.objects.order_by("pk").first()
    assert chosen is not None
    response = client.post(
        "/campaigns/new/",
        {"name": "Good name 1", "resolution_mode": "engine", "squadrons": [chosen.pk],
         "cloud_1": "bogus", "flak_fields": "8,10"},
    )  # fmt: skip
    page = response.content.decode()
    assert response.status_code == 400
    assert 'name="name" required maxlength="120" value="Good name 1"' in page
    assert '<option value="engine" selected>' in page
    assert page.count('name="squadrons"') == Squadron.objects.count()
    assert f'name="squadrons" value="{chosen.pk}" checked>' in page
    others = Squadron.objects.exclude(pk=chosen.pk)
    assert all(f'name="squadrons" value="{s.pk}">' in page for s in others)
    assert 'value="8,10"' in page  # the flak fields as typed
    alert = _alert(page)
    assert "2 problems to fix" in alert and "bogus" in alert and "column, row, altitude" in alert
    assert "<details open>" in page  # the optional rules' part is open
    assert not Campaign.objects.filter(name="Good name 1").exists()


def test_start_form_names_a_missing_name_beside_the_field(client, campaign, users):
    client.force_login(users["organiser"])
    response = client.post("/campaigns/new/", {"name": " ", "squadrons": ["x"]})
    page = response.content.decode()
    assert response.status_code == 400
    alert = _alert(page)
    assert (
        "A campaign needs a name" in alert and "Squadrons taking part: unknown squadron id" in alert
    )
    assert '<span class="field-error">A campaign needs a name</span>' in page
    assert Campaign.objects.count() == 1


def test_invite_form_keeps_the_username_and_part(client, campaign, users):
    client.force_login(users["organiser"])
    before = list(CampaignMember.objects.values_list("user__username", "role", "side"))
    response = client.post(
        f"/campaigns/{campaign.pk}/invite/",
        {"username": "nobody-here", "role": "spectator", "side": ""},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert 'name="username" required value="nobody-here"' in page
    assert '<option value="spectator" selected>' in page
    assert "No user with that username" in _alert(page)
    response = client.post(
        f"/campaigns/{campaign.pk}/invite/",
        {"username": users["spectator"].username, "role": "commander", "side": "allied"},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "The allied side already has a commander" in _alert(page)
    assert '<option value="allied" selected>' in page
    assert list(CampaignMember.objects.values_list("user__username", "role", "side")) == before


def test_engine_rules_form_keeps_the_rules_as_posted(client, campaign, users):
    client.force_login(users["organiser"])
    response = client.post(
        f"/campaigns/{campaign.pk}/engine-rules/",
        {"night": "darkness", "flak_fields": "8,10", "barrage_balloons": "2,3", "cloud_1": "bogus"},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Not changed: 2 problems to fix" in page
    assert 'value="8,10"' in page and 'value="2,3"' in page
    assert '<option value="darkness" selected>' in page
    assert "engine_rules." not in _alert(page)  # named as the form names them
    campaign.refresh_from_db()
    assert campaign.engine_rules == {}


def test_holiday_form_says_one_plain_sentence_and_keeps_the_date(client, campaign, users):
    client.force_login(users["axis"])
    response = client.post(f"/campaigns/{campaign.pk}/holiday/", {"until": "soon"})
    page = response.content.decode()
    assert response.status_code == 400
    alert = re.search(r'id="holiday-refused">(.*?)</div>', page, re.S)
    assert alert is not None
    text = re.sub(r"<[^>]+>", " ", alert[1])
    assert " ".join(text.split()) == (
        "Holiday not set: The holiday&#x27;s last day is a date such as 2026-12-24 (not &#x27;soon&#x27;)"
    )
    assert "until: until" not in page
    assert 'name="until" value="soon"' in page
    response = client.post(f"/campaigns/{campaign.pk}/holiday/", {"until": "2001-01-01"})
    assert response.status_code == 400
    assert "A holiday ends in the future" in response.content.decode()
    assert CampaignMember.objects.get(campaign=campaign, user=users["axis"]).holiday_until is None

"""Issue 24 §3: a holiday form sent with no date by someone never on holiday is refused
(no "Welcome back"), and a reminder must come before the deadline it reminds of."""

from datetime import UTC, datetime, timedelta

import pytest

from campaign.models import Campaign, CampaignMember

pytestmark = pytest.mark.django_db

WELCOME = "Welcome back: your side is yours again."


def _axis(campaign):
    return CampaignMember.objects.get(campaign=campaign, side="axis")


def test_an_empty_holiday_date_when_not_on_holiday_is_refused_on_the_page(campaign, users, client):
    client.force_login(users["axis"])
    page = client.post(f"/campaigns/{campaign.pk}/holiday/", {"until": ""})
    text = page.content.decode()
    assert page.status_code == 400
    assert "give the holiday&#x27;s last day" in text and WELCOME not in text
    assert _axis(campaign).holiday_until is None


def test_welcome_back_only_when_a_holiday_ended(campaign, users, client):
    client.force_login(users["axis"])
    until = (datetime.now(UTC) + timedelta(days=4)).date().isoformat()
    client.post(f"/campaigns/{campaign.pk}/holiday/", {"until": until})
    assert _axis(campaign).holiday_until is not None
    page = client.post(f"/campaigns/{campaign.pk}/holiday/", {"back": "1"}, follow=True)
    assert WELCOME in page.content.decode()
    assert _axis(campaign).holiday_until is None
    again = client.post(f"/campaigns/{campaign.pk}/holiday/", {"back": "1"})
    assert again.status_code == 400 and WELCOME not in again.content.decode()


def test_the_holiday_api_refuses_null_when_not_on_holiday(campaign, users, client):
    client.force_login(users["axis"])
    url = f"/api/campaigns/{campaign.pk}/holiday/"
    answer = client.post(url, {"until": None}, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["field"] == "until"
    assert "give the holiday's last day" in answer.json()["detail"]


def test_a_reminder_longer_than_the_deadline_is_refused_on_the_page(campaign, users, client):
    client.force_login(users["organiser"])
    form = {"pace": "hours", "pace_hours": "1", "turn_time": "", "pace_timezone": "UTC",
            "on_deadline": "wait", "remind_hours": "720"}  # fmt: skip
    before = Campaign.objects.values("pace", "pace_hours", "remind_hours").get(pk=campaign.pk)
    page = client.post(f"/campaigns/{campaign.pk}/pace/", form)
    text = page.content.decode()
    assert page.status_code == 400
    assert "must be shorter than the 1-hour deadline" in text
    assert 'name="remind_hours" min="0" max="720" value="720"' in text  # the input kept
    after = Campaign.objects.values("pace", "pace_hours", "remind_hours").get(pk=campaign.pk)
    assert after == before


def test_a_reminder_longer_than_the_deadline_is_refused_by_the_api(campaign, users, client):
    client.force_login(users["organiser"])
    url = f"/api/campaigns/{campaign.pk}/pace/"
    answer = client.put(
        url,
        {"pace": "hours", "pace_hours": 1, "remind_hours": 720},
        content_type="application/json",
    )
    assert answer.status_code == 400 and answer.json()["field"] == "remind_hours"
    assert Campaign.objects.get(pk=campaign.pk).pace_hours != 1
    weekly = {"pace": "weekly", "turn_weekdays": [0], "turn_time": "18:00", "remind_hours": 168}
    answer = client.put(url, weekly, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["field"] == "remind_hours"
    answer = client.put(
        url, {"pace": "hours", "pace_hours": 24, "remind_hours": 6}, content_type="application/json"
    )
    assert answer.status_code == 200 and answer.json()["remind_hours"] == 6

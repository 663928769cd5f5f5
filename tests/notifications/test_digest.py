"""Issue 24 §4: a user may choose a daily digest instead of a mail per message (or no
e-mail at all), on the settings page and in the API; the digest gathers the day's
messages into one mail, sent once a day by the existing sending (the beat's
``notifications.send_digests``, ``manage.py send_notifications``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from rest_framework.test import APIClient

from angels.events import BATTLE_RESULT, send_campaign_event
from notifications.models import Delivery, MailChoice, Notification
from notifications.tasks import send_digests
from tests.notifications.club import club_campaign, mails_to, play_until_turn

pytestmark = pytest.mark.django_db

MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # after the digest hour (7:00 by default)


def choose(user, mode):
    """The user's choice of mail, and battles' results by e-mail too (the default is off)."""
    api = APIClient()
    api.force_authenticate(user)
    body = {"email_mode": mode, "preferences": {"battle_result": {"email": True}}}
    answer = api.put("/api/notifications/preferences/", body, format="json")
    assert answer.status_code == 200 and answer.json()["email_mode"] == mode
    return answer


def test_a_digest_user_gets_one_mail_with_the_days_messages(
    catalog, people, django_capture_on_commit_callbacks
):
    with time_machine.travel(MORNING, tick=False) as traveller:
        campaign = club_campaign(people)
        choose(people["axis"], "daily")
        play_until_turn(campaign, people, 6, django_capture_on_commit_callbacks)
        with django_capture_on_commit_callbacks(execute=True):
            send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="battle_result:x",
                                text=f"{campaign.name}: the raid on Dover was flown.")  # fmt: skip
        assert mails_to("axis@example.org") == []  # nothing until the digest runs
        assert mails_to("allied@example.org")  # an every-message user is mailed as before
        waiting = Notification.objects.filter(user=people["axis"], for_digest=True)
        texts = list(waiting.order_by("created_at", "pk").values_list("text", flat=True))
        assert len(texts) >= 3 and any("the raid on Dover was flown" in t for t in texts)

        traveller.shift(timedelta(hours=1))
        said = StringIO()
        call_command("send_notifications", stdout=said)
        assert said.getvalue().startswith("1 digests queued")
        digest = mails_to("axis@example.org")
        assert len(digest) == 1
        assert "daily digest" in digest[0].subject
        for text in texts:
            assert text in digest[0].body
        assert "http://127.0.0.1:8000/notifications/settings/" in digest[0].body

        call_command("send_notifications", stdout=StringIO())  # run again: no second
        assert send_digests() == 0
        assert len(mails_to("axis@example.org")) == 1

        with django_capture_on_commit_callbacks(execute=True):  # later that day
            send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="battle_result:y",
                                text=f"{campaign.name}: the raid on Hull was flown.")  # fmt: skip
        assert send_digests() == 0 and len(mails_to("axis@example.org")) == 1
        traveller.shift(timedelta(days=1))  # the next day's digest has it, alone
        assert send_digests() == 1
        second = mails_to("axis@example.org")[1]
        assert "the raid on Hull was flown" in second.body
        assert "the raid on Dover" not in second.body


def test_no_digest_before_its_hour_and_none_for_no_email(
    catalog, people, django_capture_on_commit_callbacks
):
    with time_machine.travel(MORNING.replace(hour=5), tick=False):
        campaign = club_campaign(people)
        choose(people["axis"], "daily")
        choose(people["allied"], "none")
        play_until_turn(campaign, people, 3, django_capture_on_commit_callbacks)
        call_command("send_notifications", stdout=StringIO())
        assert mails_to("axis@example.org") == [] and mails_to("allied@example.org") == []
        assert not Delivery.objects.filter(kind="digest").exists()
    # no e-mail still lists them on the site
    assert Notification.objects.filter(user=people["allied"], in_app=True).exists()


def test_the_settings_page_and_api_offer_the_three_choices(people, client):
    client.force_login(people["axis"])
    page = client.get("/notifications/settings/").content.decode()
    for value, label in (
        ("every", "Every message"),
        ("daily", "A daily digest"),
        ("none", "No e-mail"),
    ):
        assert f'value="{value}"' in page and label in page
    assert 'name="email_mode" value="every" checked' in page  # the default
    answer = client.post(
        "/notifications/settings/", {"email_mode": "daily", "must_act-email": "on"}
    )
    assert answer.status_code == 302
    assert MailChoice.objects.get(user=people["axis"]).mode == "daily"
    assert 'value="daily" checked' in client.get("/notifications/settings/").content.decode()

    bad = client.post("/notifications/settings/", {"email_mode": "weekly", "new_ace-email": "on"})
    assert bad.status_code == 400 and "email_mode" in bad.content.decode()
    assert MailChoice.objects.get(user=people["axis"]).mode == "daily"  # nothing stored
    assert not people["axis"].notification_preferences.filter(kind="new_ace", email=True).exists()

    api = APIClient()
    api.force_authenticate(people["axis"])
    assert api.get("/api/notifications/preferences/").json()["email_mode"] == "daily"
    wrong = api.put("/api/notifications/preferences/", {"email_mode": "weekly"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["field"] == "email_mode"
    assert MailChoice.objects.get(user=people["axis"]).mode == "daily"
    assert mail.outbox == []

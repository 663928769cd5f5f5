"""Webhook posts reach a (local) receiver once; a failing receiver is recorded with its
error and tried again with a backoff, never raising into the request that caused it."""

from __future__ import annotations

from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from angels.events import BATTLE_RESULT, MUST_ACT, PILOT_LOST, send_campaign_event
from notifications import delivery
from notifications.models import CampaignWebhook, Delivery, Notification
from roster.models import Pilot


def hook(campaign, url, kinds=None):
    # set by the ORM: the service insists on https, these receivers are local http
    CampaignWebhook.objects.create(
        campaign=campaign, url=url, kinds=kinds or [BATTLE_RESULT, PILOT_LOST]
    )


def test_webhook_gets_one_post_per_event(campaign, receiver, django_capture_on_commit_callbacks):
    hook(campaign, receiver.url)
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="battle_result:1",
                                text="The raid on Dover was flown.", url="/battles/1/")  # fmt: skip
    assert receiver.bodies == [
        {
            "content": "**Channel 1941**: The raid on Dover was flown. http://127.0.0.1:8000/battles/1/"
        }
    ]
    assert Delivery.objects.get(channel="webhook").status == "sent"


def test_a_webhook_post_names_the_campaign_once(
    campaign, receiver, django_capture_on_commit_callbacks
):
    """Event texts begin with their campaign's name; the post puts it in bold once, not twice."""
    hook(campaign, receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="battle_result:2",
                            text="Channel 1941: the raid on Dover was flown.", url="/battles/2/")  # fmt: skip
    assert receiver.bodies == [
        {
            "content": "**Channel 1941**: the raid on Dover was flown. http://127.0.0.1:8000/battles/2/"
        }
    ]


def test_kinds_not_chosen_are_not_posted(campaign, receiver, django_capture_on_commit_callbacks):
    hook(campaign, receiver.url, kinds=[BATTLE_RESULT])
    with django_capture_on_commit_callbacks(execute=True):
        send_campaign_event(campaign_id=campaign.pk, kind=MUST_ACT, key="m", text="x", side="axis")
    assert receiver.bodies == [] and not Delivery.objects.filter(channel="webhook").exists()


def test_a_failing_webhook_is_recorded_retried_then_failed(
    campaign, failing_receiver, django_capture_on_commit_callbacks
):
    hook(campaign, failing_receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="b", text="x")
    d = Delivery.objects.get(channel="webhook")
    assert (d.status, d.attempts) == ("pending", 1) and "500" in d.last_error
    assert d.next_attempt_at > timezone.now() + timedelta(seconds=50)
    delivery.delivery_attempt(d.pk)  # not due yet: nothing sent
    assert len(failing_receiver.bodies) == 1
    for attempt in (2, 3):
        Delivery.objects.filter(pk=d.pk).update(next_attempt_at=timezone.now())
        call_command("send_notifications")
        d.refresh_from_db()
        assert d.attempts == attempt
    assert d.status == "failed" and len(failing_receiver.bodies) == 3
    Delivery.objects.filter(pk=d.pk).update(next_attempt_at=timezone.now())
    call_command("send_notifications")
    assert len(failing_receiver.bodies) == 3  # failed for good: never again


def test_a_delivery_is_sent_once_even_when_asked_twice(campaign, receiver):
    hook(campaign, receiver.url)
    send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="b2", text="x")
    d = Delivery.objects.get(channel="webhook")
    delivery.delivery_attempt(d.pk)
    delivery.delivery_attempt(d.pk)
    assert len(receiver.bodies) == 1 and Delivery.objects.get(pk=d.pk).attempts == 1


def test_a_request_that_loses_a_pilot_survives_a_failing_webhook(
    campaign, people, failing_receiver, django_capture_on_commit_callbacks
):
    """The organiser enters a result in which Bader is killed: the API answers 201, the
    allied commander is told in-app, the dead webhook's failure is on its Delivery row."""
    hook(campaign, failing_receiver.url)
    bader = Pilot.objects.get(name="Bader")
    api = APIClient()
    api.force_authenticate(people["orga"])
    body = {"source_key": "table:1", "campaign": campaign.pk,
            "record": {"mode": "table", "battle_ref": "Raid on Dover", "territory": "axis",
                       "flown": [{"pilot_id": bader.pk, "destroyed": True,
                                  "survival": {"outcome": "killed"}}]}}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/api/roster/engagements/", body, format="json")
    assert response.status_code == 201, response.content
    told = Notification.objects.filter(kind=PILOT_LOST)
    assert {n.user.username for n in told} == {"allied"}
    assert "Bader" in told[0].text and told[0].url == f"/pilots/{bader.pk}/"
    d = Delivery.objects.get(channel="webhook", kind=PILOT_LOST)
    assert d.status == "pending" and "HTTP Error 500" in d.last_error


def test_an_ace_is_announced_once(campaign, people, django_capture_on_commit_callbacks):
    galland = Pilot.objects.get(name="Galland")
    api = APIClient()
    api.force_authenticate(people["orga"])
    for i in range(6):
        body = {"source_key": f"table:k{i}", "campaign": campaign.pk,
                "record": {"mode": "table", "battle_ref": f"Fight {i}", "territory": "allied",
                           "flown": [{"pilot_id": galland.pk, "mission": False}],
                           "kills": [{"shooter_pilot_id": galland.pk, "victim_aircraft": "Spitfire"}]}}  # fmt: skip
        assert api.post("/api/roster/engagements/", body, format="json").status_code == 201
    aces = Notification.objects.filter(kind="new_ace")
    assert [n.user.username for n in aces] == ["axis"] and "5 confirmed kills" in aces[0].text


def test_a_redirecting_webhook_is_not_followed(
    campaign, loopback_webhooks, django_capture_on_commit_callbacks
):
    from .conftest import Receiver

    redirecting = Receiver(status=302)
    try:
        hook(campaign, redirecting.url)
        with django_capture_on_commit_callbacks(execute=True):
            send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="r", text="x")
        d = Delivery.objects.get(channel="webhook")
        assert d.status == "pending" and "302" in d.last_error
        assert len(redirecting.bodies) == 1
    finally:
        redirecting.close()

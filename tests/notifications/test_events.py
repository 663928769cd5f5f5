"""Every kind of campaign event tells the right people once: the side's commanders for
a side's event (the organiser when nobody commands it), everyone in the campaign for a
campaign's event; never the other side, never a stranger, never twice."""

from __future__ import annotations

import pytest
from django.core import mail

from angels.events import (
    BATTLE_RESULT,
    CAMPAIGN_END,
    DEADLINE_PASSED,
    DEADLINE_SOON,
    KINDS,
    MUST_ACT,
    NEW_ACE,
    PILOT_LOST,
    send_campaign_event,
)
from campaign.models import CampaignMember
from notifications.models import Delivery, Notification, Preference

SIDE_KINDS = (MUST_ACT, DEADLINE_SOON, DEADLINE_PASSED, NEW_ACE, PILOT_LOST)


def told(key: str) -> set[str]:
    return set(Notification.objects.filter(key=key).values_list("user__username", flat=True))


def send(campaign, kind, key, side=None, url="/campaigns/"):
    send_campaign_event(
        campaign_id=campaign.pk, kind=kind, key=key, text=f"{kind} happened", side=side, url=url
    )


@pytest.mark.parametrize("kind", SIDE_KINDS)
@pytest.mark.parametrize("side", ["axis", "allied"])
def test_a_sides_event_tells_that_sides_commander_only(
    campaign, kind, side, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        send(campaign, kind, f"{kind}:{side}:1", side=side)
    assert told(f"{kind}:{side}:1") == {side}


@pytest.mark.parametrize("kind", [BATTLE_RESULT, CAMPAIGN_END])
def test_a_campaigns_event_tells_every_member_and_no_stranger(
    campaign, kind, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        send(campaign, kind, f"{kind}:1")
    assert told(f"{kind}:1") == {"orga", "allied", "axis", "spectator"}


def test_a_side_nobody_commands_is_the_organisers(campaign, people):
    CampaignMember.objects.filter(campaign=campaign, side="axis").delete()
    send(campaign, MUST_ACT, "must_act:axis:9", side="axis")
    assert told("must_act:axis:9") == {"orga"}


def test_sent_twice_tells_once_and_mails_once(campaign, django_capture_on_commit_callbacks):
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            send(campaign, MUST_ACT, "must_act:allied:turn2", side="allied")
    assert Notification.objects.filter(key="must_act:allied:turn2").count() == 1
    assert [m.to for m in mail.outbox] == [["allied@example.org"]]
    assert "Channel 1941" in mail.outbox[0].subject and "must_act happened" in mail.outbox[0].body
    delivery = Delivery.objects.get(dedup__endswith=":must_act:allied:turn2")
    assert (delivery.status, delivery.attempts) == ("sent", 1)


def test_defaults_mail_the_deadlines_only(campaign, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for kind in KINDS:
            send(campaign, kind, f"{kind}:d", side="axis" if kind in SIDE_KINDS else None)
    mailed = {(m.to[0], m.subject.split(": ", 1)[1]) for m in mail.outbox}
    assert mailed == {
        ("axis@example.org", "Your side must act"),
        ("axis@example.org", "A deadline is near"),
        ("axis@example.org", "A deadline passed"),
    }
    # every kind is in the in-app list
    mine = Notification.objects.filter(user__username="axis", in_app=True, key__endswith=":d")
    assert mine.count() == len(KINDS)


def test_preferences_are_honoured(campaign, people, django_capture_on_commit_callbacks):
    Preference.objects.create(user=people["axis"], kind=MUST_ACT, email=False, in_app=True)
    Preference.objects.create(user=people["axis"], kind=PILOT_LOST, email=True, in_app=False)
    Preference.objects.create(user=people["orga"], kind=BATTLE_RESULT, email=False, in_app=False)
    with django_capture_on_commit_callbacks(execute=True):
        send(campaign, MUST_ACT, "m1", side="axis")
        send(campaign, PILOT_LOST, "p1", side="axis")
        send(campaign, BATTLE_RESULT, "b1")
    assert [(m.to, m.subject.split(": ", 1)[1]) for m in mail.outbox] == [
        (["axis@example.org"], "A pilot lost")
    ]
    assert Notification.objects.get(key="m1").in_app is True
    assert Notification.objects.get(key="p1").in_app is False  # kept so it is never sent twice
    assert "orga" not in told("b1") and "allied" in told("b1")


def test_a_rolled_back_action_tells_nobody(campaign, django_capture_on_commit_callbacks):
    from django.db import transaction

    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        send(campaign, MUST_ACT, "m-rolled", side="axis")
        raise RuntimeError("the action failed")
    assert not Notification.objects.filter(key="m-rolled").exists() and not mail.outbox


def test_a_fault_in_the_listener_never_breaks_the_sender(campaign, monkeypatch):
    from notifications import services

    def broken(*args, **kwargs):
        raise ValueError("listener bug")

    monkeypatch.setattr(services, "recipients", broken)
    send(campaign, MUST_ACT, "m-broken", side="axis")  # no exception reaches the sender
    assert not Notification.objects.filter(key="m-broken").exists()

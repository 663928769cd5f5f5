"""Issue 24 §4: what a club reads in its mail and its chat channel: every link
absolute (the site's address, ``ANGELS_SITE_URL``, then the path), and sentences
instead of the product's codes ("mission:scramble", "battle:6", "m29")."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from rest_framework.test import APIClient

from angels.events import KINDS, PILOT_LOST
from battles.models import Battle
from campaign import services
from notifications.models import CampaignWebhook, Notification
from notifications.services import preferences_set
from roster.models import Pilot
from tests.notifications.club import RAW_CODES, club_campaign, mails_to, play_until_turn

pytestmark = pytest.mark.django_db

SITE = "https://angels.example.org"
LINK = re.compile(r"https?://\S+")
PATH = re.compile(r"(?<![\w/:.])/[a-z]+/\S*")  # a bare path such as /campaigns/2/


@pytest.fixture
def site(settings):
    settings.ANGELS_SITE_URL = SITE


def no_codes(text: str) -> None:
    for pattern in RAW_CODES:
        assert not pattern.search(text), f"{pattern.pattern!r} in {text!r}"


def links_absolute(text: str) -> list[str]:
    links = LINK.findall(text)
    assert all(link.startswith(f"{SITE}/") for link in links), links
    assert not PATH.findall(LINK.sub("", text)), text
    return links


def test_two_turns_of_mail_and_webhook_posts_have_absolute_links_and_no_codes(
    catalog, people, site, receiver, django_capture_on_commit_callbacks
):
    """Turns 4 and 5: missions flown with the cards, pilots lost, results; every kind
    mailed to both commanders and posted to the campaign's webhook."""
    campaign = club_campaign(people)
    CampaignWebhook.objects.create(campaign=campaign, url=receiver.url, kinds=list(KINDS))
    for side in ("allied", "axis"):
        preferences_set(user=people[side], values={k: {"email": True} for k in KINDS})
    play_until_turn(campaign, people, 6, django_capture_on_commit_callbacks)
    kinds = set(Notification.objects.values_list("kind", flat=True))
    assert {"must_act", "pilot_lost", "battle_result"} <= kinds
    assert len(mail.outbox) >= 6 and len(receiver.bodies) >= 6
    for message in mail.outbox:
        no_codes(message.subject)
        no_codes(message.body)
        assert links_absolute(message.body)
        assert f"{SITE}/notifications/settings/" in message.body
    for body in receiver.bodies:
        no_codes(body["content"])
        assert links_absolute(body["content"])
    said = mails_to("axis@example.org")[0].body
    assert re.match(rf"Axis must act in turn \d+ of {campaign.name}: the \w+ phase", said), said
    for n in Notification.objects.all():  # the list on the site reads the same sentences
        no_codes(n.text)


def test_a_pilot_lost_in_a_battle_is_told_in_words_with_the_battles_link(
    catalog, people, site, django_capture_on_commit_callbacks
):
    campaign = club_campaign(people)
    setup = services.game_state(campaign).setup
    mission = next(iter(setup.mission_cards))
    battle = Battle.objects.create(
        scenario="intercept", seed=1, source_key=f"campaign:{campaign.pk}:turn3:{mission}",
        settings={"campaign": campaign.pk, "mission": {"id": mission, "name": "Convoy Bread"}},
    )  # fmt: skip
    pilots = Pilot.objects.filter(squadron__in=campaign.squadrons.filter(side="allied"))
    first, second = pilots.order_by("pk")[:2]
    api = APIClient()
    api.force_authenticate(people["orga"])
    for pilot, ref, key in ((first, f"battle:{battle.pk}", "engine"),
                            (second, f"{campaign.name}: {mission}", "cards")):  # fmt: skip
        body = {"source_key": f"table:{key}", "campaign": campaign.pk,
                "record": {"mode": "table", "battle_ref": ref, "territory": "axis",
                           "flown": [{"pilot_id": pilot.pk, "destroyed": True,
                                      "survival": {"outcome": "captured"}}]}}  # fmt: skip
        with django_capture_on_commit_callbacks(execute=True):
            answer = api.post("/api/roster/engagements/", body, format="json")
        assert answer.status_code == 201, answer.content
    lost = {m.body.split("\n")[0]: m.body for m in mails_to("allied@example.org")}
    assert not lost  # pilots lost are not mailed by default: turn the mail on and look again
    told = Notification.objects.filter(kind=PILOT_LOST, user=people["allied"]).order_by("pk")
    assert [n.text for n in told] == [
        f"{first} ({first.squadron}) was captured in the battle for Convoy Bread.",
        f"{second} ({second.squadron}) was captured in the engagement for "
        f"{setup.card_name(mission)}.",
    ]
    assert told[0].url == f"/battles/{battle.pk}/"


def test_a_pilot_lost_mail_links_the_battle(
    catalog, people, site, django_capture_on_commit_callbacks
):
    campaign = club_campaign(people)
    api = APIClient()
    api.force_authenticate(people["allied"])
    api.put("/api/notifications/preferences/",
            {"preferences": {"pilot_lost": {"email": True}}}, format="json")  # fmt: skip
    battle = Battle.objects.create(
        scenario="intercept", seed=1, source_key=f"campaign:{campaign.pk}:turn2:x",
        settings={"campaign": campaign.pk, "mission": {"id": "x", "name": "Kenley"}},
    )  # fmt: skip
    pilot = Pilot.objects.filter(squadron__in=campaign.squadrons.filter(side="allied")).first()
    api.force_authenticate(people["orga"])
    body = {"source_key": "table:lost", "campaign": campaign.pk,
            "record": {"mode": "table", "battle_ref": f"battle:{battle.pk}", "territory": "axis",
                       "flown": [{"pilot_id": pilot.pk, "destroyed": True,
                                  "survival": {"outcome": "killed"}}]}}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/api/roster/engagements/", body, format="json").status_code == 201
    [message] = mails_to("allied@example.org")
    assert message.body.startswith(
        f"{pilot} ({pilot.squadron}) was killed in the battle for Kenley."
    )
    assert links_absolute(message.body)[0] == f"{SITE}/battles/{battle.pk}/"
    no_codes(message.body)

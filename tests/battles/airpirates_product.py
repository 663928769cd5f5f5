"""Tests' shorthand for Air Pirates flown by the product (issue 26): a campaign under Air
Pirates whose engagements the engine flies, played on until its first battle is flown, and
a page read as its words."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model

from battles.models import Battle
from campaign import services
from demo.roster import demo_roster_create
from roster.models import Squadron
from tests.campaign.test_engine_engagements import _play_until_an_engine_battle


def organiser_with_demo_roster():
    """The organiser "orga", and the demo's squadrons, pilots and aircraft."""
    organiser = get_user_model().objects.create_user("orga", password="pw-orga-123")
    demo_roster_create()
    return organiser


def engine_campaign(organiser, *, name: str, seed: int):
    """A campaign under Air Pirates of every squadron, its engagements flown by the engine,
    opened and started by ``organiser`` (no turn advances by itself)."""
    campaign = services.campaign_open(
        name=name, created_by=organiser, seed=seed, resolution_mode="engine",
        squadrons=list(Squadron.objects.all()), auto_advance=False, tactical_system="airpirates",
    )  # fmt: skip
    services.campaign_start(campaign_id=campaign.pk, by=organiser)
    return campaign


def first_engine_battle(campaign, organiser, capture) -> Battle:
    """The campaign played on (both sides by the organiser) until the engine has flown a
    battle of one of its engagements; that battle."""
    assert _play_until_an_engine_battle(campaign, organiser, capture)
    return Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:").get()


def page_text(response) -> str:
    """A page's words, tags taken out and spaces made single."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def flown_by_engine(flyer, capture, body: dict) -> Battle:
    """A battle created through the API by ``flyer`` with ``body`` and flown to its end by
    the engine (``capture``: django_capture_on_commit_callbacks, so the task runs)."""
    with capture(execute=True):
        made = flyer.post("/api/battles/create/", body, content_type="application/json")
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.status == "finished", battle.error
    return battle

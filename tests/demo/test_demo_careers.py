"""The demo shows careers on its first run, built through the career services."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from campaign.models import Campaign
from careers.models import Claim, PilotEvent, TableBattle
from careers.services import award_define
from demo import roster as demo_roster
from demo.roster import DEMO_CAMPAIGN, demo_careers_create, demo_roster_create
from roster.catalog import catalog_load
from roster.models import Pilot, Squadron

pytestmark = pytest.mark.django_db


def test_the_demo_shows_careers_and_is_idempotent(client):
    call_command("demo", password="x" * 12)
    statuses = set(Pilot.objects.values_list("status", flat=True))
    # the demo campaign is played on to turn 6, so the wounded may be back on duty by then
    assert {"active", "captured", "killed", "missing"} <= statuses
    kinds = set(PilotEvent.objects.values_list("kind", flat=True))
    assert {
        "survival_roll",
        "shot_down",
        "kill",
        "kill_denied",
        "ace",
        "award",
        "returned",
        "transfer",
        "wounded",
    } <= kinds
    replacements = PilotEvent.objects.filter(kind="joined", details__replacement=True).count()
    assert replacements > 0
    assert PilotEvent.objects.filter(
        kind="survival_roll", applied_result__mode="card"
    ).exists()  # card mode
    # a card-game engagement's entries name the mission card, not its id (issue 24 §7)
    assert not PilotEvent.objects.filter(battle_ref__regex=r": m[0-9]+$").exists()
    assert {"confirmed", "denied", "claimed", "shared", "damaged"} <= set(
        Claim.objects.values_list("state", flat=True)
    )
    counts = (Pilot.objects.count(), PilotEvent.objects.count(), TableBattle.objects.count())
    call_command("demo")
    assert (
        Pilot.objects.count(),
        PilotEvent.objects.count(),
        TableBattle.objects.count(),
    ) == counts
    frantisek = Pilot.objects.get(name="Josef František")
    page = client.get(f"/pilots/{frantisek.pk}/").content.decode()
    assert "Raid on the docks" in page and "<svg" in page
    assert "Josef František" in client.get("/aces/").content.decode()
    stats = client.get(f"/statistics/{TableBattle.objects.first().campaign_id}/").content.decode()
    assert "Allied kills" in stats


def test_a_demo_that_fails_half_way_leaves_no_half_built_campaign(monkeypatch):
    """Its campaign, squadrons' strengths and careers are one whole: a failure half way
    (here, defining the awards) leaves nothing, so the next run starts clean."""
    catalog_load()
    demo_roster_create()
    organiser = get_user_model().objects.create_user("orga", password="x" * 12, is_staff=True)

    def fails(**kwargs):
        raise RuntimeError("the disk is full")

    before = (
        PilotEvent.objects.count(),
        list(Squadron.objects.values_list("target_strength", flat=True)),
    )
    monkeypatch.setattr(demo_roster, "award_define", fails)
    with pytest.raises(RuntimeError):
        demo_careers_create(organiser=organiser)
    assert not Campaign.objects.filter(name=DEMO_CAMPAIGN).exists()
    after = (
        PilotEvent.objects.count(),
        list(Squadron.objects.values_list("target_strength", flat=True)),
    )
    assert after == before
    monkeypatch.setattr(demo_roster, "award_define", award_define)
    assert demo_careers_create(organiser=organiser).created

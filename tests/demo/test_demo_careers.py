"""The demo shows careers on its first run, built through the career services."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from careers.models import Claim, PilotEvent, TableBattle
from roster.models import Pilot

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
        kind="survival_roll", battle_ref__contains="m01"
    ).exists()  # card mode
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

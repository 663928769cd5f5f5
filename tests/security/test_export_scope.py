"""Issue 23, "export carries other campaigns' people": a campaign's export holds its
own pilots (``campaign.access.campaign_pilots``), not every pilot of the squadrons it
shares, and only the history rows its exporter may read on the history pages."""

from __future__ import annotations

import pytest

from careers.models import Claim, ClaimState, PilotEvent, TableBattle

from .shared_world import build_world, client_of, staff_edit


@pytest.fixture
def w(catalog):
    world = build_world()
    staff_edit(world.b_pilot, world.staff, rank="Wing Commander")  # a history row of B's pilot
    return world


def _export(user, campaign) -> dict:
    response = client_of(user).get(f"/api/campaigns/{campaign.pk}/export/")
    assert response.status_code == 200, response.content
    return response.json()


def _pilot_names(document: dict) -> set[str]:
    return {row["name"] for row in document["tables"]["roster.pilot"]}


def test_an_export_holds_no_pilot_enrolled_in_another_campaign(w):
    document = _export(w.orga, w.a)
    assert w.shared.name in {row["name"] for row in document["tables"]["roster.squadron"]}
    assert _pilot_names(document) == {"Mölders"}  # not Tuck, of the shared squadron, B's
    refs = {row["ref"] for row in document["tables"]["roster.pilot"]}
    assert {row["id"] for row in document["history"]["roster.pilot"]} <= refs
    reasons = {row["history_change_reason"] for row in document["history"]["roster.pilot"]}
    assert "admin edit" not in reasons  # staff's edit of Tuck travels nowhere with A
    events = document["tables"]["careers.pilotevent"]
    assert all("Campaign B" not in str(event["details"]) for event in events)
    assert "orgb" not in {user["username"] for user in document["users"]}
    # B's export, by B's organiser, has him
    assert "Tuck" in _pilot_names(_export(w.orgb, w.b))


@pytest.fixture
def named(w):
    """A claim of campaign A names B's pilot as its victim: A's export must carry him."""
    battle = TableBattle.objects.create(campaign=w.a, name="Over Kent", system="angels20",
                                        territory="allied", record={})  # fmt: skip
    Claim.objects.create(battle=battle, pilot=w.a_pilot, victim=w.b_pilot, state=ClaimState.CLAIMED)
    return w


def test_a_pilot_only_named_travels_without_the_history_the_exporter_cannot_read(named):
    w = named
    document = _export(w.orga, w.a)
    assert "Tuck" in _pilot_names(document)  # the claim's victim
    tuck = next(r["ref"] for r in document["tables"]["roster.pilot"] if r["name"] == "Tuck")
    assert [r for r in document["history"]["roster.pilot"] if r["id"] == tuck] == []
    assert [e for e in document["tables"]["careers.pilotevent"] if e["pilot"] == tuck] == []
    assert client_of(w.orga).get(f"/history/roster/pilot/{w.b_pilot.pk}/").status_code == 403
    # staff read every history page, and their export carries his history
    staffs = _export(w.staff, w.a)
    tuck = next(r["ref"] for r in staffs["tables"]["roster.pilot"] if r["name"] == "Tuck")
    reasons = {
        r["history_change_reason"] for r in staffs["history"]["roster.pilot"] if r["id"] == tuck
    }
    assert "admin edit" in reasons
    # his entries of B stay B's even in staff's export of A
    assert PilotEvent.objects.filter(pilot=w.b_pilot, campaign=w.b).exists()
    assert [e for e in staffs["tables"]["careers.pilotevent"] if e["pilot"] == tuck] == []

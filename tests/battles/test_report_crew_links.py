"""A campaign engagement's report names the roster pilot who flew each aircraft: in the
outcome table his name links to his page with the pilot's quality beside it, and a loss
"by #N" names the pilot of #N. Air Pirates keeps its units (and their ``pilot_ref``) where
Angels 20 keeps its aircraft, and numbers them from 1 where Angels 20 numbers from 0; the
game says which pilot flew which of its numbers (``rules.tactical.pilot_refs``), so both
reports link their pilots."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.html import escape

from battles.models import Battle
from campaign.models import CampaignPlane
from rules.tactical import pilot_refs, system_named
from tests.battles.airpirates_product import (
    engine_campaign,
    first_engine_battle,
    organiser_with_demo_roster,
)
from tests.campaign.test_engine_engagements import engine_war_until_a_battle

pytestmark = pytest.mark.django_db


def _outcome_rows(page: str) -> dict[int, str]:
    """The report's outcome table: each row's HTML by the number it shows ("#3 ...")."""
    table = re.search(r"<h2>Outcome</h2>(.*?)</table>", page, re.S)
    assert table is not None, "no outcome table"
    rows = re.findall(r"<tr><td>#(\d+) (.*?)</tr>", table[1], re.S)
    return {int(n): row for n, row in rows}


def _pilots(battle: Battle, campaign) -> dict[int, tuple[int, str]]:
    """The roster pilot (id, name) of each aircraft of the battle, by the number its result
    gives it, read from the campaign's planes."""
    planes = {
        p.plane_id: p
        for p in CampaignPlane.objects.filter(campaign=campaign, pilot__isnull=False)
        .select_related("pilot")
    }  # fmt: skip
    crews = {}
    for craft in battle.result["aircraft"]:
        plane = planes.get(str(craft["pilot_ref"]).removeprefix("plane:"))
        if plane is not None:
            crews[craft["id"]] = (plane.pilot_id, str(plane.pilot))
    return crews


def _links_each_pilot(battle: Battle, campaign, reader: Client) -> None:
    page = reader.get(f"/battles/{battle.pk}/").content.decode()
    rows = _outcome_rows(page)
    pilots = _pilots(battle, campaign)
    assert pilots, "the engagement's aircraft are flown by roster pilots"
    assert set(rows) == {craft["id"] for craft in battle.result["aircraft"]}
    for craft in battle.result["aircraft"]:
        row = rows[craft["id"]]
        if craft["id"] not in pilots:
            assert "/pilots/" not in row and f"<td>{craft['pilot']}</td>" in row
            continue
        pk, name = pilots[craft["id"]]
        link = f'<a href="/pilots/{pk}/">{escape(name)}</a> <span class="muted">({craft["pilot"]})</span>'
        assert link in row, row
        by = craft.get("destroyed_by")
        if by is not None and by in pilots:  # the loss names the pilot who shot it down
            assert f"by #{by} ({escape(pilots[by][1])})" in row, row


def test_an_air_pirates_campaign_report_links_each_crewed_units_pilot(
    catalog, django_capture_on_commit_callbacks
):
    organiser = organiser_with_demo_roster()
    campaign = engine_campaign(organiser, name="Pirate war", seed=6)
    battle = first_engine_battle(campaign, organiser, django_capture_on_commit_callbacks)
    assert battle.system == "airpirates" and "aircraft" not in battle.setup
    # Air Pirates numbers its units from 1 ("unit 1"), each with its pilot's reference
    assert pilot_refs(system_named("airpirates"), battle.setup) == {
        i + 1: u["pilot_ref"] for i, u in enumerate(battle.setup["units"])
    }
    assert any(a["destroyed_by"] is not None for a in battle.result["aircraft"])
    reader = Client()
    reader.force_login(organiser)
    _links_each_pilot(battle, campaign, reader)


def test_an_angels_20_campaign_report_still_links_its_pilots(
    catalog, django_capture_on_commit_callbacks
):
    organiser = get_user_model().objects.create_user("orga", password="pw-orga-123")
    campaign = engine_war_until_a_battle(organiser, django_capture_on_commit_callbacks)
    battle = (
        Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")
        .order_by("pk")
        .first()
    )
    assert battle.system == "angels20" and battle.result["kills"]
    # Angels 20 numbers its aircraft from 0, by their place in the setup
    assert pilot_refs(system_named("angels20"), battle.setup) == {
        i: a["pilot_ref"] for i, a in enumerate(battle.setup["aircraft"])
    }
    reader = Client()
    reader.force_login(organiser)
    _links_each_pilot(battle, campaign, reader)

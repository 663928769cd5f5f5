"""Issue 12 "Links": the campaign page links each engagement to its battle report;
the report names the roster pilots who flew and gives a legend for its map;
career entries link their battle and name their victims."""

import re

import pytest

from battles.models import Battle
from campaign.models import CampaignPlane
from careers.models import PilotEvent

from .test_engine_engagements import engine_war_until_a_battle

pytestmark = pytest.mark.django_db


def test_engagements_link_their_reports_which_name_the_roster_pilots(
    catalog, users, django_capture_on_commit_callbacks, client
):
    campaign = engine_war_until_a_battle(users["organiser"], django_capture_on_commit_callbacks)
    battle = Battle.objects.filter(
        source_key__startswith=f"campaign:{campaign.pk}:", status="finished"
    ).first()
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    engagements = page.split("<h2>Engagements</h2>")[1].split("</table>")[0]
    assert f'<a href="/battles/{battle.pk}/">Battle {battle.pk} (flown)' in engagements
    # the log's sentences about that engagement link its report too (issue 15)
    log = page.split('id="log"')[1]
    assert f'(report: <a href="/battles/{battle.pk}/">Battle {battle.pk} (flown)' in log

    report = client.get(f"/battles/{battle.pk}/").content.decode()
    assert 'id="legend"' in report and "Map legend" in report
    flown = [a["pilot_ref"].removeprefix("plane:") for a in battle.setup["aircraft"]]
    crews = CampaignPlane.objects.filter(campaign=campaign, plane_id__in=flown, pilot__isnull=False)
    assert crews.exists()
    for plane in crews.select_related("pilot"):
        assert f'<a href="/pilots/{plane.pilot_id}/">{plane.pilot}</a>' in report

    kills_here = PilotEvent.objects.filter(kind="kill", campaign=campaign)
    assert kills_here.exists()
    for event in kills_here:
        career = client.get(f"/pilots/{event.pilot_id}/").content.decode()
        kills = career.split("Confirmed kills</h2>")[1].split("</table>")[0]
        assert not re.search(r">(allied|axis)-\d+<", kills), "a victim shown as a plane id"
        assert "Engine war" in kills

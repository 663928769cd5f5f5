"""Issue 24 §1: "Strength, airframes, charts, prints, the squadron page and the API are per
campaign". A squadron's aircraft in a campaign are the card game's planes its pilots fly
there (in play or lost), counted per campaign; the library view keeps the library's
airframes."""

from __future__ import annotations

import re

import pytest

from campaign.models import CampaignPlane
from roster.models import Airframe
from tests.campaign.test_planes_manned import _play

pytestmark = pytest.mark.django_db


def _recount(campaign, squadron_id):
    planes = CampaignPlane.objects.filter(campaign=campaign, pilot__squadron_id=squadron_id)
    counts: dict[tuple[str, str], int] = {}
    for p in planes.select_related("aircraft_type"):
        key = (p.aircraft_type.name, "in play" if p.left_turn is None else "lost")
        counts[key] = counts.get(key, 0) + 1
    return counts


def test_a_squadrons_aircraft_in_a_campaign_are_the_planes_its_pilots_fly(campaign, users, client):
    _play(campaign, users, lambda c: c.planes.exclude(pilot=None).count() >= 3)
    squadron_id = campaign.planes.exclude(pilot=None).first().pilot.squadron_id
    wanted = _recount(campaign, squadron_id)
    assert wanted
    body = client.get(f"/api/roster/squadrons/{squadron_id}/?campaign={campaign.pk}").json()
    got = {(a["aircraft_type__name"], a["state"]): a["n"] for a in body["aircraft"]}
    assert got == wanted
    in_play = sum(n for (_, state), n in wanted.items() if state == "in play")
    assert body["squadron"]["airframes_on_hand"] == in_play
    page = client.get(f"/squadrons/{squadron_id}/?campaign={campaign.pk}").content.decode()
    assert f'data-figure="airframes_on_hand">{in_play}<' in page
    assert "the planes in play in Channel 1941 that its pilots fly" in page
    # the library view: the library's airframes, as before
    library = client.get(f"/api/roster/squadrons/{squadron_id}/").json()
    assert (
        sum(a["n"] for a in library["aircraft"])
        == Airframe.objects.filter(squadron_id=squadron_id).count()
    )


def test_the_campaign_print_counts_each_squadrons_planes_in_play(campaign, users, client):
    _play(campaign, users, lambda c: c.planes.exclude(pilot=None).count() >= 3)
    client.force_login(users["organiser"])
    page = client.get(f"/campaigns/{campaign.pk}/print/").content.decode()
    for squadron in campaign.squadrons.all():
        wanted = sum(n for (_, s), n in _recount(campaign, squadron.pk).items() if s == "in play")
        row = page.split(f'<tr data-squadron="{squadron.pk}">')[1].split("</tr>")[0]
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        assert cells[5] == str(wanted), (squadron.name, cells)  # the "Aircraft on hand" column
    assert "the campaign's planes in play that the squadron's pilots fly" in page

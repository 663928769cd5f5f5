"""Issue 24 §1, "a pilot has one quality per campaign": Helmut Wick, an Ace of the library,
flew a Green plane (0 XM). The plane a pilot is given now starts with the markers of his
quality (ruling "A pilot's quality and his plane's rank": poor 0, average 2, veteran 5,
ace 9), written into the action record right after the action that gave him the plane,
so the campaign replays, undoes and exports exactly."""

from __future__ import annotations

import re

import pytest

from campaign import services
from campaign.models import ActionKind, CampaignAction
from careers.models import PilotEvent, PilotEventKind
from roster.models import Pilot, Squadron
from rules.careers import markers_of_quality
from tests.campaign.test_planes_manned import _play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("quality", "markers"),
    [("poor", 0), ("novice", 0), ("green", 0), ("inexperienced", 0), ("average", 2),
     ("veteran", 5), ("experienced", 5), ("ace", 9), ("unknown", 0)],
)  # fmt: skip
def test_each_quality_brings_its_ranks_threshold(quality, markers):
    assert markers_of_quality(quality) == markers


def _wicks_war(users):
    from demo.roster import demo_roster_create

    demo_roster_create()
    jg2 = Squadron.objects.get(name="JG 2 Richthofen")
    raf = Squadron.objects.get(name="No. 92 Squadron RAF")
    wick = Pilot.objects.get(name="Helmut Wick")
    raf_pilots = list(Pilot.objects.filter(squadron=raf, enrolled_in=None))
    campaign = services.campaign_create(
        name="Wick's war", created_by=users["organiser"], seed=11,
        squadrons=[jg2, raf], pilots=[wick.pk] + [p.pk for p in raf_pilots],
    )  # fmt: skip
    for side in ("allied", "axis"):
        services.campaign_member_set(
            campaign=campaign, by=users["organiser"], user=users[side], role="commander",
            side=side,
        )  # fmt: skip
    campaign.refresh_from_db()
    if campaign.status == "gathering":
        services.campaign_start(campaign_id=campaign.pk, by=users["organiser"])
    return campaign, wick


def _wicks_plane(campaign, wick):
    return campaign.planes.filter(pilot=wick).first()


def test_an_ace_flies_an_ace_plane_and_the_pages_agree(client, catalog, users):
    campaign, wick = _wicks_war(users)
    assert wick.quality == "ace"
    markers_before = wick.experience_markers
    _play(campaign, users, lambda c: _wicks_plane(c, wick) is not None)
    record = _wicks_plane(campaign, wick)
    state = services.game_state(campaign)
    assert state.planes[record.plane_id]["xm"] == 9
    correction = CampaignAction.objects.get(
        campaign=campaign, kind=ActionKind.CORRECTION, payload__pilot_xm__has_key=record.plane_id
    )
    assert correction.payload["pilot_xm"][record.plane_id] == 9
    assert correction.payload["with_action"] == correction.sequence - 1
    # the starting markers are the plane's, not missions the pilot flew
    wick.refresh_from_db()
    assert wick.experience_markers == markers_before
    assert not PilotEvent.objects.filter(pilot=wick, kind=PilotEventKind.MISSION).exists()
    # the campaign page: his quality and his plane's rank say the same
    client.force_login(users["axis"])
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    row = re.search(rf"<tr>(?:(?!</tr>).)*?/pilots/{wick.pk}/(?:(?!</tr>).)*</tr>", page, re.S)
    assert row, "Wick's plane is listed on the campaign page"
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row[0], re.S)]  # fmt: skip
    assert cells[5:7] == ["9", "Ace (+3)"], cells
    assert "Ace (" in client.get(f"/pilots/{wick.pk}/").content.decode()
    # and the log says why the plane is an Ace
    assert "Pilots bring their experience to the planes they were given" in page
    assert "starts with 9 XM (Ace)" in page


def test_replay_gives_the_stored_game(catalog, users):
    campaign, wick = _wicks_war(users)
    _play(campaign, users, lambda c: _wicks_plane(c, wick) is not None)
    campaign.refresh_from_db()
    assert services.campaign_replay(campaign).to_json() == campaign.state


def test_undo_takes_the_markers_back_with_the_action_that_gave_the_plane(catalog, users):
    campaign, wick = _wicks_war(users)
    _play(campaign, users, lambda c: _wicks_plane(c, wick) is not None)
    campaign.refresh_from_db()
    correction = campaign.actions.filter(kind=ActionKind.CORRECTION).order_by("-sequence")[0]
    markers_before = Pilot.objects.get(pk=wick.pk).experience_markers
    later = campaign.actions.filter(sequence__gt=correction.sequence).count()
    for _ in range(later):  # what the clock played after it, one undo each
        services.campaign_undo_last(campaign_id=campaign.pk, by=users["organiser"])
    correction.refresh_from_db()
    assert not correction.undone
    services.campaign_undo_last(campaign_id=campaign.pk, by=users["organiser"])
    campaign.refresh_from_db()
    undone = set(campaign.actions.filter(undone=True).values_list("sequence", flat=True))
    assert {correction.sequence, correction.sequence - 1} <= undone
    assert len(undone) == later + 2  # one undo took the action and its pilots' markers
    assert services.campaign_replay(campaign).to_json() == campaign.state
    assert _wicks_plane(campaign, wick) is None  # the assignment went with its action
    wick.refresh_from_db()
    assert wick.experience_markers == markers_before
    # played again, he is given his plane again, an Ace again
    _play(campaign, users, lambda c: _wicks_plane(c, wick) is not None)
    record = _wicks_plane(campaign, wick)
    assert services.game_state(campaign).planes[record.plane_id]["xm"] == 9


def test_a_poor_pilot_brings_nothing(catalog, users):
    campaign, wick = _wicks_war(users)
    Pilot.objects.filter(enrolled_in=campaign).update(quality="poor")
    _play(campaign, users, lambda c: c.planes.exclude(pilot=None).count() >= 2)
    assert not campaign.actions.filter(kind=ActionKind.CORRECTION).exists()
    state = services.game_state(campaign)
    assert all(state.planes[p.plane_id]["xm"] == 0 for p in campaign.planes.exclude(pilot=None))

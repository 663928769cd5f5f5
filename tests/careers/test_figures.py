"""Issue 12 "every figure agrees": each bug a tester found, on the pages and in the API.

The pages mark each figure with ``data-figure``; ``figures()`` reads them back
out of the HTML, so these tests check what a reader of the page sees.
"""

from __future__ import annotations

import re

from careers.models import PilotEvent
from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.services import engagement_apply, pilot_log
from rules.dice import ScriptedDice

from .conftest import refresh

_FIGURE = re.compile(r'data-figure="([a-z_]+)">\s*([^<]*?)\s*<')


def figures(html: str, marker: str = "") -> dict[str, str]:
    """The ``data-figure`` values of a page (after ``marker`` up to the end of its row or block)."""
    if marker:
        start = html.index(marker)
        end = min(i for i in (html.find("</tr>", start), html.find("</div>", start)) if i != -1)
        html = html[start:end]
    return dict(_FIGURE.findall(html))


def _wound(cast, pilot, key="w"):
    record = EngagementRecord(mode="engine", battle_ref="W", campaign_turn=3, territory="allied",
                              flown=(FlownRecord(pilot_id=pilot.pk, destroyed=True),))  # fmt: skip
    engagement_apply(
        source_key=key, result=record, campaign=cast["campaign"], dice=ScriptedDice([3, 4])
    )
    refresh(pilot)


def test_home_squadron_page_and_api_give_the_same_pilot_counts(client, cast):
    _wound(cast, cast["Bader"])
    assert cast["Bader"].status == "wounded"
    raf = cast["raf"]
    home = figures(client.get("/").content.decode(), f'data-squadron="{raf.pk}"')
    page = figures(
        client.get(f"/squadrons/{raf.pk}/").content.decode(), f'data-squadron="{raf.pk}"'
    )
    api = client.get("/api/roster/squadrons/").json()
    api_row = next(s for s in api["results"] if s["id"] == raf.pk)
    page_api = client.get(f"/api/roster/squadrons/{raf.pk}/").json()["squadron"]
    # Tuck and Lacey active, Bader wounded: on strength 3, target 4.
    assert home["active_pilots"] == page["active_pilots"] == "2"
    assert home["wounded_pilots"] == page["wounded_pilots"] == "1"
    assert home["strength"] == page["strength"] == "3"
    for data in (api_row, page_api):
        assert (data["active_pilots"], data["wounded_pilots"], data["strength"]) == (2, 1, 3)


def test_squadron_strength_is_set_against_its_airframes(client, cast):
    raf = cast["raf"]
    _wound(cast, cast["Bader"])  # his Spitfire is destroyed
    page = figures(
        client.get(f"/squadrons/{raf.pk}/").content.decode(), f'data-squadron="{raf.pk}"'
    )
    assert page["airframes_on_hand"] == "2"
    assert client.get("/api/roster/squadrons/").json()["results"][0]["airframes_on_hand"] == 2


def test_pilot_page_kill_figure_is_its_kill_entries(client, cast):
    bader = cast["Bader"]
    for _ in range(2):
        pilot_log(pilot=bader, kind="kill", details={"victim_aircraft": "Messerschmitt Bf 109"})
    bader.air_kills = 10  # a count that drifted from its entries
    bader.save()
    html = client.get(f"/pilots/{bader.pk}/").content.decode()
    assert figures(html)["confirmed_kills"] == "2"
    assert html.count("data-kill=") == 2
    assert client.get(f"/api/roster/pilots/{bader.pk}/").json()["confirmed_kills"] == 2
    aces = client.get("/api/roster/aces/").json()["results"]
    assert [(a["id"], a["confirmed_kills"]) for a in aces] == [(bader.pk, 2)]


def test_a_victim_is_named_by_pilot_and_aircraft_or_by_aircraft(client, cast):
    bader, molders = cast["Bader"], cast["Mölders"]
    record = EngagementRecord(
        mode="engine", battle_ref="K", campaign_turn=2, territory="allied",
        flown=(FlownRecord(pilot_id=bader.pk), FlownRecord(pilot_id=molders.pk, destroyed=True)),
        kills=(KillRecord(shooter_pilot_id=bader.pk, victim_pilot_id=molders.pk, victim_aircraft="Messerschmitt Bf 109"),),
    )  # fmt: skip
    engagement_apply(
        source_key="k", result=record, campaign=cast["campaign"], dice=ScriptedDice([6, 6])
    )
    pilot_log(pilot=bader, kind="kill", details={"victim_aircraft": "Messerschmitt Bf 110"})
    html = client.get(f"/pilots/{bader.pk}/").content.decode()
    assert f'<a href="/pilots/{molders.pk}/">Mölders (Messerschmitt Bf 109)</a>' in html
    assert "a Messerschmitt Bf 110" in html
    kills = client.get(f"/api/roster/pilots/{bader.pk}/").json()["kills"]
    assert [k["victim"] for k in kills] == [
        "Mölders (Messerschmitt Bf 109)",
        "a Messerschmitt Bf 110",
    ]


def test_a_card_game_plane_id_is_named_after_its_pilot(client, cast):
    from campaign.models import CampaignPlane
    from roster.models import AircraftType

    bader, molders = cast["Bader"], cast["Mölders"]
    campaign = cast["campaign"]
    CampaignPlane.objects.create(
        campaign=campaign, plane_id="axis-8", side="axis", pilot=molders,
        aircraft_type=AircraftType.objects.get(name="Messerschmitt Bf 109"),
    )  # fmt: skip
    pilot_log(pilot=bader, kind="kill", campaign_turn=2, battle_ref=f"{campaign.name}: m01",
              details={"campaign": campaign.name, "plane": "allied-1", "victim": "axis-8",
                       "victim_aircraft": "Messerschmitt Bf 109", "credit_rule": "card:roll-order"})  # fmt: skip
    html = client.get(f"/pilots/{bader.pk}/").content.decode()
    assert "axis-8" not in html.split("Confirmed kills</h2>")[1].split("</table>")[0]
    assert "Mölders (Messerschmitt Bf 109)" in html


def test_a_ratio_with_nothing_to_divide_shows_a_dash(client, cast):
    campaign = cast["campaign"]
    for name in ("Bader", "Tuck"):  # two RAF losses, no RAF kill
        pilot_log(pilot=cast[name], kind="shot_down", campaign=campaign, campaign_turn=1)
    pilot_log(pilot=cast["Mölders"], kind="kill", campaign=campaign, campaign_turn=1)
    html = client.get(f"/statistics/{campaign.pk}/").content.decode()
    assert "∞" not in html
    assert figures(html, 'data-side="allied"') == {"kills": "0", "losses": "2", "ratio": "0.00"}
    assert figures(html, 'data-side="axis"') == {"kills": "1", "losses": "0", "ratio": "—"}
    stats = client.get(f"/api/roster/campaigns/{campaign.pk}/stats/").json()
    assert stats["sides"]["axis"]["ratio"] is None
    by_type = {r["aircraft"]: r["ratio"] for r in stats["ratios"]}
    assert by_type == {"Supermarine Spitfire": 0.0, "Messerschmitt Bf 109": None}


def test_a_denied_unconfirmed_claim_takes_no_kill_off_the_statistics(client, cast):
    campaign = cast["campaign"]
    pilot_log(pilot=cast["Mölders"], kind="kill", campaign=campaign, campaign_turn=1)
    pilot_log(pilot=cast["Mölders"], kind="kill_denied", campaign=campaign, campaign_turn=1,
              details={"claim": 99, "was": "claimed"})  # fmt: skip
    stats = client.get(f"/api/roster/campaigns/{campaign.pk}/stats/").json()
    assert stats["sides"]["axis"]["kills"] == 1


def test_career_entries_name_their_campaign_and_are_grouped_by_it(client, cast):
    bader = cast["Bader"]
    pilot_log(
        pilot=bader, kind="note", campaign=cast["campaign"], campaign_turn=1, details={"text": "x"}
    )
    html = client.get(f"/pilots/{bader.pk}/").content.decode()
    sections = re.findall(r'<section data-campaign="([^"]+)">', html)
    assert sections == [
        "standalone",
        "Careers 1940",
    ]  # joined before the campaign, then a note in it
    events = client.get(f"/api/roster/pilots/{bader.pk}/events/").json()["results"]
    assert [e["campaign"] for e in events] == ["standalone", "Careers 1940"]
    assert PilotEvent.objects.filter(pilot=bader).count() == 2

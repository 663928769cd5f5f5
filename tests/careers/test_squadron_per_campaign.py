"""A squadron's figures per campaign (issue 24 §4): two campaigns share a library
squadron; its page, API and prints count each campaign's own pilots and entries,
and agree with a recount; the library view says where each pilot serves."""

from __future__ import annotations

import pytest

from campaign import services as campaign_services
from campaign.enrolment import campaign_enrol
from careers.models import PilotEvent
from careers.services import replacements_draft
from roster.models import Pilot


@pytest.fixture
def shared(cast, organiser):
    """No. 19 Squadron in two campaigns: Bader and Tuck serve in the first, Lacey in
    the second; each drafts its replacements on turn 2."""
    first, raf = cast["campaign"], cast["raf"]
    campaign_enrol(campaign_id=first.pk, by=organiser, pilots=[cast["Bader"].pk, cast["Tuck"].pk])
    second = campaign_services.campaign_create(
        name="Second Front", created_by=organiser, seed=5, progression_rule="air_force",
        survival_rule="angels20", squadrons=[raf],
    )  # fmt: skip
    cast["Lacey"].refresh_from_db()
    assert cast["Lacey"].enrolled_in_id == second.pk  # the squadron's free pilot went with it
    replacements_draft(campaign=first, campaign_turn=2)
    replacements_draft(campaign=second, campaign_turn=2)
    return {**cast, "first": first, "second": second}


def _recount(squadron, campaign) -> int:
    return Pilot.objects.filter(
        squadron=squadron, enrolled_in=campaign, status__in=["active", "wounded"]
    ).count()


def test_the_api_counts_each_campaigns_own_pilots_and_agrees_with_a_recount(shared, client):
    raf = shared["raf"]
    library = client.get(f"/api/roster/squadrons/{raf.pk}/").json()
    assert library["campaign"] is None and library["strength"] == raf.pilots.count() == 8
    assert {p["enrolled_in"] for p in library["pilots"]} == {
        shared["first"].pk,
        shared["second"].pk,
    }
    for campaign in (shared["first"], shared["second"]):
        body = client.get(f"/api/roster/squadrons/{raf.pk}/?campaign={campaign.pk}").json()
        assert body["campaign"] == {"id": campaign.pk, "name": campaign.name}
        assert body["strength"] == _recount(raf, campaign)
        assert body["squadron"]["id"] == raf.pk
        assert {p["id"] for p in body["pilots"]} == set(
            Pilot.objects.filter(squadron=raf, enrolled_in=campaign).values_list("pk", flat=True)
        )
        assert body["strength_words"] == (
            f"{_recount(raf, campaign)} pilots in {campaign.name} (target 4)"
        )
        replacements = sum(t["replacements"] for t in body["per_turn"])
        drafted = PilotEvent.objects.filter(
            pilot__squadron=raf, campaign=campaign, kind="joined", details__replacement=True
        ).count()
        assert replacements == drafted > 0
        assert {e["campaign"] for e in body["log"]} == {campaign.name}
    # each campaign drafted to its own target, not to the squadron's total
    assert _recount(raf, shared["first"]) == 4 and _recount(raf, shared["second"]) == 4


@pytest.mark.parametrize("bad", ["abc", "999999", "-1"])
def test_a_bad_campaign_is_a_400_naming_it(shared, client, bad):
    response = client.get(f"/api/roster/squadrons/{shared['raf'].pk}/?campaign={bad}")
    assert response.status_code == 400 and response.json()["field"] == "campaign"
    page = client.get(f"/squadrons/{shared['raf'].pk}/?campaign={bad}")
    assert page.status_code == 400 and "no campaign with id" in page.content.decode()


def test_the_page_has_a_campaign_selector_and_says_strength_in_words(shared, client):
    raf, first = shared["raf"], shared["first"]
    page = client.get(f"/squadrons/{raf.pk}/?campaign={first.pk}").content.decode()
    assert f'<option value="{first.pk}" selected>' in page
    assert f'<option value="{shared["second"].pk}">Second Front</option>' in page
    assert 'data-figure="strength">4</b> pilots in Careers 1940 (target 4)' in page
    assert "Lacey" not in page and "Bader" in page  # Lacey serves in the other campaign
    assert "Losses and replacements per turn" in page  # the chart: this campaign's turns


def test_the_library_view_lists_where_each_pilot_serves_and_mixes_no_turns(shared, client):
    raf = shared["raf"]
    page = client.get(f"/squadrons/{raf.pk}/").content.decode()
    assert "Serves in" in page
    assert f'?campaign={shared["second"].pk}">Second Front</a>' in page  # Lacey's row
    assert "8</b> pilots in the library and every campaign (target 4)" in page
    assert "Losses and replacements per turn" not in page  # no chart mixing two clocks


def test_prints_count_one_campaign(shared, client):
    raf, second = shared["raf"], shared["second"]
    printed = client.get(f"/squadrons/{raf.pk}/print/?campaign={second.pk}").content.decode()
    assert "pilots in Second Front (target 4)" in printed and "Bader" not in printed
    pdf = client.get(f"/squadrons/{raf.pk}/roster.pdf?campaign={second.pk}")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert client.get(f"/squadrons/{raf.pk}/print/?campaign=x").status_code == 400


def test_a_pilots_quality_reads_the_same_with_its_scale_on_every_page(shared, client):
    bader, raf = shared["Bader"], shared["raf"]
    words = "Average (Air Force scale)"
    pages = [
        f"/pilots/{bader.pk}/",
        f"/squadrons/{raf.pk}/",
        f"/squadrons/{raf.pk}/?campaign={shared['first'].pk}",
        f"/squadrons/{raf.pk}/print/",
        "/pilots/?q=Bader",
    ]
    for url in pages:
        assert words in client.get(url).content.decode(), url
    assert "novice, average, ace" in client.get(f"/pilots/{bader.pk}/").content.decode()

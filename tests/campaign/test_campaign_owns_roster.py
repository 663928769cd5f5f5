"""Issue 24 §1, "a campaign owns its squadrons' life": at creation the organiser picks the
squadrons AND which of their pilots enlist (aces included; pilots serving elsewhere shown
as not available, with where they serve), on the campaigns page and by the API; a
campaign's strength is its own enrolled pilots, and replacements are drafted only for the
planes in play that lack a pilot (ruling "Replacements fill the campaign's planes"), so a
second campaign over the library's squadrons does not read "Strength 12 (target 6)"."""

from __future__ import annotations

import re

import pytest

from campaign import services
from campaign.models import Campaign
from campaign.plane_needs import squadron_pilot_needs
from careers.models import PilotEvent
from careers.services import campaign_turn_begin, career_settings_update
from roster.models import Pilot, Squadron
from tests.campaign.test_planes_manned import _play, _waiting

pytestmark = pytest.mark.django_db


def _jg2() -> Squadron:
    return Squadron.objects.get(name="JG 2 Richthofen")


def test_the_start_form_lists_each_squadrons_pilots_ticked_and_who_serves_elsewhere(
    client, campaign, users
):
    """The first campaign's pilots are busy: a new squadron's free ace is offered, ticked;
    a pilot of the first campaign is shown as not available, naming it, and cannot be ticked."""
    jg2 = _jg2()
    busy = Pilot.objects.filter(enrolled_in=campaign, squadron=jg2).order_by("pk").first()
    newcomer = Pilot.objects.create(name="Hans Hahn", nation="Germany", squadron=jg2)
    client.force_login(users["organiser"])
    page = client.get("/campaigns/").content.decode()
    block = re.search(rf'<div class="pick" data-squadron="{jg2.pk}">.*?</div>', page, re.S)
    assert block, "JG 2 is offered with its pilots"
    html = block[0]
    assert f'name="pilots" value="{newcomer.pk}" checked>' in html  # free: ticked
    row = re.search(rf'<li data-pilot="{busy.pk}">.*?</li>', html, re.S)[0]
    assert "disabled" in row and " checked" not in row
    assert "not available:" in row and "serves in campaign &#x27;Channel 1941&#x27;" in row
    assert "Pilots: 1 free of" in html


def test_the_start_form_enlists_only_the_ticked_pilots_aces_included(client, catalog, users):
    """A library ace is ticked, his squadron mates are not: only he serves in the new
    campaign, the others stay on the free roster (and fly none of its planes)."""
    from demo.roster import demo_roster_create

    demo_roster_create()
    jg2 = _jg2()
    wick = Pilot.objects.get(name="Helmut Wick")
    client.force_login(users["organiser"])
    response = client.post(
        "/campaigns/new/",
        {"name": "Wick's war", "resolution_mode": "card", "squadrons": [jg2.pk],
         "pilots": [wick.pk]},
    )  # fmt: skip
    assert response.status_code == 302
    created = Campaign.objects.get(name="Wick's war")
    assert list(Pilot.objects.filter(enrolled_in=created)) == [wick]
    assert not Pilot.objects.filter(squadron=jg2, enrolled_in__isnull=False).exclude(pk=wick.pk)
    flying = set(created.planes.exclude(pilot=None).values_list("pilot_id", flat=True))
    assert flying <= {wick.pk}
    enrolment = client.get(f"/campaigns/{created.pk}/enrol/").content.decode()
    serving = enrolment.split("Serving in this campaign")[1]
    assert "Helmut Wick" in serving and "(1)" in serving


def test_a_pilot_ticked_under_an_unticked_squadron_goes_with_it(client, catalog, users):
    from demo.roster import demo_roster_create

    demo_roster_create()
    wick = Pilot.objects.get(name="Helmut Wick")
    raf = Squadron.objects.get(name="No. 92 Squadron RAF")
    client.force_login(users["organiser"])
    response = client.post(
        "/campaigns/new/",
        {"name": "No Germans", "resolution_mode": "card", "squadrons": [raf.pk],
         "pilots": [wick.pk]},
    )  # fmt: skip
    assert response.status_code == 302
    created = Campaign.objects.get(name="No Germans")
    assert not Pilot.objects.filter(enrolled_in=created).exists()
    wick.refresh_from_db()
    assert wick.enrolled_in_id is None


def test_the_api_takes_the_pilots_beside_the_squadrons_and_names_the_field_it_refuses(
    client, campaign, users
):
    jg2 = _jg2()
    free = Pilot.objects.create(name="Hans Hahn", nation="Germany", squadron=jg2)
    spare = Pilot.objects.create(name="Erich Rudorffer", nation="Germany", squadron=jg2)
    busy = Pilot.objects.filter(enrolled_in=campaign, squadron=jg2).first()
    raf = Squadron.objects.get(name="No. 92 Squadron RAF")
    client.force_login(users["organiser"])
    before = Campaign.objects.count()

    def post(**body):
        return client.post(
            "/api/campaigns/create/", {"name": "API war", **body}, content_type="application/json"
        )

    refused = post(squadrons=[raf.pk], pilots=[free.pk])  # his squadron is not taking part
    assert refused.status_code == 400 and refused.json()["field"] == "pilots[0]"
    assert "Hans Hahn" in refused.json()["detail"] and "JG 2 Richthofen" in refused.json()["detail"]
    refused = post(squadrons=[jg2.pk], pilots=[free.pk, busy.pk])  # serving elsewhere
    assert refused.status_code == 400 and refused.json()["field"] == "pilots[1]"
    assert "'Channel 1941'" in refused.json()["detail"]
    refused = post(squadrons=[jg2.pk], pilots=["x"])
    assert refused.status_code == 400 and "pilots" in str(refused.json())
    refused = post(squadrons=[jg2.pk], pilots=[10**12])
    assert refused.status_code == 400 and "pilots" in str(refused.json())
    assert Campaign.objects.count() == before  # nothing stored
    assert Pilot.objects.get(pk=free.pk).enrolled_in_id is None

    created = post(squadrons=[jg2.pk], pilots=[free.pk])
    assert created.status_code == 201
    new = Campaign.objects.get(name="API war")
    assert list(Pilot.objects.filter(enrolled_in=new)) == [free]
    assert Pilot.objects.get(pk=spare.pk).enrolled_in_id is None  # not chosen: free
    assert set(new.squadrons.all()) == {jg2}


def test_a_second_campaign_drafts_only_for_its_planes_and_its_squadron_page_says_so(
    client, campaign, users
):
    """Every library pilot serves in the first campaign: the second's planes come with no
    pilot. At its turn 2 each squadron drafts the pilots its planes lack (at most the
    rate); its page counts that campaign's pilots only, and no squadron reads more
    pilots than it has planes. Before, each drafted up to its target on top of the first
    campaign's pilots ("Strength 12 pilots (target 6)")."""
    second = services.campaign_create(
        name="Malta 1942", created_by=users["organiser"], seed=9,
        squadrons=list(Squadron.objects.all()), auto_advance=False,
    )  # fmt: skip
    career_settings_update(campaign=second, by="orga", replacement_rate=12)
    assert not Pilot.objects.filter(enrolled_in=second).exists()
    _play(second, users, lambda c: _waiting(c).count() >= 2)  # planes come, with no pilot
    assert second.turn == 1
    needs = squadron_pilot_needs(second)
    waiting = second.planes.filter(left_turn__isnull=True, pilot__isnull=True).count()
    assert waiting and sum(needs.values()) == waiting
    drafted = campaign_turn_begin(campaign=second, campaign_turn=2)["drafted"]
    assert len(drafted) == waiting  # one pilot for each plane without one, no more
    assert squadron_pilot_needs(second) == {pk: 0 for pk in needs}
    assert {p.enrolled_in_id for p in drafted} == {second.pk}
    for squadron in Squadron.objects.all():
        mine = Pilot.objects.filter(enrolled_in=second, squadron=squadron).count()
        assert mine == needs[squadron.pk]
        page = client.get(f"/squadrons/{squadron.pk}/?campaign={second.pk}").content.decode()
        strength = re.search(r'data-figure="strength">(\d+)<', page)
        assert strength and int(strength[1]) == mine, squadron.name
        assert f"in {second.name} (target {squadron.target_strength})" in page
    # the first campaign's squadron pages are unchanged by the second's draft
    jg2 = _jg2()
    first_page = client.get(f"/squadrons/{jg2.pk}/?campaign={campaign.pk}").content.decode()
    first_count = Pilot.objects.filter(enrolled_in=campaign, squadron=jg2).count()
    assert f'data-figure="strength">{first_count}<' in first_page
    # a later turn with every plane manned drafts nobody
    assert campaign_turn_begin(campaign=second, campaign_turn=3)["drafted"] == []
    assert PilotEvent.objects.filter(campaign=second, kind="joined").count() == waiting


def test_a_planes_pilot_reads_his_quality_with_its_scale_beside_the_planes_rank(
    client, campaign, users
):
    """Issue 24: "Helmut Wick is 'Ace' on the roster and 'Green (1 XM)' in the campaign".
    The campaign page names each plane's pilot with his quality as every page says it
    (its scale too), and says in words that the plane's rank is the card's own XM."""
    from careers.templatetags.careers import quality_words

    _play(campaign, users, lambda c: c.planes.exclude(pilot=None).exists())
    record = campaign.planes.exclude(pilot=None).select_related("pilot").first()
    pilot = record.pilot
    words = quality_words(pilot)
    assert "scale)" in words
    client.force_login(users["organiser"])
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    row = re.search(
        rf'<a href="/pilots/{pilot.pk}/">[^<]*</a> <small class="quality">([^<]*)<', page
    )
    assert row and row[1] == words
    assert (
        "Plane's rank" in page
        and "A plane starts with the markers of its first pilot's quality" in page
    )
    assert words in client.get(f"/pilots/{pilot.pk}/").content.decode()
    squadron = client.get(f"/squadrons/{pilot.squadron_id}/?campaign={campaign.pk}")
    assert words in squadron.content.decode()
    api = client.get(f"/api/campaigns/{campaign.pk}/").json()
    flown = [p for p in api["planes"] if (p.get("pilot") or {}).get("id") == pilot.pk]
    assert flown and flown[0]["pilot"]["quality_words"] == words

"""Issue 16 "Find things": search, filters and pages of the pilots, squadrons, battles and
campaigns, on the pages and in the API, with a bounded number of queries."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, BattleBatch
from campaign.models import Campaign, CampaignStatus
from roster.models import Pilot, PilotStatus, Squadron

pytestmark = pytest.mark.django_db


def _rows(html: str, kind: str) -> list[int]:
    """The ids of the rows a list page shows (``data-<kind>="<id>"``)."""
    return [int(i) for i in re.findall(rf'<tr data-{kind}="(\d+)"', html)]


def _ids(client, url: str) -> list[int]:
    response = client.get(url)
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


@pytest.fixture
def roster(db):
    user = get_user_model().objects.create_user("orga")
    channel = Campaign.objects.create(name="Channel 1941", seed=1, created_by=user)
    malta = Campaign.objects.create(
        name="Malta 1942", seed=2, created_by=user, status=CampaignStatus.FINISHED
    )
    raf = Squadron.objects.create(
        name="No. 19 Squadron", nation="Britain", side="allied", base="Duxford"
    )
    jg = Squadron.objects.create(
        name="JG 26 Schlageter", nation="Germany", side="axis", base="Caffiers"
    )
    usaaf = Squadron.objects.create(
        name="56th Fighter Group", nation="USA", side="allied", base="Halesworth"
    )
    channel.squadrons.add(raf, jg)
    malta.squadrons.add(usaaf)
    pilots = {}
    for squadron, names in (
        (raf, ["Douglas Bader", "Brian Lane", "George Unwin"]),
        (jg, ["Adolf Galland", "Josef Priller"]),
        (usaaf, ["Hubert Zemke", "Francis Gabreski"]),
    ):
        for name in names:
            pilots[name] = Pilot.objects.create(
                name=name, nation=squadron.nation, squadron=squadron,
                enrolled_in=channel if squadron != usaaf else None,
            )  # fmt: skip
    Pilot.objects.filter(name="Brian Lane").update(status=PilotStatus.KILLED)
    return {"campaigns": (channel, malta), "squadrons": (raf, jg, usaaf), "pilots": pilots}


def test_pilots_by_name_side_status_squadron_and_campaign(client, roster):
    p = roster["pilots"]
    raf, jg, _ = roster["squadrons"]
    channel, _ = roster["campaigns"]
    cases = {
        "q=gal": {"Adolf Galland"},
        "q=GEORGE+unwin": {"George Unwin"},
        "side=axis": {"Adolf Galland", "Josef Priller"},
        "status=killed": {"Brian Lane"},
        f"squadron={raf.pk}&status=active": {"Douglas Bader", "George Unwin"},
        f"campaign={channel.pk}&side=allied": {"Douglas Bader", "Brian Lane", "George Unwin"},
        "q=nobody": set(),
    }
    for query, names in cases.items():
        wanted = sorted(p[n].pk for n in names)
        assert sorted(_rows(client.get(f"/pilots/?{query}").content.decode(), "pilot")) == wanted, (
            query
        )
        assert sorted(_ids(client, f"/api/roster/pilots/?{query}")) == wanted, query
    page = client.get(f"/pilots/?q=gal&squadron={jg.pk}").content.decode()
    assert 'value="gal"' in page and f'<option value="{jg.pk}" selected>' in page  # kept


def test_squadrons_by_name_side_and_campaign(client, roster):
    raf, jg, usaaf = roster["squadrons"]
    channel, malta = roster["campaigns"]
    cases = {
        "q=duxford": [raf],
        "side=allied": [raf, usaaf],
        f"campaign={channel.pk}": [raf, jg],
        f"campaign={malta.pk}&side=axis": [],
    }
    for query, squadrons in cases.items():
        wanted = sorted(s.pk for s in squadrons)
        assert (
            sorted(_rows(client.get(f"/squadrons/?{query}").content.decode(), "squadron")) == wanted
        )
        assert sorted(_ids(client, f"/api/roster/squadrons/?{query}")) == wanted
    # the figures of one squadron are not multiplied by the campaign filter's join
    body = client.get(f"/api/roster/squadrons/?campaign={channel.pk}&q=19").json()["results"]
    assert [(s["active_pilots"], s["killed_pilots"]) for s in body] == [(2, 1)]


def test_campaigns_by_name_status_and_mode(client, roster):
    channel, malta = roster["campaigns"]
    cases = {
        "q=malta": [malta],
        "status=active": [channel],
        "mode=card": [malta, channel],
        "mode=table": [],
    }
    for query, campaigns in cases.items():
        wanted = [c.pk for c in campaigns]  # newest first
        assert _rows(client.get(f"/campaigns/?{query}").content.decode(), "campaign") == wanted
        assert _ids(client, f"/api/campaigns/?{query}") == wanted


@pytest.fixture
def battles(roster):
    channel, malta = roster["campaigns"]
    batch = BattleBatch.objects.create(scenario="dogfight", runs=2, seed=3)
    made = {
        "alone": Battle.objects.create(scenario="dogfight", seed=1),
        "failed": Battle.objects.create(scenario="standard", seed=2, status="failed"),
        "channel": Battle.objects.create(
            scenario="engagement", seed=3, source_key=f"campaign:{channel.pk}:turn1:m1",
            settings={"campaign": channel.pk},
        ),
        "malta": Battle.objects.create(
            scenario="engagement", seed=4, source_key=f"campaign:{malta.pk}:turn2:m1",
            settings={"campaign": malta.pk},
        ),
        "run": Battle.objects.create(scenario="dogfight", seed=5, batch=batch),
    }  # fmt: skip
    return made, batch


def test_battles_by_status_scenario_campaign_and_kind(client, roster, battles):
    made, batch = battles
    channel, _ = roster["campaigns"]
    cases = {
        "status=failed": ["failed"],
        "scenario=engagement": ["channel", "malta"],
        f"campaign={channel.pk}": ["channel"],
        "origin=standalone&scenario=dogfight": ["alone"],
        "origin=campaign": ["channel", "malta"],
        "origin=batch": ["run"],
        f"batch={batch.pk}": ["run"],
    }
    for query, names in cases.items():
        wanted = sorted(made[n].pk for n in names)
        assert sorted(_rows(client.get(f"/battles/?{query}").content.decode(), "battle")) == wanted
        assert sorted(_ids(client, f"/api/battles/?{query}")) == wanted
    # the page leaves out the runs of batches unless asked; the API lists every battle
    assert made["run"].pk not in _rows(client.get("/battles/").content.decode(), "battle")
    assert made["run"].pk in _ids(client, "/api/battles/")


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/roster/pilots/?status=asleep", "status"),
        ("/api/roster/pilots/?squadron=999999", "squadron"),
        ("/api/roster/pilots/?squadron=abc", "squadron"),
        ("/api/roster/pilots/?campaign=-1", "campaign"),
        ("/api/roster/squadrons/?side=neutral", "side"),
        ("/api/roster/squadrons/?campaign=x", "campaign"),
        ("/api/battles/?status=won", "status"),
        ("/api/battles/?batch=1.5", "batch"),
        ("/api/battles/?origin=moon", "origin"),
        ("/api/battles/?campaign=999999", "campaign"),
        ("/api/campaigns/?status=paused", "status"),
        ("/api/campaigns/?mode=chess", "mode"),
    ],
)
def test_bad_values_are_a_400_naming_the_parameter(client, roster, url, field):
    response = client.get(url)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/pilots/?status=asleep", "Status: Select a valid choice."),
        ("/squadrons/?campaign=x", "Campaign: Enter a whole number."),
        ("/pilots/?campaign=999999", "Campaign: Select a valid choice."),
        ("/battles/?batch=1.5", "Batch: Enter a whole number."),
        ("/campaigns/?mode=chess", "Engagements: Select a valid choice."),
    ],
)
def test_bad_values_are_a_plain_message_on_the_pages(client, roster, url, message):
    response = client.get(url)
    assert response.status_code == 200
    assert message in response.content.decode()


def test_pilot_pages_keep_the_query_and_their_queries_do_not_grow(
    client, roster, django_assert_max_num_queries
):
    raf = roster["squadrons"][0]
    Pilot.objects.bulk_create(
        Pilot(name=f"Pilot {i:03d}", nation="Britain", squadron=raf) for i in range(60)
    )
    first = client.get("/pilots/?q=pilot&side=allied").content.decode()
    assert len(_rows(first, "pilot")) == 25 and "60 found" in first
    assert 'href="?q=pilot&amp;side=allied&amp;page=3"' in first
    third = client.get("/pilots/?q=pilot&side=allied&page=3").content.decode()
    assert len(_rows(third, "pilot")) == 10
    for url in ("/pilots/?page=2", "/squadrons/", "/api/roster/pilots/?limit=500"):
        with django_assert_max_num_queries(6):
            assert client.get(url).status_code == 200


def test_battle_and_campaign_pages_queries_do_not_grow(
    client, roster, battles, django_assert_max_num_queries
):
    channel, _ = roster["campaigns"]
    Battle.objects.bulk_create(
        Battle(scenario="engagement", seed=i, source_key=f"campaign:{channel.pk}:turn{i}:m1",
               settings={"campaign": channel.pk})
        for i in range(40)
    )  # fmt: skip
    for url in ("/battles/", "/battles/?page=2", "/campaigns/", "/api/battles/?limit=100"):
        with django_assert_max_num_queries(14):
            assert client.get(url).status_code == 200

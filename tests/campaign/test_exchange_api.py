"""Export and import through the API (issue 16): GET /api/campaigns/<id>/export/ for the
campaign's organiser and staff, POST /api/campaigns/import/ for whoever may start
campaigns, answering 201 with the new id or 400 in the error shape naming the problem."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from campaign.exchange import dumps, seal
from campaign.models import Campaign
from roster.models import Pilot, Squadron

from .exchange_helpers import purge
from .test_exchange import _own

pytestmark = pytest.mark.django_db
SHAPE = {"detail", "field", "rule", "code", "errors"}


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("exchange-admin", is_staff=True)


def test_export_is_for_the_organiser_and_staff(campaign, users, staff):
    url = f"/api/campaigns/{campaign.pk}/export/"
    expected = {"anonymous": 401, "allied": 403, "spectator": 403, "organiser": 200, "staff": 200}
    answers = {}
    for role in expected:
        user = {"anonymous": None, "staff": staff}.get(role, users.get(role))
        response = _client(user).get(url)
        answers[role] = response.status_code
        if response.status_code != 200:
            assert set(response.json()) >= SHAPE
    assert answers == expected
    document = _client(users["organiser"]).get(url).json()
    assert document["format"] == 1
    assert document["tables"]["campaign.campaign"][0]["name"] == "Channel 1941"
    assert _client(staff).get("/api/campaigns/999999/export/").status_code == 404


def test_import_answers_201_with_the_new_campaign_and_gives_back_the_same_export(
    campaign, users, staff
):
    organiser = _client(users["organiser"])
    document = organiser.get(f"/api/campaigns/{campaign.pk}/export/").json()
    pilots = Pilot.objects.count()
    purge(campaign)
    assert Pilot.objects.count() < pilots
    response = organiser.post("/api/campaigns/import/", document, format="json")
    assert response.status_code == 201, response.content
    imported = Campaign.objects.get(pk=response.json()["id"])
    assert imported.name == "Channel 1941" and Pilot.objects.count() == pilots
    again = organiser.get(f"/api/campaigns/{imported.pk}/export/").json()
    # less the file's other members, who wait to be invited (issue 23)
    assert dumps(_own(again, "orga")) == dumps(_own(document, "orga"))
    people = imported.people_to_invite.values_list("username", "role", "side")
    assert sorted(people) == [
        ("churchill", "commander", "allied"),
        ("goering", "commander", "axis"),
        ("reporter", "spectator", ""),
    ]


def test_import_refusals_name_the_problem_and_load_nothing(campaign, users):
    organiser = _client(users["organiser"])
    document = organiser.get(f"/api/campaigns/{campaign.pk}/export/").json()
    purge(campaign)
    counts = (Campaign.objects.count(), Pilot.objects.count(), Squadron.objects.count())
    newer = seal({**document, "format": 7})
    damaged = json.loads(json.dumps(document))
    damaged["tables"]["roster.pilot"][0]["name"] = "Someone else"
    for body, field, words in (
        (newer, "format", "format 7, newer than this server reads"),
        (damaged, "checksum", "damaged"),
        ({"hello": 1}, "kind", "not a campaign export"),
    ):
        response = organiser.post("/api/campaigns/import/", body, format="json")
        assert response.status_code == 400
        answer = response.json()
        assert set(answer) >= SHAPE and answer["field"] == field and words in answer["detail"]
    assert (Campaign.objects.count(), Pilot.objects.count(), Squadron.objects.count()) == counts


@override_settings(ANGELS_CAMPAIGN_CREATORS="staff")
def test_import_is_for_staff_where_only_staff_start_campaigns(campaign, users, staff):
    document = _client(staff).get(f"/api/campaigns/{campaign.pk}/export/").json()
    purge(campaign)
    refused = _client(users["organiser"]).post("/api/campaigns/import/", document, format="json")
    assert refused.status_code == 403 and not Campaign.objects.exists()
    assert _client().post("/api/campaigns/import/", document, format="json").status_code == 401
    allowed = _client(staff).post("/api/campaigns/import/", document, format="json")
    assert allowed.status_code == 201


def _rows() -> tuple[int, ...]:
    return (Campaign.objects.count(), Pilot.objects.count(), Squadron.objects.count())


def test_a_preview_answers_what_would_be_created_and_stores_nothing(campaign, users):
    organiser = _client(users["organiser"])
    document = organiser.get(f"/api/campaigns/{campaign.pk}/export/").json()
    purge(campaign)
    rows = _rows()
    response = organiser.post("/api/campaigns/import/?preview=1", document, format="json")
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["id"] is None and answer["preview"] is True and answer["renamed"] == []
    assert answer["name"] == "Channel 1941"
    assert answer["created"]["campaign.campaign"] == 1
    assert answer["created"]["roster.pilot"] == len(document["tables"]["roster.pilot"])
    assert "churchill (commander of the Allied side)" in answer["people_to_invite"]
    assert answer["report"][0].startswith("Would import campaign 'Channel 1941'")
    assert _rows() == rows


def test_a_copy_renames_each_name_taken_here_and_a_restore_refuses_naming_them(campaign, users):
    organiser = _client(users["organiser"])
    document = organiser.get(f"/api/campaigns/{campaign.pk}/export/").json()
    squadrons = sorted(campaign.squadrons.values_list("name", flat=True))
    rows = _rows()
    refused = organiser.post("/api/campaigns/import/", document, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "exists"
    assert "a campaign named 'Channel 1941'" in refused.json()["detail"]
    for name in squadrons:
        assert f"a squadron named {name!r}" in refused.json()["detail"]
    preview = organiser.post("/api/campaigns/import/?mode=copy&preview=1", document, format="json")
    assert preview.status_code == 200 and _rows() == rows
    renamed = {(r["table"], r["old"]): r["new"] for r in preview.json()["renamed"]}
    assert renamed[("campaign.campaign", "Channel 1941")] == "Channel 1941 (copy)"
    assert all(renamed[("roster.squadron", n)] == f"{n} (copy)" for n in squadrons)
    created = organiser.post("/api/campaigns/import/?mode=copy", document, format="json")
    assert created.status_code == 201
    copy = Campaign.objects.get(pk=created.json()["id"])
    assert (
        copy.name == "Channel 1941 (copy)"
        and created.json()["renamed"] == preview.json()["renamed"]
    )
    assert sorted(copy.squadrons.values_list("name", flat=True)) == [
        f"{n} (copy)" for n in squadrons
    ]
    again = organiser.post("/api/campaigns/import/?mode=copy", document, format="json")
    assert again.json()["name"] == "Channel 1941 (copy 2)"


def test_an_unknown_mode_is_a_400_naming_it(campaign, users):
    organiser = _client(users["organiser"])
    document = organiser.get(f"/api/campaigns/{campaign.pk}/export/").json()
    rows = _rows()
    response = organiser.post("/api/campaigns/import/?mode=merge", document, format="json")
    assert response.status_code == 400 and response.json()["field"] == "mode"
    assert _rows() == rows

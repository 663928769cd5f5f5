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
    assert dumps(again) == dumps(document)


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

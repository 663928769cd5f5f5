"""The careers REST API: public reads, writes for staff and organisers, 400s that name field and rule."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from careers.models import AppliedResult, AwardDefinition, Claim, TableBattle
from tests.errors import reason


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def _table(cast, **kw):
    return {
        "campaign": cast["campaign"].pk, "name": "API battle", "system": "air_pirates", "territory": "neutral",
        "flights": [{"pilot_id": cast["Bader"].pk}, {"pilot_id": cast["Mölders"].pk, "crew_hits": 1}],
        "kills": [{"victim_pilot_id": cast["Mölders"].pk, "attacks": [[cast["Bader"].pk, 2]]}], **kw,
    }  # fmt: skip


def test_table_battle_claims_confirm_deny_through_the_api(api, cast):
    response = api.post("/api/roster/table-battles/", _table(cast), format="json")
    assert response.status_code == 201, response.json()
    claim = response.json()["claims"][0]
    assert claim["state"] == "claimed"
    assert (
        api.post(f"/api/roster/claims/{claim['id']}/confirm/", {}, format="json").json()["state"]
        == "confirmed"
    )
    response = api.post(f"/api/roster/claims/{claim['id']}/deny/", {}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "reason"
    response = api.post(
        f"/api/roster/claims/{claim['id']}/deny/", {"reason": "no witness"}, format="json"
    )
    assert response.json()["state"] == "denied"
    board = APIClient().get("/api/roster/aces/").json()
    assert board["count"] == 0  # the only kill was denied


def test_a_bad_table_battle_is_a_400_naming_field_and_rule_and_stores_nothing(api, cast):
    bad = _table(cast, system="angels20")  # Angels 20 has no crew hits
    response = api.post("/api/roster/table-battles/", bad, format="json")
    assert response.status_code == 400
    error = {
        "detail": "Angels 20 has no crew hits",
        "field": "flights[1].crew_hits",
        "rule": None,
        "code": "invalid",
    }
    assert response.json() == {**error, "errors": [error]}
    response = api.post(
        "/api/roster/table-battles/", {**_table(cast), "territory": "moon"}, format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "territory"
    assert reason(response.json()) == "invalid_choice"
    assert (
        not TableBattle.objects.exists()
        and not Claim.objects.exists()
        and not AppliedResult.objects.exists()
    )


def test_engagement_endpoint_applies_once(api, cast):
    body = {"source_key": "engine:battle:1", "campaign": cast["campaign"].pk,
            "record": {"mode": "engine", "battle_ref": "Battle 1", "territory": "allied",
                       "flown": [{"pilot_id": cast["Bader"].pk, "damage": 1}],
                       "kills": [{"shooter_pilot_id": cast["Bader"].pk, "victim_aircraft": "Messerschmitt Bf 109"}]}}  # fmt: skip
    assert api.post("/api/roster/engagements/", body, format="json").status_code == 201
    assert api.post("/api/roster/engagements/", body, format="json").status_code == 200
    career = APIClient().get(f"/api/roster/pilots/{cast['Bader'].pk}/").json()
    assert (
        career["pilot"]["air_kills"] == 1
        and career["kills"][0]["details"]["victim_aircraft"] == "Messerschmitt Bf 109"
    )
    bad = {**body, "source_key": "x", "record": {**body["record"], "wings": 2}}
    response = api.post("/api/roster/engagements/", bad, format="json")
    assert response.status_code == 400 and (response.json()["field"], reason(response.json())) == (
        "record",
        "format",
    )


def test_reads_are_public_and_writes_need_a_writer(cast, django_user_model):
    anonymous = APIClient()
    assert anonymous.get("/api/roster/aces/").status_code == 200
    assert anonymous.get(f"/api/roster/squadrons/{cast['raf'].pk}/").status_code == 200
    assert anonymous.get(f"/api/roster/campaigns/{cast['campaign'].pk}/stats/").status_code == 200
    assert anonymous.get(f"/api/roster/pilots/{cast['Bader'].pk}/events/").json()["count"] == 1
    assert (
        anonymous.post("/api/roster/table-battles/", _table(cast), format="json").status_code == 401
    )
    player = APIClient()
    player.force_authenticate(
        django_user_model.objects.create_user("player", password="pw-player-1")
    )
    assert player.post("/api/roster/table-battles/", _table(cast), format="json").status_code == 403
    assert (
        player.post(
            f"/api/roster/pilots/{cast['Bader'].pk}/retire/", {"reason": "x"}, format="json"
        ).status_code
        == 403
    )


def test_settings_awards_turns_and_organiser_acts(api, cast):
    campaign = cast["campaign"]
    url = f"/api/roster/campaigns/{campaign.pk}/career-settings/"
    assert api.put(url, {"replacement_rate": 3}, format="json").json()["replacement_rate"] == 3
    response = api.put(url, {"year": 1960}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "year"
    response = api.post(f"/api/roster/campaigns/{campaign.pk}/awards/",
                        {"name": "DFC", "nation": "United Kingdom", "threshold_kind": "kills", "threshold": 1}, format="json")  # fmt: skip
    assert response.status_code == 201 and AwardDefinition.objects.count() == 1
    response = api.post(f"/api/roster/campaigns/{campaign.pk}/awards/",
                        {"name": "DFC", "threshold_kind": "sorties", "threshold": 1}, format="json")  # fmt: skip
    assert response.status_code == 400 and response.json()["field"] == "threshold_kind"
    out = api.post(
        f"/api/roster/campaigns/{campaign.pk}/turn-begin/", {"campaign_turn": 2}, format="json"
    ).json()
    assert len(out["drafted"]) == 3  # RAF 3/4 -> +1, JG 51 2/4 -> +2
    bader = cast["Bader"].pk
    assert (
        api.post(
            f"/api/roster/pilots/{bader}/retire/", {"reason": "tour over"}, format="json"
        ).json()["status"]
        == "retired"
    )
    assert (
        api.post(f"/api/roster/pilots/{bader}/revive/", {"reason": "back"}, format="json").json()[
            "status"
        ]
        == "active"
    )
    response = api.post(
        f"/api/roster/pilots/{bader}/transfer/",
        {"squadron": cast["jg"].pk, "reason": "x"},
        format="json",
    )
    assert response.status_code == 400 and reason(response.json()) == "invalid"
    response = api.post("/api/roster/pilots/add/", {"squadron": cast["raf"].pk, "name": "New", "campaign": campaign.pk,
                                                    "reason": "posted"}, format="json")  # fmt: skip
    assert response.status_code == 201 and response.json()["quality"] == "average"

"""The career API names the field at fault in plain words: an engagement record missing
fields or with a pilot id that is not a number, an award threshold below 1."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from careers.models import AppliedResult, AwardDefinition
from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.serializers import EngagementRecordInput, FlownRecordInput, KillRecordInput
from tests.errors import reason


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def test_an_engagement_record_missing_fields_names_each(api, cast):
    body = {"source_key": "k3", "campaign": cast["campaign"].pk,
            "record": {"flown": [{"pilot_id": "abc"}]}}  # fmt: skip
    response = api.post("/api/roster/engagements/", body, format="json")
    assert response.status_code == 400
    out = response.json()
    found = {e["field"]: e for e in out["errors"]}
    # named by their path in the record, as the service names the record's fields
    assert set(found) == {"mode", "battle_ref", "flown[0].pilot_id"}
    assert reason(out) == "required" and found["battle_ref"]["code"] == "required"
    assert found["flown[0].pilot_id"]["detail"] == "must be a whole number"
    assert found["flown[0].pilot_id"]["code"] == "format"
    assert "__init__" not in str(out) and "positional" not in str(out)
    assert not AppliedResult.objects.exists()


@pytest.mark.parametrize(
    ("record", "field", "why"),
    [
        ({"mode": "psychic"}, "mode", "invalid_choice"),
        ({"flown": [{"pilot_id": 1, "damage": -1}]}, "flown[0].damage", "range"),
        ({"flown": [{"pilot_id": 1, "wings": 2}]}, "flown[0]", "format"),
        ({"wings": 2}, "record", "format"),
        ({"kills": [{"shooter_pilot_id": "x"}]}, "kills[0].shooter_pilot_id", "format"),
        ({"flown": "Bader"}, "flown", "not_a_list"),
    ],
)
def test_a_bad_engagement_record_names_the_field(api, cast, record, field, why):
    good = {"mode": "engine", "battle_ref": "Battle 1", "flown": [{"pilot_id": cast["Bader"].pk}]}
    body = {"source_key": "k4", "campaign": cast["campaign"].pk, "record": {**good, **record}}
    response = api.post("/api/roster/engagements/", body, format="json")
    assert response.status_code == 400
    assert (response.json()["field"], reason(response.json())) == (field, why)
    assert not AppliedResult.objects.exists()


@pytest.mark.parametrize(
    ("serializer", "record"),
    [
        (EngagementRecordInput, EngagementRecord),
        (FlownRecordInput, FlownRecord),
        (KillRecordInput, KillRecord),
    ],
)
def test_the_record_inputs_have_the_records_fields(serializer, record):
    assert set(serializer().fields) == set(record.__dataclass_fields__)


@pytest.mark.parametrize("threshold", [0, -1])
def test_an_award_threshold_below_one_is_named(api, cast, threshold):
    url = f"/api/roster/campaigns/{cast['campaign'].pk}/awards/"
    response = api.post(
        url, {"name": "Fz", "threshold_kind": "kills", "threshold": threshold}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert (body["field"], body["detail"]) == ("threshold", "threshold must be at least 1")
    assert "onstraint" not in str(body)
    assert not AwardDefinition.objects.exists()

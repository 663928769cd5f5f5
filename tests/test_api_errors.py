"""The API answers every error in one shape, documented in its schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from angels.errors import RuleViolation
from tests.errors import ERROR_KEYS, reason

pytestmark = pytest.mark.django_db


def test_a_rulebook_refusal_names_field_and_citation(django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("p", password="pw-123456"))
    body = client.post(
        "/api/battles/create/",
        {
            "scenario": "dogfight",
            "settings": {"rules": {"flak_fields": [[5, 9, 7]]}},
        },
        format="json",
    ).json()
    assert set(body) == ERROR_KEYS
    assert body["rule"] == "000 'FLAK FIELDS'" and body["field"] == "settings.rules.flak_fields[0]"


def test_a_serializer_lists_every_error_with_its_field(django_user_model):
    user = django_user_model.objects.create_user("o", password="pw-123456")
    client = APIClient()
    client.force_authenticate(user)
    body = client.post("/api/battles/batches/", {"runs": 0}, format="json").json()
    fields = {e["field"] for e in body["errors"]}
    assert {"scenario", "runs"} <= fields
    assert reason(body) in {"required", "min_value"}


def test_not_found_and_not_allowed_come_in_the_same_shape():
    missing = APIClient().get("/api/battles/999999/")
    assert missing.status_code == 404 and reason(missing.json()) == "not_found"
    refused = APIClient().post("/api/battles/batches/", {}, format="json")
    assert refused.status_code in (401, 403) and set(refused.json()) == ERROR_KEYS


def test_rule_is_only_ever_a_rulebook_citation():
    assert RuleViolation("x", rule="000 'TAILING'").rule == "000 'TAILING'"
    assert RuleViolation("x", rule="003 'MISSION PHASE'", code="state").code == "state"
    for not_a_citation in ("range", "stale version", "000 TAILING"):
        with pytest.raises(ValueError):
            RuleViolation("x", rule=not_a_citation)


def test_the_schema_documents_the_error_responses():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    create = schema["paths"]["/api/battles/create/"]["post"]["responses"]
    assert {"400", "403"} <= set(create)
    assert create["400"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")
    detail = schema["paths"]["/api/battles/{id}/"]["get"]["responses"]
    assert "404" in detail
    assert set(schema["components"]["schemas"]["Error"]["properties"]) == ERROR_KEYS

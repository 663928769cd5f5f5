"""Issue 24 §2 (tests that would not notice): the engagement API refuses a pilot
credited with shooting himself down -- a 400 naming the field, nothing stored."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from careers.models import AppliedResult, PilotEvent

pytestmark = pytest.mark.django_db


def test_a_pilot_credited_with_shooting_himself_down_is_a_400_and_nothing_is_stored(
    organiser, cast
):
    api = APIClient()
    api.force_authenticate(organiser)
    bader = cast["Bader"]
    events_before = PilotEvent.objects.count()
    body = {"source_key": "engine:self", "campaign": cast["campaign"].pk,
            "record": {"mode": "engine", "battle_ref": "Battle 1", "territory": "allied",
                       "flown": [{"pilot_id": bader.pk, "destroyed": True}],
                       "kills": [{"shooter_pilot_id": bader.pk, "victim_pilot_id": bader.pk}]}}  # fmt: skip
    response = api.post("/api/roster/engagements/", body, format="json")
    assert response.status_code == 400, response.content
    assert "kills[0].victim_pilot_id" in response.json()["field"]
    assert "himself" in str(response.json())
    bader.refresh_from_db()
    assert (bader.air_kills, bader.status, bader.experience_markers) == (0, "active", 0)
    assert not AppliedResult.objects.exists()
    assert PilotEvent.objects.count() == events_before

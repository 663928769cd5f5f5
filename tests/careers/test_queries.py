"""Query counts are part of the contract: the same for 10 and for 1,000 pilots."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from careers.models import PilotEvent
from roster.models import Pilot, Squadron


def _grow(squadron, n):
    pilots = Pilot.objects.bulk_create(
        [Pilot(name=f"P{squadron.pk}-{i}", nation=squadron.nation, squadron=squadron, quality="average",
               quality_scale="air_force", air_kills=i % 7, experience_markers=i % 11) for i in range(n)]
    )  # fmt: skip
    PilotEvent.objects.bulk_create(
        [PilotEvent(pilot=p, kind="kill", campaign_turn=1 + i % 5, battle_ref=f"B{i}", details={"victim_aircraft": "Hawker Hurricane"})
         for i, p in enumerate(pilots)]
        + [PilotEvent(pilot=p, kind="mission", campaign_turn=1) for p in pilots]
    )  # fmt: skip
    return pilots


def _count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx)


@pytest.mark.parametrize(
    "url",
    ["/pilots/{pilot}/", "/squadrons/{squadron}/", "/aces/", "/aces/?side=axis&status=living",
     "/statistics/{campaign}/", "/", "/aces/?page=2", "/aces/?squadron_name=JG", "/api/roster/aces/", "/api/roster/pilots/{pilot}/", "/api/roster/squadrons/{squadron}/"],
)  # fmt: skip
def test_pages_use_as_many_queries_for_1000_pilots_as_for_10(client, cast, url):
    squadron = Squadron.objects.get(name="JG 51")
    pilot = cast["Mölders"]
    fill = {"pilot": pilot.pk, "squadron": squadron.pk, "campaign": cast["campaign"].pk}
    _grow(squadron, 10)
    small = _count(client, url.format(**fill))
    _grow(squadron, 990)
    large = _count(client, url.format(**fill))
    assert Pilot.objects.count() > 1000
    assert small == large, f"{url}: {small} queries for 10 pilots, {large} for 1,000"

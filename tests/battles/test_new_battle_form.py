"""The new-battle page helps (issue 16): every problem listed at once beside its field in
plain words, what was entered kept, plain labels, only choices that can work, every value
checked against the rules' bounds; year, theater, advantage, situation and placed clouds."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from roster.models import AircraftType

pytestmark = pytest.mark.django_db


@pytest.fixture
def pilot_client(client, catalog):
    client.force_login(get_user_model().objects.create_user("flyer", password="pw-flyer-123"))
    return client


def type_id(name: str) -> str:
    return str(AircraftType.objects.get(name=name).pk)


def selected(page: str, name: str) -> list[str]:
    """The option values selected in the page's <select name=...> elements."""
    found = []
    for select in re.findall(rf'<select name="{re.escape(name)}">(.*?)</select>', page, re.S):
        found += re.findall(r'<option value="([^"]*)" selected>', select)
    return found


def test_a_bad_battle_lists_every_problem_and_keeps_the_input(pilot_client):
    c200, hurricane, mustang = (
        type_id("C.200 Saetta Rookie"), type_id("Hurricane Mk I"), type_id("P-51B Mustang Ace")
    )  # fmt: skip
    form = {
        "scenario": "standard", "year": "1940", "situation": "4",
        "axis_aircraft": [c200, "", "", "", ""],  # one aircraft: too few
        "allied_aircraft": [hurricane, mustang, "", "", ""],  # a Mustang of 1943 in 1940
        "night": "darkness", "direction_axis": "abc", "direction_allied": "99",
        "flak_fields": "8,10", "tailing": "on",
    }  # fmt: skip
    response = pilot_client.post("/battles/new/", form)
    assert response.status_code == 400 and Battle.objects.count() == 0
    page = response.content.decode()
    assert "5 problems to fix" in page
    for plain_words in (
        "A flight has 2 to 5 aircraft, not 1",
        "is from 1943, after 1940",
        "The axis direction capacity is a whole number from 0 to 5",
        "The allied direction capacity is a whole number from 0 to 5",
        "Write each as column, row, altitude",
    ):
        assert plain_words.lower() in page.lower(), plain_words
    assert "flights.axis:" not in page and "[000 &#x27;" not in page  # no developer words
    assert '<small class="cite">(rulebook 000, Year restrictions)</small>' in page
    # what was entered is still there
    assert selected(page, "scenario") == ["standard"] and selected(page, "year") == ["1940"]
    assert selected(page, "situation") == ["4"] and selected(page, "night") == ["darkness"]
    assert selected(page, "axis_aircraft") == [c200]
    assert selected(page, "allied_aircraft") == [hurricane, mustang]
    assert 'name="direction_allied" value="99"' in page
    assert 'name="flak_fields" value="8,10"' in page
    assert 'name="tailing" checked' in page and 'name="status" checked' not in page


def test_the_page_offers_only_what_can_work_in_plain_words(pilot_client):
    page = pilot_client.get("/battles/new/").content.decode()
    assert 'value="engagement"' not in page  # a campaign builds its own engagements
    assert "Tailing: an aircraft behind an enemy" in page and "> tailing<" not in page
    assert 'name="year"' in page and "Mediterranean" in page and 'name="situation"' in page
    assert page.count('name="cloud_hex_0"') == 16 * 22  # a placed cloud's map, no JSON box
    assert "JSON" not in page
    response = pilot_client.post("/battles/new/", {"scenario": "engagement", "year": "1900"})
    assert response.status_code == 400 and Battle.objects.count() == 0
    page = response.content.decode()
    assert "Choose a scenario from the list" in page and "The year is 19" in page


def test_a_good_battle_takes_year_theater_advantage_situation_and_a_placed_cloud(pilot_client):
    c200, hurricane = type_id("C.200 Saetta Rookie"), type_id("Hurricane Mk I")
    form = {
        "scenario": "standard", "year": "1940", "theater": "Mediterranean",
        "advantage": "axis", "situation": "4",
        "axis_aircraft": [c200, c200, "", "", ""], "allied_aircraft": [hurricane, hurricane],
        "axis_policy": "tactical", "allied_policy": "random",
        "cloud_hex_0": ["4,5", "4,6"], "cloud_base_0": "2", "cloud_top_0": "3",
        "pilot_survival": "on", "resolve": "later",
    }  # fmt: skip
    response = pilot_client.post("/battles/new/", form)
    assert response.status_code == 302, response.content.decode()[:3000]
    battle = Battle.objects.get()
    assert battle.settings["year"] == 1940 and battle.settings["theater"] == "Mediterranean"
    assert battle.settings["advantage"] == "axis" and battle.settings["situation"] == 4
    assert battle.settings["rules"]["cloud_shapes"] == [
        {"hexes": [[4, 5], [4, 6]], "base": 2, "top": 3}
    ]
    assert battle.settings["rules"]["pilot_survival"] is True
    assert battle.setup["situation"] == 4 and battle.setup["advantaged_side"] == "axis"


def test_a_placed_cloud_needs_its_altitudes(pilot_client):
    response = pilot_client.post(
        "/battles/new/", {"scenario": "dogfight", "cloud_hex_1": ["3,3"], "cloud_base_1": "5"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Choose the cloud&#x27;s top altitude, 1 to 6" in page
    assert 'value="3,3" aria-label="column 3, row 3" checked' in page  # the ticked hex kept

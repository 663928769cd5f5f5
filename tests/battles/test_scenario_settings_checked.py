"""Every scenario checks the settings it takes with the Standard Scenario's rules and refuses,
by name, the ones it does not use; a Battle of Britain scenario given aircraft refuses them
(API and new-battle page alike) instead of storing them and flying the book's own."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from roster.models import AircraftType

pytestmark = pytest.mark.django_db

FLIGHTS = {
    "axis": [{"aircraft_type": "Bf 109E Ace"}, {"aircraft_type": "Bf 109E Wingman"}],
    "allied": [{"aircraft_type": "Spitfire Mk I Ace"}, {"aircraft_type": "Hurricane Mk I"}],
}


@pytest.fixture
def api(client, catalog):
    client.force_login(get_user_model().objects.create_user("flyer", password="pw-flyer-123"))
    return client


def _create(api, body):
    return api.post("/api/battles/create/", body, content_type="application/json")


@pytest.mark.parametrize(
    "setting",
    [{"year": 2026}, {"theater": "Mars"}, {"advantage": "martian"}, {"situation": 99}],
)
@pytest.mark.parametrize("scenario", ["dogfight", "intercept", "limited_fuel", "schnellbomber"])
def test_a_battle_of_britain_scenario_refuses_a_setting_it_does_not_use(api, scenario, setting):
    response = _create(api, {"scenario": scenario, "settings": setting})
    assert response.status_code == 400, response.content
    body = response.json()
    (key,) = setting
    assert body["field"] == f"settings.{key}"
    assert f"{key} is not used by" in body["detail"]
    assert Battle.objects.count() == 0


@pytest.mark.parametrize(
    ("setting", "words"),
    [
        ({"year": 2026}, "the year is a whole number from 19"),
        ({"year": "abc"}, "the year is a whole number"),  # was a 500
        ({"theater": "Mars"}, "the theater is one of"),
        ({"advantage": "martian"}, "the advantage goes to axis or allied"),  # was a 500
        ({"situation": 99}, "the starting situation is a whole number from 1 to 6"),
        ({"situation": "3"}, "the starting situation is a whole number from 1 to 6"),
    ],
)
def test_the_standard_scenario_names_the_bad_setting(api, setting, words):
    response = _create(api, {"scenario": "standard", "flights": FLIGHTS, "settings": setting})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == f"settings.{next(iter(setting))}"
    assert words in body["detail"]
    assert Battle.objects.count() == 0


def test_bomber_escort_takes_year_and_theater_but_refuses_advantage(api):
    good = {"year": 1940, "theater": "Europe, Western Front"}
    response = _create(api, {"scenario": "bomber_escort", "flights": FLIGHTS, "settings": good})
    assert response.status_code == 202, response.content
    bad = {"advantage": "axis"}
    response = _create(api, {"scenario": "bomber_escort", "flights": FLIGHTS, "settings": bad})
    assert response.status_code == 400 and response.json()["field"] == "settings.advantage"
    assert "advantage is not used by Bomber Escort" in response.json()["detail"]
    assert Battle.objects.count() == 1


def test_the_standard_scenario_takes_good_settings(api):
    settings = {
        "year": 1940,
        "theater": "Europe, Western Front",
        "advantage": "axis",
        "situation": 4,
    }
    response = _create(api, {"scenario": "standard", "flights": FLIGHTS, "settings": settings})
    assert response.status_code == 202, response.content
    assert Battle.objects.get().settings["situation"] == 4


def test_a_dogfight_given_aircraft_through_the_api_refuses_them(api):
    response = _create(api, {"scenario": "dogfight", "flights": FLIGHTS})
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "flights"
    assert "the Dogfight flies its own aircraft" in body["detail"]
    assert "choose the Standard Scenario" in body["detail"]
    assert Battle.objects.count() == 0


def test_the_page_refuses_aircraft_and_a_year_for_a_dogfight_and_keeps_the_input(api):
    spitfire = str(AircraftType.objects.get(name="Spitfire Mk I Ace").pk)
    form = {"scenario": "dogfight", "year": "1940", "allied_aircraft": [spitfire, "", "", "", ""]}
    response = api.post("/battles/new/", form)
    assert response.status_code == 400 and Battle.objects.count() == 0
    page = response.content.decode()
    assert "The Dogfight flies its own aircraft" in page
    assert "choose the Standard Scenario or Bomber Escort to pick aircraft" in page
    assert "Year is not used by the Dogfight" in page
    assert f'<option value="{spitfire}" selected>' in page  # the choice kept
    assert '<option value="1940" selected>' in page


def test_the_page_still_flies_a_plain_dogfight(api):
    response = api.post("/battles/new/", {"scenario": "dogfight"})
    assert response.status_code == 302
    assert Battle.objects.get().scenario == "dogfight"


def test_the_api_builds_no_campaign_engagement(api):
    # before, "engagement" with flights was built as a Bomber Escort and stored
    response = _create(api, {"scenario": "engagement", "flights": FLIGHTS})
    assert response.status_code == 400 and response.json()["field"] == "scenario"
    assert "built by its campaign" in response.json()["detail"]
    assert Battle.objects.count() == 0

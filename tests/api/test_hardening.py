"""The API's input edges a tester found answering 500s, silently ignored, or in Django's
HTML: each is a 400 or 404 in the API's one error shape, naming what is wrong."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token

from battles.models import Battle
from tests.errors import reason

pytestmark = pytest.mark.django_db

DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
def staff(client, catalog):
    user = get_user_model().objects.create_user("staffer", password="pw-staff-123", is_staff=True)
    client.force_login(user)
    return client


# 1. JSON nested deeper than the decoder follows


def test_deeply_nested_json_is_a_400_signed_out(client):
    get_user_model().objects.create_user("pilot", password="pw-pilot-123")
    response = client.post("/api/auth/token/", DEEP, content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert reason(body) == "parse_error"
    assert "nested too deeply" in body["detail"]
    assert not Token.objects.exists()


def test_deeply_nested_json_is_a_400_signed_in_and_stores_nothing(staff):
    response = staff.post("/api/battles/create/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert reason(response.json()) == "parse_error"
    assert not Battle.objects.exists()


def test_the_form_parsers_are_kept(client):
    get_user_model().objects.create_user("pilot", password="pw-pilot-123")
    response = client.post("/api/auth/token/", {"username": "pilot", "password": "pw-pilot-123"})
    assert response.status_code == 200 and response.json()["token"]


# 2. limit and offset

LISTS = [
    "/api/roster/aircraft-types/",
    "/api/roster/pilots/",
    "/api/roster/squadrons/",
    "/api/roster/aces/",
    "/api/battles/",
    "/api/campaigns/",
]
BAD_PAGES = [
    ("limit=-1", "limit"),
    ("limit=abc", "limit"),
    ("limit=0", "limit"),
    ("limit=1.5", "limit"),
    ("offset=-5", "offset"),
    ("offset=abc", "offset"),
    ("limit=10&offset=+3", "offset"),
]


@pytest.mark.parametrize("url", LISTS)
@pytest.mark.parametrize(("query", "field"), BAD_PAGES)
def test_a_bad_limit_or_offset_is_a_400_naming_it(client, catalog, url, query, field):
    response = client.get(f"{url}?{query}")
    assert response.status_code == 400, (url, query, response.content[:200])
    body = response.json()
    assert body["field"] == field and reason(body) == "range"
    assert body["detail"].startswith(f"{field} must be a whole number")
    if field == "limit":
        assert "from 1 to 500" in body["detail"]


def test_good_limits_and_offsets_still_page(client, catalog):
    url = "/api/roster/aircraft-types/"
    everything = client.get(f"{url}?limit=500").json()
    assert everything["count"] > 3
    names = [row["name"] for row in everything["results"]]
    page = client.get(f"{url}?limit=2&offset=1").json()
    assert [row["name"] for row in page["results"]] == names[1:3]
    # an empty value is no value: the default page
    assert len(client.get(f"{url}?limit=&offset=").json()["results"]) == min(50, len(names))
    # a limit over the most is capped, an offset past the end is an empty page
    assert len(client.get(f"{url}?limit=501").json()["results"]) == len(names)
    assert client.get(f"{url}?offset={'9' * 5000}").json()["results"] == []
    assert len(client.get(f"{url}?limit={'9' * 5000}").json()["results"]) == len(names)


def test_the_schema_gives_the_least_limit_and_offset_and_the_400(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/roster/pilots/"]["get"]
    params = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert params["limit"]["minimum"] == 1 and params["offset"]["minimum"] == 0
    assert "400" in operation["responses"]


# 3. a pilot that is not an id, in a battle's flights


def _create_with_pilot(staff, slot: int, pilot):
    """A Standard Scenario whose axis aircraft ``slot`` names ``pilot`` as its pilot."""
    axis = [{"aircraft_type": "Bf 109E Ace"}, {"aircraft_type": "Bf 109E Wingman"}]
    axis[slot]["pilot"] = pilot
    flights = {"axis": axis, "allied": [{"aircraft_type": "Spitfire Mk I Ace"}, {"aircraft_type": "Hurricane Mk I"}]}  # fmt: skip
    return staff.post(
        "/api/battles/create/",
        {"scenario": "standard", "flights": flights},
        content_type="application/json",
    )


def test_a_flight_pilot_that_is_not_a_number_is_named_at_its_path(staff):
    response = _create_with_pilot(staff, 1, "abc")
    assert response.status_code == 400
    body = response.json()
    assert (body["field"], reason(body)) == ("flights.axis[1].pilot", "format")
    assert "whole number" in body["detail"] and "'abc'" in body["detail"]
    assert "Field 'id'" not in body["detail"]
    assert not Battle.objects.exists()


@pytest.mark.parametrize(("pilot", "why"), [(True, "format"), (2**70, "exists"), (-3, "exists")])
def test_a_flight_pilot_out_of_range_is_named_at_its_path(staff, pilot, why):
    response = _create_with_pilot(staff, 0, pilot)
    assert response.status_code == 400
    assert (response.json()["field"], reason(response.json())) == ("flights.axis[0].pilot", why)
    assert not Battle.objects.exists()


# 4. an unknown address under /api/


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_api_address_is_a_json_404(client, settings, debug):
    settings.DEBUG = debug
    for response in (
        client.get("/api/nonexistent/"),
        client.get("/api/roster/nothing/here/"),
        client.get("/api/nonexistent/", follow=True),
        # a post without a CSRF token meets the same 404, not a CSRF page
        Client(enforce_csrf_checks=True).post("/api/nonexistent/", {}),
    ):
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert reason(response.json()) == "not_found"
    # a missing slash is still added to an endpoint's address; the pages keep Django's 404
    response = client.get("/api/roster/pilots?side=axis")
    assert (response.status_code, response["Location"]) == (301, "/api/roster/pilots/?side=axis")
    assert client.get("/api/nonexistent", follow=True).json()["code"] == "not_found"
    assert client.get("/nonexistent/")["Content-Type"].startswith("text/html")

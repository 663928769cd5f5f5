import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, BattleBatch
from tests.errors import reason

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client, catalog):
    user = get_user_model().objects.create_user("organiser", password="pw-123456", is_staff=True)
    client.force_login(user)
    return client


def _post(api, url, data):
    return api.post(url, data, content_type="application/json")


def test_create_a_battle_through_the_api_and_read_its_result(
    api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(api, "/api/battles/create/", {"scenario": "dogfight", "seed": 4})
    assert response.status_code == 202, response.content
    pk = response.json()["id"]
    body = api.get(f"/api/battles/{pk}/").json()
    assert body["status"] == "finished"
    assert body["result"]["turns_played"] >= 1
    assert {a["name"] for a in body["result"]["aircraft"]} == {
        "Bf 109E Ace",
        "Bf 109E Wingman",
        "Spitfire Mk I Ace",
        "Hurricane Mk I",
    }
    log = api.get(f"/api/battles/{pk}/log/").json()
    assert log["log"][0]["e"] == "battle_start" and log["actions"]
    listing = api.get("/api/battles/?status=finished").json()
    assert listing["count"] == 1


def test_a_standard_scenario_from_flights(api, django_capture_on_commit_callbacks):
    flights = {
        "axis": [{"aircraft_type": "Bf 109E Ace"}, {"aircraft_type": "Bf 109E Wingman"}],
        "allied": [{"aircraft_type": "Spitfire Mk I Ace"}, {"aircraft_type": "Hurricane Mk I"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(
            api, "/api/battles/create/", {"scenario": "standard", "flights": flights, "seed": 8}
        )
    assert response.status_code == 202, response.content
    battle = Battle.objects.get(pk=response.json()["id"])
    assert battle.status == "finished" and battle.setup["vp_target"] == 60


BAD_FLIGHTS = [
    (  # unknown aircraft type
        {
            "axis": [{"aircraft_type": "Messerschmitt Me 999"}, {"aircraft_type": "Bf 109E Ace"}],
            "allied": [{"aircraft_type": "Hurricane Mk I"}] * 2,
        },
        "flights.axis[0].aircraft_type",
        "exists",
    ),
    (  # over 100 points
        {
            "axis": [{"aircraft_type": "Bf 109E Ace"}] * 3,
            "allied": [{"aircraft_type": "Hurricane Mk I"}] * 2,
        },
        "flights.axis",
        "000 'BUILDING FLIGHTS'",
    ),
    (  # more than 5 aircraft
        {
            "axis": [{"aircraft_type": "C.200 Saetta Rookie"}] * 6,
            "allied": [{"aircraft_type": "Hurricane Mk I"}] * 2,
        },
        "flights.axis",
        "000 'BUILDING FLIGHTS'",
    ),
    (  # aircraft of the wrong side
        {
            "axis": [{"aircraft_type": "Spitfire Mk I Ace"}, {"aircraft_type": "Bf 109E Ace"}],
            "allied": [{"aircraft_type": "Hurricane Mk I"}] * 2,
        },
        "flights.axis[0].aircraft_type",
        "000 'CHOOSING SIDES'",
    ),
]


@pytest.mark.parametrize(("flights", "field", "rule"), BAD_FLIGHTS)
def test_bad_flights_are_a_400_naming_field_and_rule_and_store_nothing(api, flights, field, rule):
    response = _post(api, "/api/battles/create/", {"scenario": "standard", "flights": flights})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == field and reason(body) == rule
    assert Battle.objects.count() == 0


@pytest.mark.parametrize(
    ("payload", "field", "rule"),
    [
        ({"scenario": "jousting"}, "scenario", "invalid"),
        (
            {"scenario": "dogfight", "settings": {"weather": "fog"}},
            "settings.weather",
            "invalid",
        ),
        (
            {"scenario": "dogfight", "settings": {"rules": {"fog": True}}},
            "settings.rules.fog",
            "invalid",
        ),
        (
            {"scenario": "dogfight", "settings": {"policies": {"axis": "psychic"}}},
            "settings.policies.axis",
            "invalid",
        ),
    ],
)
def test_bad_scenarios_and_options_are_a_400(api, payload, field, rule):
    response = _post(api, "/api/battles/create/", payload)
    assert response.status_code == 400
    assert (response.json()["field"], reason(response.json())) == (field, rule)
    assert Battle.objects.count() == 0


def test_a_batch_over_the_api(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(
            api, "/api/battles/batches/", {"scenario": "dogfight", "runs": 3, "seed": 1}
        )
    assert response.status_code == 202
    body = api.get(f"/api/battles/batches/{response.json()['id']}/").json()
    assert body["finished"] == 3 and body["summary"]["battles"] == 3
    bad = _post(api, "/api/battles/batches/", {"scenario": "dogfight", "runs": 0})
    assert bad.status_code == 400 and bad.json()["field"] == "runs"
    assert BattleBatch.objects.count() == 1


def test_the_schema_lists_the_battle_endpoints(api):
    schema = api.get("/api/schema/").content.decode()
    assert "/api/battles/create/" in schema and "/api/battles/batches/" in schema

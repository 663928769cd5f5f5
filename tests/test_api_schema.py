"""What schemathesis found, pinned one by one: each answer is in the API's error
shape and status the schema documents, never a 500 or an HTML page."""

import base64

import pytest
from django.contrib.auth import get_user_model
from django.urls import resolve

from campaign.models import Campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(db):
    get_user_model().objects.create_user("player", password="pw-player-123")
    token = base64.b64encode(b"player:pw-player-123").decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def test_a_huge_page_limit_is_capped_not_a_server_error(client, catalog):
    response = client.get("/api/roster/aircraft-types/?limit=7918804874843773227499520")
    assert response.status_code == 200
    assert len(response.json()["results"]) == min(500, response.json()["count"])


def test_an_api_path_with_a_non_numeric_id_is_a_json_404(client):
    response = client.get("/api/battles/abc/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"
    # the pages keep Django's own 404
    assert client.get("/battles/abc/")["Content-Type"].startswith("text/html")


def test_a_campaign_with_an_out_of_range_squadron_id_is_refused(client, player):
    response = client.post(
        "/api/campaigns/create/",
        {"name": "Overflow", "squadrons": [803642308410936433422893056]},
        content_type="application/json",
        **player,
    )
    assert response.status_code == 400
    assert response.json()["field"] == "squadrons.0"
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("field", ["squadrons", "pilots"])
def test_an_enrolment_with_an_out_of_range_id_is_refused(client, player, field):
    response = client.post(
        "/api/campaigns/1/enrolment/",
        {field: [82814641454813957301731328]},
        content_type="application/json",
        **player,
    )
    assert response.status_code == 400
    assert response.json()["field"] == f"{field}.0"


def test_the_schema_documents_a_refused_media_type_on_every_write(client):
    schema = client.get("/api/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            documented = operation["responses"]
            if method in ("post", "put", "patch"):
                assert "415" in documented, f"{method.upper()} {path}"
            for code in ("400", "404", "415"):
                if code in documented:
                    content = documented[code]["content"]["application/json"]["schema"]
                    assert content == {"$ref": "#/components/schemas/Error"}


def test_every_throttled_operation_documents_its_429(client):
    schema = client.get("/api/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        view = resolve(path.replace("{id}", "1")).func.view_class
        throttled = bool(getattr(view, "throttle_classes", ()))
        for method, operation in operations.items():
            assert ("429" in operation["responses"]) == throttled, f"{method.upper()} {path}"

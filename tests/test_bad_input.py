"""Bad input answers a 4xx naming the field, never a 500, and stores nothing.

Each case here answered HTTP 500 once: Unicode digits that ``str.isdigit()``
accepts and ``int()`` refuses, NUL bytes PostgreSQL refuses in text, ids and
numbers out of range for their columns, forms posted to missing campaigns.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from battles.models import Battle
from campaign import services as campaign_services
from campaign.models import Campaign
from roster.models import AircraftType
from roster.services import squadron_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user("orga", password="pw-orga-123", is_staff=True)


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


@pytest.fixture
def pages(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def two_squadrons(catalog):
    spit = AircraftType.objects.get(name="Supermarine Spitfire")
    me109 = AircraftType.objects.get(name="Messerschmitt Bf 109")
    raf = squadron_create(
        name="No. 19 Squadron", nation="United Kingdom", side="allied", aircraft_type=spit
    )
    jg = squadron_create(name="JG 51", nation="Germany", side="axis", aircraft_type=me109)
    return raf, jg


@pytest.fixture
def campaign(two_squadrons, organiser):
    return campaign_services.campaign_create(
        name="Bad input 1940", created_by=organiser, seed=3, squadrons=list(two_squadrons)
    )


def assert_names(response, field: str, status: int = 400, code: str | None = None) -> None:
    assert response.status_code == status, response.content[:500]
    body = response.json()
    assert body["field"] == field, body
    if code is not None:
        assert body["code"] == code, body


# --- 1. Unicode digits (and huge numbers) in hand-parsed query parameters --------------

QUERY_CASES = [
    ("/api/campaigns/{campaign}/", "log_since", "²", "format"),
    ("/api/campaigns/{campaign}/", "log_since", "-1", "format"),
    ("/api/campaigns/{campaign}/", "log_since", "9" * 30, "range"),
    ("/api/battles/", "batch", "²", "format"),
    ("/api/battles/", "batch", "9" * 30, "range"),
    ("/api/roster/pilots/", "squadron", "²", "format"),
    ("/api/roster/pilots/", "squadron", "9" * 30, "range"),
    ("/api/roster/aces/", "squadron", "²", "format"),
    ("/api/roster/aces/", "campaign", "١٢", "format"),
]


@pytest.mark.parametrize(("url", "param", "value", "code"), QUERY_CASES)
def test_query_parameter_not_ascii_digits_is_a_400_naming_it(
    api, campaign, url, param, value, code
):
    response = api.get(url.format(campaign=campaign.pk), {param: value})
    assert_names(response, param, code=code)


@pytest.mark.parametrize("value", ["²", "١", "9" * 30])
def test_pages_ignore_filters_that_are_not_ascii_digits(pages, campaign, value):
    assert pages.get("/aces/", {"squadron": value, "campaign": value}).status_code == 200


def test_battle_form_with_unicode_digit_aircraft_is_reshown_not_stored(pages, two_squadrons):
    response = pages.post(
        "/battles/new/",
        {"scenario": "standard", "axis_aircraft": ["²"], "allied_aircraft": ["²"]},
    )
    assert response.status_code in (200, 400)
    assert not Battle.objects.exists()


@pytest.mark.parametrize("field", ["direction_axis", "flak_fields"])
def test_battle_form_optional_rules_with_unicode_digits_are_refused(pages, two_squadrons, field):
    response = pages.post("/battles/new/", {"scenario": "standard", field: "²,1,1"})
    assert response.status_code in (200, 400)
    assert not Battle.objects.exists()


# --- 2. NUL characters, refused at the edge ---------------------------------------------


@pytest.mark.parametrize(
    ("url", "param"),
    [
        ("/api/roster/pilots/", "status"),
        ("/api/battles/", "scenario"),
        ("/api/roster/aces/", "nation"),
    ],
)
def test_nul_in_a_query_parameter_is_a_400_naming_it(api, url, param):
    assert_names(api.get(url, {param: "a\x00b"}), param, code="invalid")


def test_nul_on_a_page_is_a_plain_400(client, db):
    assert client.get("/aces/", {"nation": "a\x00"}).status_code == 400


def test_nul_in_a_json_string_is_a_400_naming_its_path(api, two_squadrons):
    raf, _ = two_squadrons
    response = api.post(
        "/api/campaigns/create/",
        {"name": "Bad\x00name", "seed": 1, "squadrons": [raf.pk]},
        format="json",
    )
    assert_names(response, "name", code="invalid")
    assert not Campaign.objects.exists()


def test_nul_as_a_raw_escape_in_json_is_refused_too(api, two_squadrons):
    raf, _ = two_squadrons
    body = '{"name": "Bad\\u0000name", "seed": 1, "squadrons": [PK]}'.replace("PK", str(raf.pk))
    response = api.post("/api/campaigns/create/", body, content_type="application/json")
    assert_names(response, "name", code="invalid")
    assert not Campaign.objects.exists()


def test_an_escaped_backslash_before_u0000_is_not_a_nul(api, two_squadrons):
    raf, _ = two_squadrons
    body = '{"name": "Bad\\\\u0000name", "seed": 1, "squadrons": [PK]}'.replace("PK", str(raf.pk))
    response = api.post("/api/campaigns/create/", body, content_type="application/json")
    assert response.status_code == 201, response.content[:300]


def test_nul_in_basic_auth_is_a_400_naming_the_header(db):
    import base64

    token = base64.b64encode(b"orga\x00:pw\x00").decode()
    response = APIClient().get("/api/roster/pilots/", HTTP_AUTHORIZATION=f"Basic {token}")
    assert_names(response, "Authorization", code="invalid")


def test_nul_in_a_form_field_is_a_400(pages, two_squadrons):
    response = pages.post("/campaigns/new/", {"name": "Bad\x00", "seed": "1"})
    assert response.status_code == 400
    assert not Campaign.objects.exists()


# --- 3./4. careers API: ids that are not numbers, campaign turns out of range -------------


@pytest.fixture
def pilot(two_squadrons):
    from careers.services import pilot_enlist

    raf, _ = two_squadrons
    return pilot_enlist(squadron=raf, name="Bader", quality="average", quality_scale="air_force")


def _engagement(**record):
    return {
        "source_key": "bad-input-1",
        "record": {"mode": "table", "battle_ref": "Bad input", "flown": [], **record},
    }


@pytest.mark.parametrize(
    ("record", "field", "code"),
    [
        ({"flown": [{"pilot_id": "x"}]}, "flown[0].pilot_id", "format"),
        ({"flown": [{"pilot_id": 10**30}]}, "flown[0].pilot_id", "range"),
        ({"flown": [{"pilot_id": True}]}, "flown[0].pilot_id", "format"),
        ({"kills": [{"shooter_pilot_id": "x"}]}, "kills[0].shooter_pilot_id", "format"),
        (
            {"kills": [{"shooter_pilot_id": 1, "victim_pilot_id": "y"}]},
            "kills[0].victim_pilot_id",
            "format",
        ),
        ({"campaign_turn": 10**30}, "campaign_turn", "range"),
    ],
)
def test_engagement_record_with_bad_numbers_is_a_400_naming_the_field(
    api, pilot, record, field, code
):
    from careers.models import AppliedResult

    if "flown" not in record:
        record = {**record, "flown": [{"pilot_id": pilot.pk}]}
    response = api.post("/api/roster/engagements/", _engagement(**record), format="json")
    assert_names(response, field, code=code)
    assert not AppliedResult.objects.exists()


def test_table_battle_with_campaign_turn_out_of_range_is_a_400(api, pilot):
    from careers.models import TableBattle

    body = {
        "name": "Bad turn",
        "system": "air_force",
        "territory": "neutral",
        "campaign_turn": 10**30,
        "flights": [{"pilot_id": pilot.pk, "aircraft": "Spitfire"}],
    }
    response = api.post("/api/roster/table-battles/", body, format="json")
    assert_names(response, "campaign_turn", code="range")
    assert not TableBattle.objects.exists()


def test_turn_begin_out_of_range_is_a_400(api, campaign):
    from careers.models import AppliedResult

    response = api.post(
        f"/api/roster/campaigns/{campaign.pk}/turn-begin/", {"campaign_turn": 10**30}, format="json"
    )
    assert_names(response, "campaign_turn", code="range")
    assert not AppliedResult.objects.exists()


def test_table_battle_form_with_campaign_turn_out_of_range_is_reshown(pages, pilot):
    from careers.models import TableBattle

    response = pages.post("/table-battles/new/", {"name": "Bad", "campaign_turn": str(10**30)})
    assert response.status_code in (200, 400)
    assert not TableBattle.objects.exists()


# --- 5. campaign pages: missing campaigns, squadron ids that are not numbers --------------


@pytest.mark.parametrize("action", ["act", "undo", "invite", "engine-rules"])
def test_form_posted_to_a_missing_campaign_is_a_404(pages, db, action):
    response = pages.post(f"/campaigns/999999/{action}/", {"action": "{}", "version": "1"})
    assert response.status_code == 404


@pytest.mark.parametrize("squadron", ["x", "²", "9" * 30, "999999"])
def test_new_campaign_with_a_bad_squadron_id_is_reshown_with_the_error(
    pages, two_squadrons, squadron
):
    raf, _ = two_squadrons
    response = pages.post(
        "/campaigns/new/", {"name": "Bad squadrons", "squadrons": [raf.pk, squadron]}
    )
    assert response.status_code == 400  # the start form re-shown, the name kept
    assert 'value="Bad squadrons"' in response.content.decode()
    assert "squadron" in response.content.decode()
    assert not Campaign.objects.exists()


# --- 6. organiser's corrections stay within the game's totals -----------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"pp": {"allied": 10**30}}, "pp.allied"),
        ({"st": {"axis": 1000}}, "st.axis"),
        ({"pp": {"axis": -1}}, "pp.axis"),
    ],
)
def test_correction_out_of_range_is_a_400_and_not_stored(api, campaign, body, field):
    version = Campaign.objects.get(pk=campaign.pk).version
    response = api.post(
        f"/api/campaigns/{campaign.pk}/corrections/", {"reason": "typo", **body}, format="json"
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["field"] == field
    assert Campaign.objects.get(pk=campaign.pk).version == version


def test_correction_within_range_is_stored(api, campaign):
    response = api.post(
        f"/api/campaigns/{campaign.pk}/corrections/",
        {"reason": "count again", "pp": {"allied": 999}},
        format="json",
    )
    assert response.status_code == 200, response.content[:300]


def test_nul_inside_json_nested_too_deeply_is_a_400_not_a_500(client, db):
    """The NUL check reads a JSON body before any view: nested deeper than the decoder
    follows, it leaves the body to the API's parser, which refuses it (not a 500)."""
    body = "[" * 5000 + '"\\u0000"' + "]" * 5000
    response = client.post("/api/auth/token/", body, content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["detail"]

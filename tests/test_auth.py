"""Signing in to the API with a token, per-user limits on battles, batches and odds,
and who may start a campaign (issue 13)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from battles import services as battle_services
from battles.models import Battle, BattleBatch
from campaign.models import Campaign
from roster.models import Squadron
from roster.services import squadron_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def pilot_user(django_user_model):
    return django_user_model.objects.create_user("pilot", password="pw-pilot-123")


@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    cache.clear()
    yield
    cache.clear()


# a battle, batch or odds preview stored: 201, or 202 once the outbox sends it later
STORED = (201, 202)


# -- tokens -------------------------------------------------------------------------
def test_a_token_for_a_username_and_password_signs_api_requests(catalog, pilot_user):
    anonymous = APIClient()
    response = anonymous.post(
        "/api/auth/token/", {"username": "pilot", "password": "pw-pilot-123"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert Token.objects.get(user=pilot_user).key == token
    # the same token again, not a new one each time
    again = anonymous.post("/api/auth/token/", {"username": "pilot", "password": "pw-pilot-123"})
    assert again.json()["token"] == token

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post(
        "/api/battles/create/", {"scenario": "dogfight", "seed": 4}, format="json"
    )
    assert created.status_code in STORED
    assert Battle.objects.get(pk=created.json()["id"]).requested_by == pilot_user


def test_a_wrong_password_gets_no_token_and_a_wrong_token_is_not_signed_in(pilot_user):
    response = APIClient().post(
        "/api/auth/token/", {"username": "pilot", "password": "guess"}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) >= {"detail", "field", "code", "errors"}
    assert not Token.objects.exists()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = client.post("/api/battles/create/", {"scenario": "dogfight"}, format="json")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"
    assert not Battle.objects.exists()


def test_the_token_page_shows_the_token_and_a_new_one_retires_the_old(pilot_user):
    page = Client()
    assert page.get("/accounts/token/")["Location"].startswith("/accounts/login/")
    page.force_login(pilot_user)
    assert "You have no token yet" in page.get("/accounts/token/").content.decode()
    page.post("/accounts/token/")
    old = Token.objects.get(user=pilot_user).key
    assert f"Token {old}" in page.get("/accounts/token/").content.decode()
    page.post("/accounts/token/")
    new = Token.objects.get(user=pilot_user).key
    assert new != old
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert client.post("/api/battles/create/", {"scenario": "dogfight"}).status_code == 401


def test_the_token_endpoint_is_in_the_schema():
    schema = APIClient().get("/api/schema/").content.decode()
    assert "/api/auth/token/" in schema


# -- limits per user ----------------------------------------------------------------
def _rates(**rates):
    merged = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates}
    return override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": merged}
    )


def test_batches_beyond_the_users_rate_get_429_in_the_error_shape(
    catalog, pilot_user, django_user_model
):
    client = APIClient()
    client.force_authenticate(pilot_user)
    body = {"scenario": "dogfight", "runs": 2, "seed": 1}
    with _rates(batches="2/hour"):
        for _ in range(2):
            assert client.post("/api/battles/batches/", body, format="json").status_code in STORED
        refused = client.post("/api/battles/batches/", body, format="json")
        assert refused.status_code == 429
        assert (
            refused.json()["code"] == "throttled"
            and refused.json()["errors"][0]["code"] == "throttled"
        )
        assert int(refused["Retry-After"]) > 0
        assert BattleBatch.objects.count() == 2
        # per user: another user still may
        other = APIClient()
        other.force_authenticate(
            django_user_model.objects.create_user("other", password="pw-other-123")
        )
        assert other.post("/api/battles/batches/", body, format="json").status_code in STORED


def test_battle_creation_and_odds_are_limited_per_user(catalog, pilot_user):
    client = APIClient()
    client.force_authenticate(pilot_user)
    with _rates(battles="1/hour", odds="1/hour"):
        first = client.post(
            "/api/battles/create/", {"scenario": "dogfight", "resolve": False}, format="json"
        )
        assert first.status_code in STORED
        assert (
            client.post("/api/battles/create/", {"scenario": "dogfight"}, format="json").status_code
            == 429
        )
        url = f"/api/battles/{first.json()['id']}/odds/"
        assert client.post(url).status_code in STORED
        assert client.post(url).status_code == 429
    assert Battle.objects.filter(batch__isnull=True).count() == 1
    assert BattleBatch.objects.count() == 1


def test_odds_previews_from_the_page_count_against_the_same_limit(catalog, pilot_user):
    battle = battle_services.battle_create(
        scenario="dogfight", seed=9, resolve=False, requested_by=pilot_user
    )
    page = Client()
    page.force_login(pilot_user)
    api = APIClient()
    api.force_authenticate(pilot_user)
    with _rates(odds="2/hour"):
        assert api.post(f"/api/battles/{battle.pk}/odds/").status_code in STORED
        assert page.post(f"/battles/{battle.pk}/odds/").status_code == 302
        refused = page.post(f"/battles/{battle.pk}/odds/")
        assert refused.status_code == 429
        assert "many odds previews" in refused.content.decode()
    assert BattleBatch.objects.count() == 2


def test_a_batch_is_at_most_the_per_request_limit_except_for_staff(
    catalog, pilot_user, django_user_model
):
    client = APIClient()
    client.force_authenticate(pilot_user)
    with override_settings(BATTLE_BATCH_MAX_RUNS=3):
        refused = client.post(
            "/api/battles/batches/", {"scenario": "dogfight", "runs": 4}, format="json"
        )
        assert refused.status_code == 400
        assert (refused.json()["field"], refused.json()["code"]) == ("runs", "range")
        assert not BattleBatch.objects.exists()
        staff = APIClient()
        staff.force_authenticate(
            django_user_model.objects.create_user("admin", password="pw-a-123", is_staff=True)
        )
        assert (
            staff.post(
                "/api/battles/batches/", {"scenario": "dogfight", "runs": 4}, format="json"
            ).status_code
            in STORED
        )


# -- who may start a campaign ---------------------------------------------------------
@pytest.fixture
def squadron(catalog):
    from roster.models import AircraftType

    plane = AircraftType.objects.get(name="Supermarine Spitfire")
    return squadron_create(
        name="No. 19 Squadron", nation="United Kingdom", side="allied", aircraft_type=plane
    )


def test_by_default_any_signed_in_user_starts_a_campaign(pilot_user, squadron):
    client = APIClient()
    client.force_authenticate(pilot_user)
    response = client.post(
        "/api/campaigns/create/", {"name": "My war", "squadrons": [squadron.pk]}, format="json"
    )
    assert response.status_code == 201
    page = Client()
    page.force_login(pilot_user)
    assert "Start a campaign" in page.get("/campaigns/").content.decode()


@override_settings(ANGELS_CAMPAIGN_CREATORS="staff")
def test_when_only_staff_start_campaigns_others_are_refused_on_page_and_api(
    pilot_user, squadron, django_user_model
):
    client = APIClient()
    client.force_authenticate(pilot_user)
    refused = client.post(
        "/api/campaigns/create/", {"name": "My war", "squadrons": [squadron.pk]}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "permission"
    page = Client()
    page.force_login(pilot_user)
    listing = page.get("/campaigns/").content.decode()
    assert "Start a campaign" not in listing and "Only staff start campaigns" in listing
    assert (
        page.post("/campaigns/new/", {"name": "My war", "squadrons": [squadron.pk]}).status_code
        == 403
    )
    assert not Campaign.objects.exists()
    staff = django_user_model.objects.create_user("admin", password="pw-admin-123", is_staff=True)
    client.force_authenticate(staff)
    assert (
        client.post(
            "/api/campaigns/create/",
            {"name": "Staff war", "squadrons": [squadron.pk]},
            format="json",
        ).status_code
        == 201
    )
    assert list(Campaign.objects.values_list("name", flat=True)) == ["Staff war"]
    assert Squadron.objects.count() == 1


@pytest.mark.django_db
def test_the_admin_link_is_shown_to_those_who_may_use_the_admin(pilot_user, admin_client):
    """Staff see "Admin" in the header; a player (not staff) does not: the admin would
    only turn them away."""
    assert '<a href="/admin/">Admin</a>' in admin_client.get("/").content.decode()
    player = Client()
    player.force_login(pilot_user)
    page = player.get("/").content.decode()
    assert '<a href="/admin/">Admin</a>' not in page and "Pilots</a>" in page
    assert '<a href="/admin/">Admin</a>' not in Client().get("/").content.decode()

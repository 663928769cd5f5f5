"""Over-long text is refused before it reaches a column (a 400 or the form re-shown,
naming the field, nothing stored), the same on SQLite, which would store it, and on
PostgreSQL, which refused it with a 500 (DataError: value too long for character varying):
a campaign's name (120), a user's e-mail address (254, as sign-up checks it), an
invitation's e-mail address (254)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.models import Invitation, UserSettings
from campaign import services
from campaign.models import Campaign
from demo.roster import demo_roster_create

pytestmark = pytest.mark.django_db
LONG_EMAIL = "x" * 300 + "@a.com"  # 306 characters


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user("orga", password="pw-orga-123", email="o@a.com")


@pytest.fixture
def campaign(catalog, organiser):
    demo_roster_create()
    return services.campaign_create(name="Channel 1941", created_by=organiser, seed=7)


def test_a_campaign_name_longer_than_120_is_reshown_naming_the_name(client, catalog, organiser):
    client.force_login(organiser)
    response = client.post("/campaigns/new/", {"name": "L" * 5000, "resolution_mode": "card"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "A campaign&#x27;s name is at most 120 characters (this one has 5000)" in page
    assert not Campaign.objects.exists()


def test_the_api_and_the_service_refuse_the_same_long_name(catalog, organiser):
    with pytest.raises(services.RuleViolation) as refused:
        services.campaign_create(name="L" * 121, created_by=organiser)
    assert refused.value.field == "name" and "at most 120" in refused.value.message
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post("/api/campaigns/create/", {"name": "L" * 121}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "name"
    assert not Campaign.objects.exists()
    # exactly 120 is a name
    assert services.campaign_create(name="L" * 120, created_by=organiser).name == "L" * 120


def test_settings_refuse_an_email_address_longer_than_254(client, organiser):
    client.force_login(organiser)
    response = client.post(
        "/accounts/settings/", {"time_zone": "Europe/Paris", "email": LONG_EMAIL}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_email_errors"' in page and "at most 254 characters" in page
    organiser.refresh_from_db()
    assert organiser.email == "o@a.com"
    assert not UserSettings.objects.filter(user=organiser, time_zone="Europe/Paris").exists()


def test_the_settings_service_refuses_it_too(organiser):
    from accounts.services import user_settings_save

    with pytest.raises(services.RuleViolation) as refused:
        user_settings_save(user=organiser, time_zone="UTC", email=LONG_EMAIL)
    assert refused.value.field == "email" and "at most 254 characters" in refused.value.message
    organiser.refresh_from_db()
    assert organiser.email == "o@a.com"


def test_an_invitation_to_a_306_character_address_is_a_400(campaign, organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post(
        f"/api/campaigns/{campaign.pk}/invitations/",
        {"role": "spectator", "email": LONG_EMAIL},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "email"
    assert "at most 254 characters" in response.json()["detail"]
    assert not Invitation.objects.exists()


def test_the_invitations_page_refuses_it_naming_the_field(client, campaign, organiser):
    client.force_login(organiser)
    response = client.post(
        f"/accounts/campaigns/{campaign.pk}/invitations/",
        {"role": "spectator", "side": "", "email": LONG_EMAIL, "days": 7},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_email_errors"' in page and "at most 254 characters" in page
    assert not Invitation.objects.exists()

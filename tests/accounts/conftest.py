from __future__ import annotations

import pytest

from campaign import services as campaign_services

PASSWORD = "Spitfire-over-Kent-41"


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user(
        "orga", email="orga@example.org", password=PASSWORD
    )


@pytest.fixture
def campaign(catalog, organiser):
    return campaign_services.campaign_create(name="Channel 1940", created_by=organiser, seed=11)


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client

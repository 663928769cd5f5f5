"""Fixtures shared by the battle tests (a module may still define its own of the same name,
as test_other_game_seats.py and test_airpirates_play_page.py do for a different flyer)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def flyer(client, catalog):
    """The test client logged in as "flyer", a person (not staff), the catalog loaded."""
    user = get_user_model().objects.create_user("flyer", password="pw-123456")
    client.force_login(user)
    return client

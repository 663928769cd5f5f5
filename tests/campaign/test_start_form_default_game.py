"""With more than one game registered (Air Pirates beside Angels 20), a new campaign is
still flown under Angels 20 unless the organiser chooses another: the start form offers
it first, so the browser shows it chosen (the evening test's campaign was flown under
Air Pirates once the second game was registered)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_the_start_form_offers_angels_20_first(client, catalog, users):
    client.force_login(users["organiser"])
    page = client.get("/campaigns/").content.decode()
    select = re.search(r'<select name="tactical_system">(.*?)</select>', page, re.S)
    assert select, "the start form offers the games"
    values = re.findall(r'<option value="([^"]+)"', select[1])
    assert values[0] == "angels20" and "airpirates" in values

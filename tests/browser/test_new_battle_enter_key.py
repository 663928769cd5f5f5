"""Pressing Enter in a text field of the new-battle page creates the battle (the form's
default button), as clicking "Create the battle" does: it does not press "Choose", the
button beside the game that only shows another game's settings (a GET creating nothing).
At desktop (1280 px) and phone (390 px) width."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"


@pytest.mark.parametrize("width", [1280, 390])
def test_enter_in_a_text_field_creates_the_battle(open_page, catalog, width):
    flyer = get_user_model().objects.create_user("flyer", password=PASSWORD)
    page = open_page("/battles/new/", width, user=flyer, password=PASSWORD)
    assert page.locator("button[name=choose]").is_visible()  # more than one game offered
    page.select_option("select[name=scenario]", "dogfight")
    page.check("input[name=resolve][value=later]")
    page.fill("input[name=flak_fields]", "8,10,3")
    with page.expect_navigation():
        page.press("input[name=flak_fields]", "Enter")
    assert "choose=" not in page.url, page.url  # not the game's settings shown again
    battle = Battle.objects.get()
    assert page.url.endswith(f"/battles/{battle.pk}/")
    assert battle.scenario == "dogfight" and battle.status == "draft"
    assert battle.settings["rules"]["flak_fields"] == [[8, 10, 3]]

"""The new-battle page's "Choose" (another game's own settings) is a GET of its own small
form: its request carries the game and nothing of the battle form, above all not the
form's CSRF token, which a GET would put in the address bar (and so in the history, the
server's logs and a copied link). A game and scenario picked in the page and created with
"Create the battle" are still that game's battle. At desktop (1280 px) and phone (390 px)
width."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"


@pytest.mark.parametrize("width", [1280, 390])
def test_choose_asks_for_the_game_alone_without_the_forms_token(open_page, catalog, width):
    flyer = get_user_model().objects.create_user("flyer", password=PASSWORD)
    page = open_page("/battles/new/", width, user=flyer, password=PASSWORD)
    assert page_width(page) <= width  # nothing wider than the screen
    screenshot(page, f"new-battle-choose-{width}")
    page.fill("input[name=flak_fields]", "8,10,3")  # a field of the battle form, filled
    page.select_option("select[name=system]", "airpirates")
    with page.expect_request(lambda r: "/battles/new/?" in r.url) as asked:
        page.locator("button[name=choose]").click()
    page.wait_for_load_state()
    query = parse_qs(urlsplit(asked.value.url).query)
    assert asked.value.method == "GET"
    assert query == {"system": ["airpirates"], "choose": ["1"]}, asked.value.url
    assert "csrfmiddlewaretoken" not in page.url, page.url
    assert page.locator("h1").inner_text() == "Fly a battle of Air Pirates"
    assert not Battle.objects.exists()


def test_a_game_picked_on_the_page_is_the_game_created(open_page, catalog):
    flyer = get_user_model().objects.create_user("flyer", password=PASSWORD)
    page = open_page("/battles/new/", 390, user=flyer, password=PASSWORD)
    page.select_option("select[name=system]", "airpirates")
    page.select_option("select[name=scenario]", "basic")
    for side in ("axis", "allied"):  # its own computer pilots, listed under its name
        page.select_option(f"select[name={side}_policy]", "competent")
    page.check("input[name=resolve][value=later]")
    with page.expect_navigation():
        page.locator("form.new-battle button[type=submit]", has_text="Create the battle").click()
    battle = Battle.objects.get()
    assert battle.system == "airpirates" and battle.scenario == "basic"
    assert "csrfmiddlewaretoken" not in page.url

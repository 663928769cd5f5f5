"""The forms in a real browser (issue 16), at desktop (1280 px) and phone (390 px) width."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from demo.roster import demo_roster_create
from roster.models import AircraftType

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"


@pytest.fixture
def flyer(catalog):
    return get_user_model().objects.create_user("flyer", password=PASSWORD, is_staff=True)


def _choose(page, side: str, slot: int, name: str) -> None:
    pk = str(AircraftType.objects.get(name=name).pk)
    page.locator(f"select[name={side}_aircraft]").nth(slot).select_option(pk)


@pytest.mark.parametrize("width", [1280, 390])
def test_new_battle_form_keeps_input_lists_every_error_then_creates(open_page, flyer, width):
    page = open_page("/battles/new/", width, user=flyer, password=PASSWORD)
    assert page_width(page) <= width  # nothing wider than the screen
    page.select_option("select[name=scenario]", "standard")
    page.select_option("select[name=year]", "1940")
    _choose(page, "axis", 0, "C.200 Saetta Rookie")  # one aircraft: too few
    _choose(page, "allied", 0, "Hurricane Mk I")
    _choose(page, "allied", 1, "P-51B Mustang Ace")  # from 1943
    page.fill("input[name=flak_fields]", "8,10")
    page.check("input[name=cloud_hex_0][value='4,5']")  # a hex ticked on the cloud map
    page.get_by_role("button", name="Create the battle").click()
    page.wait_for_load_state()
    errors = page.locator(".form-errors li").all_inner_texts()
    assert len(errors) == 4, errors
    assert any("2 to 5 aircraft" in e for e in errors) and any("after 1940" in e for e in errors)
    assert page.locator(".field-error").count() >= 4  # each beside its field too
    assert page.input_value("select[name=year]") == "1940"
    assert page.locator("select[name=allied_aircraft]").nth(1).input_value() == str(
        AircraftType.objects.get(name="P-51B Mustang Ace").pk
    )
    assert page.input_value("input[name=flak_fields]") == "8,10"
    assert page.is_checked("input[name=cloud_hex_0][value='4,5']")
    assert page_width(page) <= width, "the page scrolls sideways"
    screenshot(page, f"new-battle-errors-{width}")
    # put it right and fly it later
    _choose(page, "axis", 1, "C.200 Saetta Rookie")
    page.locator("select[name=allied_aircraft]").nth(1).select_option("")
    _choose(page, "allied", 1, "Hurricane Mk I")
    page.fill("input[name=flak_fields]", "8,10,3")
    page.select_option("select[name=cloud_base_0]", "2")
    page.select_option("select[name=cloud_top_0]", "3")
    page.check("input[name=resolve][value=later]")
    page.get_by_role("button", name="Create the battle").click()
    page.wait_for_url("**/battles/*/")
    battle = Battle.objects.get()
    assert battle.settings["year"] == 1940
    assert battle.settings["rules"]["flak_fields"] == [[8, 10, 3]]
    assert battle.settings["rules"]["cloud_shapes"] == [{"hexes": [[4, 5]], "base": 2, "top": 3}]


def test_table_battle_form_fits_a_desktop_page(open_page, flyer):
    demo_roster_create()  # pilots named "name — squadron" in every pilot list
    page = open_page("/table-battles/new/", 1280, user=flyer, password=PASSWORD)
    assert page.locator("select[name=flight-0-pilot]").count() == 1
    screenshot(page, "table-battle-1280")
    assert page_width(page) <= 1280, "the table overflows the page"


def test_table_battle_form_scrolls_inside_its_tables_on_a_phone(open_page, flyer):
    demo_roster_create()
    page = open_page("/table-battles/new/", 390, user=flyer, password=PASSWORD)
    screenshot(page, "table-battle-390")
    assert page_width(page) <= 390, "the page scrolls sideways"
    table = page.locator(".scroll").first  # the wide table scrolls within its own box
    assert table.evaluate("e => e.scrollWidth > e.clientWidth")

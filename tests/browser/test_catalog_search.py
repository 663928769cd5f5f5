"""The aircraft catalog's search in a real browser (issue 16 "Find things"), at desktop
(1280 px) and phone (390 px) width: type in the search box, see the matching aircraft only."""

from __future__ import annotations

import pytest

from roster.models import AircraftType

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [1280, 390])
def test_typing_in_the_search_box_shows_the_matching_aircraft_only(open_page, catalog, width):
    wanted = sorted(
        AircraftType.objects.filter(name__icontains="hurricane").values_list("name", flat=True)
    )
    assert 2 <= len(wanted) < AircraftType.objects.count()
    page = open_page("/aircraft/", width)
    assert page.locator("tbody tr").count() == 25  # the first page of the catalog
    box = page.get_by_role("search").get_by_label("Search")
    box.fill("hurricane")
    box.press("Enter")
    page.wait_for_load_state()
    shown = [
        text.split("\n")[0].strip()
        for text in page.locator("tbody tr td:first-child").all_inner_texts()
    ]
    assert shown == wanted
    assert page.input_value("input[name=q]") == "hurricane"  # the box keeps the query
    assert page.get_by_text(f"{len(wanted)} found").is_visible()
    assert page_width(page) <= width, "the page scrolls sideways"
    screenshot(page, f"catalog-search-{width}")
    # a filter on top of the search, chosen in the form, narrows it further
    page.select_option("select[name=kind]", "bomber token")
    page.get_by_role("button", name="Search").click()
    page.wait_for_load_state()
    assert page.get_by_text("No aircraft type matches.").is_visible()

"""Air Pirates' point-built flights on the new-battle page (issue 26, "People"; 002 [14]):
each side's points follow the aircraft and pilots chosen as they are chosen, a side over the
budget is refused by name, and a build within it flies; at desk and phone width."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"


def _points(page, side: str) -> str:
    return page.locator(f".scenario-form .flight:has-text('{side} flight') output").inner_text()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_flight_is_built_by_points_and_refused_over_the_budget(open_page, catalog, width):
    user = get_user_model().objects.create_user(f"builder{width}", password=PASSWORD)
    page = open_page("/battles/new/?system=airpirates", width, user=user, password=PASSWORD)
    page.select_option("select[name=scenario]", "built")
    page.select_option("select[name=axis_policy]", "random")
    page.select_option("select[name=allied_policy]", "random")
    axis = page.locator("select[name='built-axis_aircraft']")
    quality = page.locator("select[name='built-axis_quality']")
    axis.nth(0).select_option("P-51D")
    assert _points(page, "Axis") == "13"
    quality.nth(0).select_option("ace")
    assert _points(page, "Axis") == "15"  # 14b5.1: two points more
    axis.nth(1).select_option("Ki-27 Nate")
    nate = int(page.locator("option[value='Ki-27 Nate']").first.get_attribute("data-points"))
    assert _points(page, "Axis") == str(15 + nate)
    page.locator("select[name='built-allied_aircraft']").nth(0).select_option("P-51D")
    page.fill("input[name='built-setting-budget']", "14")
    assert "over-budget" in (page.locator(".flight output").first.get_attribute("class") or "")
    assert page_width(page) <= width
    screenshot(page, f"point_built_flights_{width}")
    page.locator("#game-settings [type=submit]").click()
    page.wait_for_load_state()
    assert f"The axis flight is worth {15 + nate} points, over the budget of 14" in page.inner_text(
        "#errors"
    )
    assert _points(page, "Axis") == str(15 + nate)  # kept, counted by the server too
    page.fill("input[name='built-setting-budget']", "")
    page.locator("#game-settings [type=submit]").click()
    page.wait_for_load_state()
    battle = Battle.objects.get()
    assert [(u["aircraft"], u["quality"]) for u in battle.setup["units"]] == [
        ("P-51D", "ace"), ("Ki-27 Nate", "average"), ("P-51D", "average"),
    ]  # fmt: skip

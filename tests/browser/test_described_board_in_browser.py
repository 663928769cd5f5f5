"""A game's own board in the browser (issue 25): the tests' duel on a 5 x 3 hex board
(tests/rules/board_duel.py) chosen on the new-battle page (its own settings only), flown
on the play page (its two gunners drawn by the map code Angels 20's pages use, its phase
and log in its own words) and stepped through in its report, at desk and phone widths."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from rules.tactical import registered
from tests.rules.board_duel import BOARD_DUEL

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"


@pytest.mark.parametrize("width", [1280, 390])
def test_the_duels_board_is_drawn_on_its_pages(open_page, catalog, width):
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    with registered(BOARD_DUEL):
        page = open_page("/battles/new/", width, user=hans, password=PASSWORD)
        page.select_option("select[name=system]", "board_duel")
        page.locator("button[name=choose]").click()  # no script: a plain GET
        page.wait_for_load_state()
        assert page.locator("h1").inner_text() == "Fly a battle of Duel on the Ridge"
        assert page.locator("select[name$=_aircraft]").count() == 0
        screenshot(page, f"described-board-new-{width}")
        page.select_option("select[name=axis_policy]", "person")
        page.fill("input[name=axis_user]", "hans")
        page.locator("#game-settings [type=submit]").click()
        page.wait_for_load_state()
        battle = Battle.objects.get()
        assert page.url.endswith(f"/battles/{battle.pk}/play/")
        gunners = page.locator("#play-map #plane-labels text")
        assert gunners.all_text_contents() == ["Axis gunner", "Allied gunner"]
        assert "Turn 1: axis gunnery" in page.locator("#turn").inner_text()
        assert "The gunners take their places" in page.locator("#play-log").inner_text()
        assert page_width(page) <= width
        screenshot(page, f"described-board-play-{width}")
        for _ in range(6):  # hans aims 1 until the duel ends
            if page.locator("#choices button", has_text="shoot aiming 1").count() == 0:
                break
            page.locator("#choices button", has_text="shoot aiming 1").click()
            page.wait_for_load_state()
            assert "The axis gunner fires (d6" in page.locator("#play-log").inner_text()
        battle.refresh_from_db()
        assert battle.status == "finished"
        page.goto(page.url.replace("/play/", "/"))
        page.wait_for_load_state()
        assert page.locator("#map #planes .plane").count() == 2
        assert page.locator("#map .plane-label").all_text_contents() == [
            "Axis gunner",
            "Allied gunner",
        ]
        assert page.locator("#event .text").inner_text().startswith("The gunners take their places")
        page.locator("#controls button[data-go=last]").click()
        assert "gunner fires (d6" in page.locator("#event .text").inner_text()
        assert page.locator("#legend").count() == 0 and page.locator("#rules").count() == 0
        assert page_width(page) <= width
        screenshot(page, f"described-board-report-{width}")

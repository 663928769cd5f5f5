"""A decision built step by step in the browser, on a phone (issue 25): the tests' stepped
duel (tests/rules/stepped_duel.py), its plot chosen by tapping step after step (the board
swapped in place, the steps kept in the address), what is chosen and what remains shown,
typed notation read as it is typed, and the plot played."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles import services
from battles.models import Battle
from rules.tactical import registered
from tests.rules.stepped_duel import STEPPED_DUEL, STEPPED_SCENARIO

from .conftest import page_width, screenshot, wait_for_js

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"
WIDTH = 390


def test_a_plot_is_built_by_tapping_its_steps_and_played(open_page, live_server):
    make = get_user_model().objects.create_user
    hans, tom = make("hans", password=PASSWORD), make("tom", password=PASSWORD)
    with registered(STEPPED_DUEL):
        battle = services.battle_create_from_setup(
            setup=STEPPED_SCENARIO, seed=5, source_key="test:stepped:browser",
            settings={"seats": {"axis": {"user": hans.pk}, "allied": {"user": tom.pk}}},
            system="stepped_duel",
        )  # fmt: skip
        page = open_page(f"/battles/{battle.pk}/play/", WIDTH, user=hans, password=PASSWORD)
        steps = page.locator("#steps")
        assert "Nothing chosen yet." in steps.inner_text()
        assert "Next: the aim" in steps.inner_text()
        page.locator("#steps button.step[data-step='3']").click()
        wait_for_js(page, "location.search === '?steps=3'")
        assert "3: aim 3 (bold)" in page.locator("#steps-chosen").inner_text()
        assert "Next: the height flown" in page.locator("#steps-remaining").inner_text()
        page.locator("#steps button.step[data-step='L']").click()
        wait_for_js(page, "location.search === '?steps=3%2CL'")
        assert "Whole as it is; you may still add" in page.locator("#steps-remaining").inner_text()
        assert page.locator("#steps .step-play").inner_text() == "Play 3L"
        assert page_width(page) <= WIDTH
        screenshot(page, f"play-steps-{WIDTH}")
        # typed instead: read as it is typed, with what may still follow
        page.locator("#steps-notation").fill("3h")
        wait_for_js(
            page, "document.getElementById('steps-reading').textContent.includes('Reads as 3H')"
        )
        reading = page.locator("#steps-reading").inner_text()
        assert "Whole: ready to play." in reading and "B (a long burst (once a duel))" in reading
        page.locator("#steps-notation").fill("3hx")
        wait_for_js(
            page, "document.getElementById('steps-reading').textContent.includes('fits no step')"
        )
        page.locator("#step-back").click()
        wait_for_js(page, "location.search === '?steps=3'")
        page.locator("#steps button.step[data-step='H']").click()
        wait_for_js(page, "location.search === '?steps=3%2CH'")
        page.locator("#steps .step-play").click()
        page.wait_for_load_state()
        wait_for_js(page, "document.getElementById('steps') === null")
        assert Battle.objects.get(pk=battle.pk).actions == [
            {"type": "plot", "side": "axis", "aim": 3, "height": "H", "burst": False}
        ]
        assert "waiting for the allied side" in page.locator("#turn").inner_text()

"""Two people fly a game other than Angels 20 in the browser to its end (issue 25, "Proof of
the layer"): the tests' sealed duel (tests/rules/sealed_duel.py: each turn both gunners aim
in secret, revealed together). Hans creates it on the new-battle page at desk width, seating
himself and Tom; Tom, on a phone, accepts the seat; each turn both aim in parallel and
neither page shows the other's aim before both have aimed; then both read the report."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from rules.tactical import registered
from tests.rules.sealed_duel import SEALED_DUEL

from .conftest import page_width, screenshot, wait_for_js

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"
DESK, PHONE = 1280, 390


def _hans_aim(turn: int) -> re.Pattern[str]:
    """Where Hans aimed this turn, in words or as the page's JSON (earlier turns are revealed)."""
    return re.compile(
        rf"\baxis aims [123]\b|Turn {turn}: aim sealed: aim [123]; side axis"
        r"|&quot;side&quot;: &quot;axis&quot;, &quot;aim|\"side\": \"axis\", \"aim"
    )


def _board_text(page) -> str:
    return page.locator("#board").inner_text()


def _wait_version(page, version: int) -> None:
    """The board swapped in by the page's own polling once the battle moved past ``version``."""
    wait_for_js(page, f"Number(document.getElementById('board').dataset.version) > {version}")


def _aim(page, side: str, aim: int) -> None:
    page.locator("#choices button", has_text=f"{side} aims {aim}").click()
    page.wait_for_load_state()


def test_two_people_fly_the_sealed_duel_in_the_browser_and_read_its_report(open_page, catalog):
    make = get_user_model().objects.create_user
    hans, tom = make("hans", password=PASSWORD), make("tom", password=PASSWORD)
    with registered(SEALED_DUEL):
        desk = open_page("/battles/new/", DESK, user=hans, password=PASSWORD)
        desk.select_option("select[name=system]", "sealed_duel")
        desk.select_option("select[name=scenario]", "short")
        desk.select_option("select[name=axis_policy]", "person")
        desk.fill("input[name=axis_user]", "hans")
        desk.select_option("select[name=allied_policy]", "person")
        desk.fill("input[name=allied_user]", "tom")
        desk.fill("input[name=deadline_amount]", "30")
        desk.locator("form.new-battle [type=submit]").last.click()
        desk.wait_for_load_state()
        battle = Battle.objects.get()
        assert desk.url.endswith(f"/battles/{battle.pk}/play/"), desk.url
        assert battle.system == "sealed_duel" and battle.setup["turns"] == 3
        assert "Waiting for tom (allied) to accept the seat offered" in desk.inner_text("body")

        phone = open_page(f"/battles/{battle.pk}/play/", PHONE, user=tom, password=PASSWORD)
        phone.locator("#seat-offer button", has_text="Accept the seat").click()
        phone.wait_for_load_state()
        desk.reload()
        for turn in range(1, 4):
            # both decide at once: each page offers its own three aims, none of the other's
            assert "Your decision" in _board_text(desk) and "Your decision" in _board_text(phone)
            assert desk.locator("#choices button", has_text="allied aims").count() == 0
            assert phone.locator("#choices button", has_text="allied aims").count() == 3
            version = battle_version = Battle.objects.get(pk=battle.pk).version
            _aim(desk, "axis", 3)
            assert "waiting for the allied side (tom)" in _board_text(desk)
            _wait_version(phone, version)  # tom's page learns that hans aimed
            seen = _board_text(phone)
            assert f"Turn {turn}: aim sealed: side axis." in seen
            hidden = _hans_aim(turn)
            assert not hidden.search(seen), seen  # where hans aimed is nowhere on tom's page
            assert not hidden.search(phone.content())
            if turn == 1:  # the duel has no map or aircraft: no empty hex grid or table
                for page in (desk, phone):
                    assert page.locator("#play-map, #play-legend").count() == 0
                    assert f"Battle #{battle.pk}: A short duel (3 turns)" in page.inner_text("h1")
                stand_in = phone.locator("#hand-over button").inner_text()
                assert stand_in == "Let the gunner computer pilot decide this one"
                assert page_width(phone) <= PHONE
                screenshot(phone, f"other-game-sealed-{PHONE}")
                screenshot(desk, f"other-game-waiting-{DESK}")
            _aim(phone, "allied", 1)
            _wait_version(desk, battle_version + 1)
            revealed = f"Turn {turn}: aims revealed: aims allied 1; axis 3."
            assert revealed in _board_text(desk) and revealed in _board_text(phone)
            if Battle.objects.get(pk=battle.pk).status == "finished":
                break
        battle.refresh_from_db()
        assert battle.status == "finished" and battle.result["kind"] == "sealed_duel"
        for page in (desk, phone):
            assert "The battle is over." in _board_text(page)
            page.locator("#turn a", has_text="The report and replay").click()
            page.wait_for_load_state()
            assert "Game: Duel at Dusk" in page.inner_text("body")
            log = page.locator("#log").inner_text()
            assert "Turn 1: aim sealed: aim 3; side axis." in log
            assert "Turn 1: aim sealed: aim 1; side allied." in log
            # Angels 20's rules card, map and legend are not the duel's: not shown
            assert page.locator("#rules, #legend").count() == 0
            assert not page.locator("#map").is_visible()
            page.locator("#controls button", has_text="Next turn").click()
            assert page.locator("#where").inner_text() == f"turn 1 · event 2/{len(battle.log)}"
            assert "Turn 1: aim sealed: aim 3; side axis." in page.locator("#event").inner_text()
        assert page_width(phone) <= PHONE
        screenshot(desk, f"other-game-report-{DESK}")
        screenshot(phone, f"other-game-report-{PHONE}")

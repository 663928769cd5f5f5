"""Two people fly an *Air Pirates* battle (002's basic game) in the browser to its end
(issue 26, "People"): Hans at desk width and Tom on a phone, each in his own browser. They
place their units and mark, move and fire by clicking for the whole first turn: markers are
picked on the map (the tab at the hex the marker would reach), the rest with the choice
buttons; each page shows the sequence marker's holder and every unit's control card boxes.
Then each hands his side to the computer pilot, which flies the later turns, and both read
the report: the log with every die."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from rules.airpirates.system import AIRPIRATES

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"
DESK, PHONE = 1280, 390
SHOTS = "/tmp/shots/E"


def _board(page) -> str:
    return page.locator("#board").inner_text()


def _decide(page) -> str:
    """One decision by clicking: a marker's tab on the map when markers are offered, else a
    shot when one is offered, else the first choice. Returns what was clicked."""
    picks = page.locator("#pick-layer .pick")
    buttons = page.locator("#choices form button[data-kind]")
    if picks.count():
        said = picks.first.get_attribute("aria-label") or ""
        chosen = picks.first.locator("rect.pick-tab")  # the tab at the hex it would reach
    else:
        shots = page.locator("#choices form button[data-kind]", has_text="fires at")
        chosen = shots.first if shots.count() else buttons.first
        said = chosen.inner_text()
    with page.expect_navigation():
        chosen.click()
    return said


def _shots(page, name: str) -> None:
    """The page at both widths: nothing wider than the phone's screen."""
    width = page.viewport_size["width"]
    for w in (PHONE, DESK):
        page.set_viewport_size({"width": w, "height": 900})
        if w == PHONE:
            assert page_width(page) <= PHONE
        screenshot(page, f"airpirates-{name}-{w}")
        page.screenshot(path=f"{SHOTS}/{name}-{w}.png", full_page=True)
    page.set_viewport_size({"width": width, "height": 900})


def _turn(battle_pk: int) -> int:
    b = Battle.objects.get(pk=battle_pk)
    return AIRPIRATES.replay(b.setup, b.seed, b.actions).turn


def test_two_people_fly_air_pirates_to_its_end_and_read_the_dice(open_page, catalog):
    make = get_user_model().objects.create_user
    hans, tom = make("hans", password=PASSWORD), make("tom", password=PASSWORD)
    desk = open_page("/battles/new/?system=airpirates", DESK, user=hans, password=PASSWORD)
    desk.select_option("select[name=scenario]", "basic")
    desk.select_option("select[name=axis_policy]", "person")
    desk.fill("input[name=axis_user]", "hans")
    desk.select_option("select[name=allied_policy]", "person")
    desk.fill("input[name=allied_user]", "tom")
    desk.locator("form.new-battle [type=submit]").last.click()
    desk.wait_for_load_state()
    battle = Battle.objects.get()
    assert battle.system == "airpirates" and desk.url.endswith(f"/battles/{battle.pk}/play/")
    phone = open_page(f"/battles/{battle.pk}/play/", PHONE, user=tom, password=PASSWORD)
    phone.locator("#seat-offer button", has_text="Accept the seat").click()
    phone.wait_for_load_state()
    desk.reload()

    pages = {"axis": desk, "allied": phone}
    clicked: list[str] = []
    shot = {"mark": False, "fire": False}
    for _ in range(400):  # turn 1 whole, by clicks
        if _turn(battle.pk) >= 2 or Battle.objects.get(pk=battle.pk).status != "in_play":
            break
        progressed = False
        for page in pages.values():
            page.reload()
            text = _board(page)
            if "Your decision" not in text:
                continue
            assert "sequence marker:" in text and "Control cards" in text
            if page.locator("#pick-layer .pick").count() and not shot["mark"]:
                _shots(page, "marking")
                shot["mark"] = True
            if page.locator("#choices button", has_text="fires at").count() and not shot["fire"]:
                odds = page.locator("#choices li", has_text="fires at").first
                assert re.search(r"hits \d+% \(gun factor \+\d", odds.inner_text())  # 6c
                _shots(page, "fire")
                shot["fire"] = True
            clicked.append(_decide(page))
            progressed = True
            break
        assert progressed, "nobody's decision"
    assert _turn(battle.pk) >= 2, clicked[-5:]
    assert any(": " in c and "unit" in c for c in clicked)  # markers picked on the map
    assert shot == {"mark": True, "fire": True}
    assert len(clicked) >= 20

    for side, page in pages.items():  # the later turns: the computer pilot
        page.reload()
        with page.expect_navigation():
            page.click(f"#hand-over-seats button:text('Hand the {side} side')")
        with page.expect_navigation():
            page.click("#confirm-hand-over button")
    for _ in range(300):
        battle.refresh_from_db()
        if battle.status == "finished":
            break
        desk.wait_for_timeout(200)
    assert battle.status == "finished", battle.status
    for page in (desk, phone):
        page.reload()
        assert "The battle is over." in _board(page)
        page.locator("#turn a", has_text="The report and replay").click()
        page.wait_for_load_state()
        log = page.locator("#log").inner_text()
        assert "Turn 1" in log and "d10" in log, log[:500]
        page.screenshot(path=f"{SHOTS}/report-{page.viewport_size['width']}.png", full_page=True)
        assert page_width(page) <= page.viewport_size["width"]

"""Movement by clicking on the map (issue 14): the reachable end hexes of the aircraft are
highlighted, a tap on one lists the ways there with each maneuver check's chance, and
Confirm flies the move; the log says so. At 1280 and 390 px (the page never scrolls
sideways)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from battles.services import battle_create

from .conftest import SHOTS, page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_move_flown_by_tapping_a_highlighted_hex(open_page, live_server, catalog, width):
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    umpire = get_user_model().objects.create_user("umpire", password=PASSWORD, is_staff=True)
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}}
    battle = battle_create(
        scenario="dogfight", seed=9, settings={"seats": seats}, requested_by=umpire
    )
    page = open_page(f"/battles/{battle.pk}/play/", width, user=hans, password=PASSWORD)
    page.wait_for_selector("#move-layer .reach")
    before = Battle.objects.get(pk=battle.pk)
    hexes = page.locator("#move-layer .reach")
    assert hexes.count() > 20
    # a hex reached without a maneuver check (drawn darker), so the end is certain
    sure = page.locator('#move-layer .reach[fill="#f7d24a"]')
    target = sure.nth(sure.count() // 2)
    col, row = (int(x) for x in target.get_attribute("data-hex").split(","))
    target.click()
    page.wait_for_selector("#move-paths label")
    listed = page.locator("#move-paths").inner_text()
    assert f"To hex {col},{row}" in listed and "for sure" in listed
    assert page.locator("#move-path polyline").count() == 1  # the chosen path, drawn
    assert page_width(page) <= width
    SHOTS.mkdir(parents=True, exist_ok=True)
    screenshot(page, f"play-move-by-map-{width}")
    action = json.loads(page.locator("#move-confirm input[name=action]").input_value())
    with page.expect_navigation():
        page.click("#move-confirm-button")
    after = Battle.objects.get(pk=battle.pk)
    assert after.version > before.version
    assert after.actions[len(before.actions)] == action  # the path, flown as one move
    # the log beside the map tells the move in words, ending in the hex tapped
    log = page.locator("#play-log").inner_text()
    assert f"ends its move in hex ({col}, {row})" in log, log[:600]

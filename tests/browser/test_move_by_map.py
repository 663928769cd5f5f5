"""Movement by clicking on the map (issue 14): the reachable end hexes of the aircraft are
highlighted, a tap on one lists the ways there with each maneuver check's chance, and
Confirm flies the move; the log says so. At 1280 and 390 px (the page never scrolls
sideways)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model

from battles import play
from battles.models import Battle
from battles.services import battle_create
from tests.battles.seating import seats_accepted

from .conftest import SHOTS, page_width, screenshot, wait_for_js

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
    battle = seats_accepted(battle)  # the umpire offered the seat (issue 23)
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


def _two_seats_for(user: str, scenario: str, seed: int) -> Battle:
    umpire = get_user_model().objects.create_user("umpire", password=PASSWORD, is_staff=True)
    seats = {"axis": {"user": user}, "allied": {"user": user}}  # both sides: always his turn
    battle = battle_create(
        scenario=scenario, seed=seed, settings={"seats": seats}, requested_by=umpire
    )
    return seats_accepted(battle)  # the umpire offered the seat (issue 23)


def _centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("width", [1280, 390])
def test_tapping_an_aircraft_on_the_map_chooses_it_for_the_move(
    open_page, live_server, catalog, width
):
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    battle = _two_seats_for("hans", "dogfight", 9)
    view = play.turn_view(battle, hans)
    while not view["movable"]:  # initiative and the like, up to the first move
        battle = play.turn_act(
            battle_id=battle.pk, user=hans, version=view["version"], action=view["legal_actions"][0]
        )
        view = play.turn_view(battle, hans)
    assert len(view["movable"]) > 1, view["movable"]
    page = open_page(f"/battles/{battle.pk}/play/", width, user=hans, password=PASSWORD)
    page.wait_for_selector("#move-layer .reach")
    first, other = view["movable"][0], view["movable"][1]
    assert page.get_attribute(f".move-plane[data-plane='{first}']", "aria-pressed") == "true"
    # each of the aircraft to move is marked on the map as a button
    for plane in view["movable"]:
        marker = page.locator(f"#planes .plane[data-plane='{plane}']")
        assert marker.get_attribute("role") == "button"
        assert marker.get_attribute("aria-label").startswith("Move ")
    before = page.locator("#move-layer .reach").evaluate_all("l => l.map(p => p.dataset.hex)")
    # a tap on the other aircraft's marker (a real tap at its spot: nothing drawn over it)
    x, y = _centre(page, f"#planes .plane[data-plane='{other}'] polygon")
    page.mouse.click(x, y)
    wait_for_js(
        page,
        f"document.querySelector(\".move-plane[data-plane='{other}']\").ariaPressed === 'true'",
    )
    assert page.get_attribute(f".move-plane[data-plane='{first}']", "aria-pressed") == "false"
    wait_for_js(page, f"document.getElementById('move-hint').textContent.includes('#{other}')")
    after = page.locator("#move-layer .reach").evaluate_all("l => l.map(p => p.dataset.hex)")
    assert after and after != before  # the other aircraft's hexes in reach
    # the dashed start ring sits on the marker tapped: the hex maths agree with the server's
    ring = page.locator("#move-layer circle").first
    marker_at = page.get_attribute(f"#planes .plane[data-plane='{other}']", "transform")
    x, y = (float(v) for v in re.fullmatch(r"translate\((.+),(.+)\)", marker_at).groups())
    assert abs(x - float(ring.get_attribute("cx"))) < 0.01, (marker_at, ring.get_attribute("cx"))
    assert abs(y - float(ring.get_attribute("cy"))) < 0.01, (marker_at, ring.get_attribute("cy"))
    assert page_width(page) <= width
    screenshot(page, f"play-tap-aircraft-{width}")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_move_off_the_map_is_marked_exit_on_its_edge_hex_and_flown(
    open_page, live_server, catalog, width
):
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    # Limited Fuel: aircraft start beside the map's edges, and some moves leave it
    battle = _two_seats_for("hans", "limited_fuel", 5)
    for _ in range(10):
        view = play.turn_view(battle, hans)
        leaving = [
            p
            for p in view["movable"]
            if play.turn_view(battle, hans, moves=p)["move_choices"]["exits"]
        ]
        if leaving:
            break
        battle = play.turn_act(
            battle_id=battle.pk, user=hans, version=view["version"], action=view["legal_actions"][0]
        )
    else:
        raise AssertionError("no move off the map came up")
    plane = leaving[0]
    exits = play.turn_view(battle, hans, moves=plane)["move_choices"]["exits"]
    page = open_page(f"/battles/{battle.pk}/play/", width, user=hans, password=PASSWORD)
    page.wait_for_selector("#move-layer .reach")
    if page.get_attribute(f".move-plane[data-plane='{plane}']", "aria-pressed") != "true":
        page.click(f"#planes .plane[data-plane='{plane}']")
    page.wait_for_selector("#move-layer .exit")
    marks = page.locator("#move-layer .exit")
    assert marks.count() == len(exits)
    assert "leave the map" in page.inner_text("#move-hint").lower() or "exit" in page.inner_text(
        "#move-hint"
    )
    sure = max(exits, key=lambda e: e["chance"])
    mark = page.locator(
        f"#move-layer .exit[data-hex='{sure['hex'][0]},{sure['hex'][1]}'][data-edge='{sure['edge']}']"
    )
    assert mark.locator("text").text_content() == "exit"
    assert f"by the {sure['edge']} edge" in mark.get_attribute("aria-label")
    mark.locator("text").click()  # the word: the middle of a hex in reach is the hex (issue 24 §6)
    page.wait_for_selector("#move-paths .move-exit label")
    listed = page.inner_text("#move-paths")
    assert f"Leave the map by the {sure['edge']} edge" in listed and "retreats" in listed
    assert page.locator("#move-paths .move-exit input:checked").count() == 1
    assert f"leaves the map by the {sure['edge']} edge" in page.inner_text("#move-chosen")
    assert page_width(page) <= width
    screenshot(page, f"play-exit-{width}")
    action = json.loads(page.locator("#move-confirm input[name=action]").input_value())
    with page.expect_navigation():
        page.click("#move-confirm-button")
    after = Battle.objects.get(pk=battle.pk)
    assert after.actions[-1] == action
    left = [e for e in after.log if e["e"] in ("retreat", "exit") and e["plane"] == plane]
    log = page.locator("#play-log").inner_text()
    if left:  # its checks (if any) passed: the log says it left, by that edge
        assert f"leaves the map by the {sure['edge']} edge" in log, log[:600]
    else:
        assert any(e["e"] == "maneuver" and not e["success"] for e in after.log[-12:])

"""The battle maps for fingers (issue 24 §6): no two aircraft labels overlap at any step of a
replayed report nor on the play page; on a 390 px phone the "+" button zooms the play map
until a hex in reach is a 44 px target, tapping it lists the ways there, and a drag pans
the map without moving anything. At 1280 and 390 px."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.services import battle_create
from tests.battles.seating import seats_accepted

from .conftest import screenshot, wait_for_js
from .test_battle_report import _flown

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"

# every pair of label boxes on the page that overlap, as "#2 A3 / #3 A3"
OVERLAPS = """(sel) => {
  const ls = [...document.querySelectorAll(sel)].map(l => [l.textContent, l.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < ls.length; i++) for (let j = i + 1; j < ls.length; j++) {
    const [a, r] = ls[i], [b, q] = ls[j];
    if (r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom) out.push(a + " / " + b);
  }
  return out;
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_no_two_labels_overlap_at_any_step_of_the_report(open_page, catalog, width):
    battle = _flown()
    page = open_page(f"/battles/{battle.pk}/", width)
    steps = len(battle.log)
    for step in range(steps):
        assert page.evaluate(OVERLAPS, "#map .plane-label") == [], f"event {step + 1}"
        page.click("#controls button[data-go=next]")
    screenshot(page, f"map-report-last-{width}")


def _play_page(open_page, width):
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    umpire = get_user_model().objects.create_user("umpire", password=PASSWORD, is_staff=True)
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}}
    battle = battle_create(
        scenario="dogfight", seed=9, settings={"seats": seats}, requested_by=umpire
    )
    battle = seats_accepted(battle)
    page = open_page(f"/battles/{battle.pk}/play/", width, user=hans, password=PASSWORD)
    page.wait_for_selector("#move-layer .reach")
    return page


@pytest.mark.parametrize("width", [1280, 390])
def test_no_two_labels_overlap_on_the_play_page(open_page, live_server, catalog, width):
    page = _play_page(open_page, width)
    assert page.locator("#play-map .plane-label").count() >= 2
    assert page.evaluate(OVERLAPS, "#play-map .plane-label") == []
    screenshot(page, f"map-play-{width}")


def test_zoom_in_on_a_phone_makes_a_hex_a_finger_target_and_drag_pans(
    open_page, live_server, catalog
):
    page = _play_page(open_page, 390)
    sure = page.locator('#move-layer .reach[fill="#f7d24a"]')
    target = sure.nth(sure.count() // 2)
    before = target.bounding_box()
    assert before["width"] < 44  # too small for a finger before zooming
    for _ in range(6):
        if target.bounding_box()["width"] >= 44:
            break
        page.click("button[aria-label='Zoom in']")
    box = target.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 38, box
    screenshot(page, "map-play-zoomed-390")
    col, row = target.get_attribute("data-hex").split(",")
    target.scroll_into_view_if_needed()
    target.click()
    page.wait_for_selector("#move-paths label")
    assert f"To hex {col},{row}" in page.locator("#move-paths").inner_text()
    # a drag pans the map: the view moves, and the drag is no tap on a hex
    shown = page.get_attribute("#play-map", "viewBox")
    chosen = page.locator("#move-paths").inner_text()
    svg = page.locator("#play-map").bounding_box()
    x, y = svg["x"] + svg["width"] / 2, svg["y"] + min(svg["height"], 300) / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 60, y - 40, steps=6)
    page.mouse.up()
    assert page.get_attribute("#play-map", "viewBox") != shown
    assert page.locator("#move-paths").inner_text() == chosen
    # the zoom goes back out to the whole map
    page.click("button[aria-label='Show the whole map']")
    wait_for_js(page, "document.getElementById('play-map').dataset.zoom === '1.00'")


def test_ctrl_wheel_zooms_the_map(open_page, live_server, catalog):
    page = _play_page(open_page, 390)
    svg = page.locator("#play-map").bounding_box()
    page.mouse.move(svg["x"] + 100, svg["y"] + 100)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -300)
    page.keyboard.up("Control")
    wait_for_js(page, "Number(document.getElementById('play-map').dataset.zoom) > 1")


# a point of the hex in reach (col, row) clear of its "exit" arrow and word, on screen
POINT_IN_HEX = """([hex, edge]) => {
  const poly = document.querySelector(`#move-layer .reach[data-hex="${hex}"]`);
  const m = poly.getScreenCTM(), b = poly.getBBox();
  const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
  const d = {north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0]}[edge];
  const [x, y] = d[0] ? [cx - d[0] * 9, cy + 11] : [cx + 11, cy - d[1] * 9];
  return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_hex_in_reach_under_an_exit_mark_is_tapped_as_the_hex_and_flown(
    open_page, live_server, catalog, width
):
    from battles import play
    from battles.models import Battle

    from .test_move_by_map import _two_seats_for

    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    battle = _two_seats_for("hans", "limited_fuel", 5)
    found = None
    for _ in range(20):
        view = play.turn_view(battle, hans)
        for p in view["movable"]:
            moves = play.turn_view(battle, hans, moves=p)["move_choices"]
            reach = {tuple(r["hex"]) for r in moves["reach"]}
            both = [x for x in moves["exits"] if tuple(x["hex"]) in reach]
            if both:
                found = (p, both[0])
                break
        if found:
            break
        battle = play.turn_act(
            battle_id=battle.pk, user=hans, version=view["version"], action=view["legal_actions"][0]
        )
    assert found, "no edge hex both in reach and an exit came up"
    plane, exit_ = found
    hex_ = f"{exit_['hex'][0]},{exit_['hex'][1]}"
    page = open_page(f"/battles/{battle.pk}/play/", width, user=hans, password=PASSWORD)
    page.wait_for_selector("#move-layer .reach")
    if page.get_attribute(f".move-plane[data-plane='{plane}']", "aria-pressed") != "true":
        page.click(f"#planes .plane[data-plane='{plane}']")
    page.wait_for_selector(f"#move-layer .exit[data-hex='{hex_}']")
    page.locator(f"#move-layer .reach[data-hex='{hex_}']").scroll_into_view_if_needed()
    x, y = page.evaluate(POINT_IN_HEX, [hex_, exit_["edge"]])
    page.mouse.click(x, y)
    page.wait_for_selector("#move-paths label")
    # the hex's own ends come first and the first of them is chosen, not the way off
    assert page.locator("#move-paths .move-end").first.get_attribute("class") == "move-end"
    action = page.locator("#move-confirm input[name=action]").input_value()
    before = Battle.objects.get(pk=battle.pk)
    with page.expect_navigation():
        page.click("#move-confirm-button")
    after = Battle.objects.get(pk=battle.pk)
    assert after.version > before.version
    assert (
        f"ends its move in hex ({exit_['hex'][0]}, {exit_['hex'][1]})"
        in page.locator("#play-log").inner_text()
    ), action


@pytest.mark.parametrize("width", [1280, 390])
def test_a_hex_in_reach_under_another_aircraft_is_tapped_on_its_marker_and_flown(
    open_page, live_server, catalog, width
):
    from battles import play
    from battles.models import Battle

    from .test_move_by_map import _two_seats_for

    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    battle = _two_seats_for("hans", "dogfight", 9)
    found = None
    for _ in range(40):
        view = play.turn_view(battle, hans)
        others = {
            tuple(a["hex"]): a["id"]
            for a in view["aircraft"]
            if a["hex"] is not None and a["state"] == "in play" and a["id"] not in view["movable"]
        }
        for p in view["movable"]:
            moves = play.turn_view(battle, hans, moves=p)["move_choices"]
            under = [others[tuple(r["hex"])] for r in moves["reach"] if tuple(r["hex"]) in others]
            if under:
                found = (p, under[0])
                break
        if found or view["status"] != "in_play":
            break
        battle = play.turn_act(
            battle_id=battle.pk, user=hans, version=view["version"], action=view["legal_actions"][0]
        )
    assert found, "no aircraft came up on a hex in reach"
    plane, other = found
    page = open_page(f"/battles/{battle.pk}/play/", width, user=hans, password=PASSWORD)
    page.wait_for_selector("#move-layer .reach")
    if page.get_attribute(f".move-plane[data-plane='{plane}']", "aria-pressed") != "true":
        page.click(f"#planes .plane[data-plane='{plane}']")
    marker = page.locator(f"#planes .plane[data-plane='{other}']")
    hex_ = marker.get_attribute("data-hex")
    page.wait_for_selector(f"#move-layer .reach[data-hex='{hex_}']")
    marker.locator("polygon").last.click()  # the aircraft's own shape, over the hex
    page.wait_for_selector("#move-paths label")
    assert f"To hex {hex_}" in page.locator("#move-paths").inner_text()
    before = Battle.objects.get(pk=battle.pk)
    with page.expect_navigation():
        page.click("#move-confirm-button")
    assert Battle.objects.get(pk=battle.pk).version > before.version
    col, row = hex_.split(",")
    assert f"hex ({col}, {row})" in page.locator("#play-log").inner_text()

"""The play page's map tabs (rules.tactical.BoardPick, battles.board_drawing.pick_layout):
where several maneuver markers end in one hex they are listed in one tab at that hex, one
row a marker, each row its own button; a tab that would cover another is put beside its
hex with a line to it; no two tabs overlap, each stays on the map and is wide enough for
its words. The page's own battle is checked as drawn, besides a crowded board."""

from __future__ import annotations

import html
import re
from itertools import combinations

import pytest
from django.contrib.auth import get_user_model

from battles.board_drawing import PICK_CHAR, PICK_PAD, _size, pick_layout
from battles.models import Battle
from battles.report import hex_center

pytestmark = pytest.mark.django_db

# a unit at (3, 3) whose nine markers end in five hexes, three of them side by side
ENDS = {
    "straight": (3, 5), "roll left": (2, 4), "roll right": (4, 4), "half loop": (3, 6),
    "turn left": (2, 5), "turn right": (2, 5), "tight left": (3, 6), "tight right": (3, 6),
    "slip": (3, 5),
}  # fmt: skip


def _board() -> dict:
    picks = [
        {"action": {"kind": "mark", "maneuver": name}, "label": name, "hexes": [[3, 4], list(end)]}
        for name, end in ENDS.items()
    ]
    piece = {"id": 1, "side": "axis", "hex": [3, 3], "facing": 3}
    return {"kind": "hex", "columns": 8, "rows": 9, "orientation": "flat-odd-q",
            "pieces": [piece], "markers": [], "picks": picks}  # fmt: skip


def _box(p: dict) -> tuple[float, float, float, float]:
    return (p["x"], p["y"], p["x"] + p["w"], p["y"] + p["h"])


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_markers_ending_in_one_hex_share_its_tab_one_row_each_and_no_tab_covers_another():
    board = _board()
    picks, under = pick_layout(board)
    assert [p["label"] for p in picks] == list(ENDS)  # the board's order, each a row
    by_end: dict[tuple, list[dict]] = {}
    for p, end in zip(picks, ENDS.values(), strict=True):
        by_end.setdefault(end, []).append(p)
    assert len(under["tabs"]) == len(by_end) == 5  # one tab (and one outlined hex) a hex
    tabs = []
    for end, rows in by_end.items():
        # one column: the same left edge and width, each row right under the one before
        assert {(r["x"], r["w"]) for r in rows} == {(rows[0]["x"], rows[0]["w"])}
        assert [r["y"] - rows[0]["y"] for r in rows] == [rows[0]["h"] * k for k in range(len(rows))]
        assert all(r["w"] >= round(len(r["label"]) * PICK_CHAR + 2 * PICK_PAD, 1) for r in rows)
        tab = (
            rows[0]["x"],
            rows[0]["y"],
            rows[0]["x"] + rows[0]["w"],
            rows[-1]["y"] + rows[-1]["h"],
        )
        tabs.append(tab)
        # on its hex's centre, or a line from that centre to its edge
        cx, cy = hex_center(*end)
        drawn = next(t for t in under["tabs"] if (t["x"], t["y"]) == (tab[0], tab[1]))
        if tab[0] <= cx <= tab[2] and tab[1] <= cy <= tab[3]:
            assert drawn["leader"] is None
        else:
            line = drawn["leader"]
            assert (line["x1"], line["y1"]) == (cx, cy)
            assert tab[0] <= line["x2"] <= tab[2] and tab[1] <= line["y2"] <= tab[3]
    width, height = _size(board)
    for tab in tabs:
        assert tab[0] >= 0 and tab[1] >= 0 and tab[2] <= width and tab[3] <= height
    for a, b in combinations(tabs, 2):
        assert _apart(a, b), (a, b)
    # the hexes reached, once each, drawn faintly under the tabs
    assert len(under["reach"]) == len({(3, 4), *ENDS.values()})


def test_a_lone_tab_sits_on_its_hex():
    board = {**_board(), "picks": _board()["picks"][:1]}
    picks, under = pick_layout(board)
    cx, cy = hex_center(*ENDS["straight"])
    assert picks[0]["x"] < cx < picks[0]["x"] + picks[0]["w"]
    assert picks[0]["y"] < cy < picks[0]["y"] + picks[0]["h"]
    assert under["tabs"][0]["leader"] is None


@pytest.fixture
def flyer(client, catalog):
    user = get_user_model().objects.create_user("tabs", password="pw-123456")
    user.is_staff = True  # a seed of its own: the same dice each run
    user.save()
    client.force_login(user)
    return client


def test_the_play_pages_tabs_list_each_marker_once_and_none_overlaps(flyer):
    seats = {"axis": {"user": "tabs"}, "allied": {"pilot": "competent"}}
    made = flyer.post(
        "/api/battles/create/",
        {"system": "airpirates", "scenario": "basic", "seed": 3, "settings": {"seats": seats}},
        content_type="application/json",
    )
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    turn = flyer.get(f"/api/battles/{battle.pk}/turn/").json()
    for _ in range(200):  # the first listed decision until the axis marks a unit
        if turn["your_turn"] and any(a["kind"] == "mark" for a in turn["legal_actions"]):
            break
        body = {"version": turn["version"], "action": turn["legal_actions"][0]}
        turn = flyer.post(
            f"/api/battles/{battle.pk}/turn/", body, content_type="application/json"
        ).json()
    page = flyer.get(f"/battles/{battle.pk}/play/").content.decode()
    rows = re.findall(
        r'<g class="pick" data-action="[^"]+" tabindex="0" role="button" aria-label="([^"]+)">'
        r'.*?<rect class="pick-tab" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/>'
        r'<text class="pick-text" x="[\d.]+" y="[\d.]+">([^<]+)</text></g>',
        page, re.S,
    )  # fmt: skip
    unit = next(a["unit"] for a in turn["legal_actions"] if a["kind"] == "mark")
    marks = [
        a["maneuver"].replace("_", " ")
        for a in turn["legal_actions"]
        if a.get("unit") == unit and a["kind"] == "mark"
    ]
    assert [html.unescape(r[5]) for r in rows] == marks  # each marker's row, its name on it
    boxes = [
        (float(x), float(y), float(x) + float(w), float(y) + float(h)) for _, x, y, w, h, _ in rows
    ]
    for (a, ra), (b, rb) in combinations(zip(boxes, rows, strict=True), 2):
        assert _apart(a, b), (ra[0], rb[0])
    ends = re.findall(r'<polygon class="pick-end" points="([^"]+)"/>', page)
    assert 1 <= len(ends) <= len(marks)  # one outlined hex a tab
    # the hexes reached are drawn under the aircraft and their labels, the tabs over them
    assert page.index('id="pick-under"') < page.index('id="planes"') < page.index('id="pick-layer"')

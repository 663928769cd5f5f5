"""The Air Pirates play page's map tabs in the browser (battles.board_drawing.pick_layout,
battles/static/battles/play_picks.js): at desk width each marker's row is read whole on its
tab, no row covers another and each is what a click there presses; on a phone the map is
zoomed to the tabs so their words are read (about 13 px) and a tap on a row of a hex's tab
posts that very marker."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from battles.models import Battle

from .conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"

ROWS = """() => [...document.querySelectorAll('#pick-layer .pick')].map(g => {
  const r = g.querySelector('rect.pick-tab').getBoundingClientRect();
  const t = g.querySelector('text.pick-text').getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  const svg = document.getElementById('play-map').getBoundingClientRect();
  return {label: g.getAttribute('aria-label'), action: g.getAttribute('data-action'),
          rect: [r.left, r.top, r.right, r.bottom], text: [t.left, t.top, t.right, t.bottom],
          on_top: hit && hit.closest('.pick') === g,
          shown: r.left >= svg.left && r.right <= svg.right && r.top >= svg.top && r.bottom <= svg.bottom};
})"""


def _marking_battle(user) -> Battle:
    """A battle of the basic game, the axis the user's, flown to the axis's first marker."""
    client = Client()
    client.force_login(user)
    seats = {"axis": {"user": user.username}, "allied": {"pilot": "competent"}}
    made = client.post(
        "/api/battles/create/",
        {"system": "airpirates", "scenario": "basic", "seed": 3, "settings": {"seats": seats}},
        content_type="application/json",
    )
    assert made.status_code == 202, made.content
    pk = made.json()["id"]
    turn = client.get(f"/api/battles/{pk}/turn/").json()
    while not (turn["your_turn"] and any(a["kind"] == "mark" for a in turn["legal_actions"])):
        body = {"version": turn["version"], "action": turn["legal_actions"][0]}
        turn = client.post(f"/api/battles/{pk}/turn/", body, content_type="application/json").json()
    return Battle.objects.get(pk=pk)


def _apart(a, b) -> bool:
    return a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5


def _check_rows(rows) -> None:
    assert len(rows) >= 5  # the basic game's fighters: straight, rolls, turns, half loop ...
    for row in rows:
        assert row["on_top"], row["label"]  # a click on the row presses that row
        r, t = row["rect"], row["text"]
        assert r[0] <= t[0] and t[2] <= r[2] + 0.5, row["label"]  # its words read whole
    for a in rows:
        for b in rows:
            if a is not b:
                assert _apart(a["rect"], b["rect"]), (a["label"], b["label"])


def test_the_tabs_are_read_whole_at_desk_and_zoomed_to_on_a_phone(open_page, catalog):
    user = get_user_model().objects.create_user("marker", password=PASSWORD)
    user.is_staff = True  # staff may give a seed: the same dice each run
    user.save()
    battle = _marking_battle(user)
    desk = open_page(f"/battles/{battle.pk}/play/", 1280, user=user, password=PASSWORD)
    assert desk.eval_on_selector("#play-map", "svg => svg.dataset.zoom") == "1.00"  # read as drawn
    _check_rows(desk.evaluate(ROWS))
    screenshot(desk, "pick_tabs_1280")

    phone = open_page(f"/battles/{battle.pk}/play/", 390, user=user, password=PASSWORD)
    assert float(phone.eval_on_selector("#play-map", "svg => svg.dataset.zoom")) > 1.5
    rows = phone.evaluate(ROWS)
    _check_rows(rows)
    for row in rows:
        assert row["shown"], row["label"]  # every tab in the zoomed view
        assert row["text"][3] - row["text"][1] >= 11, row["label"]  # words about 13 px high
    screenshot(phone, "pick_tabs_390")
    chosen = rows[-1]  # the last row: under another in its hex's tab where markers share one
    x, y = (chosen["rect"][0] + chosen["rect"][2]) / 2, (chosen["rect"][1] + chosen["rect"][3]) / 2
    with phone.expect_navigation():
        phone.mouse.click(x, y)
    battle.refresh_from_db()
    assert battle.actions[-1] == json.loads(chosen["action"])

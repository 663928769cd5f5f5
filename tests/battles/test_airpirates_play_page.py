"""The Air Pirates play page (issue 26): the unit being marked has each legal maneuver
marker drawn on the map with the hexes it would reach, a tab carrying the very decision its
button posts; every unit's control card boxes (hits by part, fires, the own side's
ammunition); the sequence marker's holder and the pass when it is legal (002 3a)."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from rules.airpirates.system import AIRPIRATES

pytestmark = pytest.mark.django_db


@pytest.fixture
def flyer(client, catalog):
    user = get_user_model().objects.create_user("flyer", password="pw-123456")
    user.is_staff = True  # staff may give a seed: the same dice each run
    user.save()
    client.force_login(user)
    return client


def _battle(flyer) -> Battle:
    seats = {"axis": {"user": "flyer"}, "allied": {"pilot": "competent"}}
    made = flyer.post(
        "/api/battles/create/",
        {"system": "airpirates", "scenario": "basic", "seed": 3, "settings": {"seats": seats}},
        content_type="application/json",
    )
    assert made.status_code == 202, made.content
    return Battle.objects.get(pk=made.json()["id"])


def _fly_until(flyer, battle: Battle, wanted, most: int = 200) -> dict:
    """Post the first listed decision until ``wanted(turn)`` holds on the axis's turn."""
    turn = flyer.get(f"/api/battles/{battle.pk}/turn/").json()
    for _ in range(most):
        if turn["status"] != "in_play":
            break
        if turn["your_turn"] and wanted(turn):
            return turn
        posted = flyer.post(
            f"/api/battles/{battle.pk}/turn/",
            {"version": turn["version"], "action": turn["legal_actions"][0]},
            content_type="application/json",
        )
        assert posted.status_code == 200, posted.content
        turn = posted.json()
    raise AssertionError(f"never reached: {turn['phase']}")


def _marking(turn: dict) -> bool:
    return any(a["kind"] == "mark" for a in turn["legal_actions"])


def test_markers_are_picked_on_the_map_with_the_hexes_each_reaches(flyer):
    battle = _battle(flyer)
    turn = _fly_until(flyer, battle, _marking)
    page = flyer.get(f"/battles/{battle.pk}/play/").content.decode()
    layer = re.search(r'<g id="pick-layer">(.*?)</svg>', page, re.S)
    assert layer is not None
    tabs = re.findall(r'<g class="pick" data-action="([^"]+)"[^>]*aria-label="([^"]+)"', layer[1])
    marks = [a for a in turn["legal_actions"] if a["kind"] == "mark"]
    unit = marks[0]["unit"]
    # one tab per legal marker of the unit being marked, in the order of the list
    assert [html.unescape(t[1]) for t in tabs] == [
        f"unit {unit}: {a['maneuver'].replace('_', ' ')}" for a in marks if a["unit"] == unit
    ]
    # each tab's decision is posted by one of the choice buttons, word for word
    posted = set(re.findall(r'<input type="hidden" name="action" value="([^"]+)">', page))
    assert {t[0] for t in tabs} <= posted
    # the hexes drawn: a straight reaches one hex less than the half loop
    cells = {
        html.unescape(t[1]).split(": ")[1]: n
        for t, n in zip(tabs, re.findall(r'<g class="pick".*?</g>', layer[1], re.S), strict=True)
    }
    straight = cells["straight"].count('class="pick-hex"')
    assert straight >= 1
    if "half loop" in cells:
        assert cells["half loop"].count('class="pick-hex"') > straight
    assert "battles/play_picks.js" in page


def test_the_sequence_marker_and_its_pass(flyer):
    battle = _battle(flyer)
    turn = _fly_until(flyer, battle, lambda t: {"kind": "pass"} in t["legal_actions"])
    page = flyer.get(f"/battles/{battle.pk}/play/").content.decode()
    assert "sequence marker: axis, who may pass it now (3a2)" in html.unescape(page)
    assert ">pass the sequence marker</button>" in page
    posted = flyer.post(
        f"/api/battles/{battle.pk}/turn/",
        {"version": turn["version"], "action": {"kind": "pass"}},
        content_type="application/json",
    )
    assert posted.status_code == 200
    assert "sequence marker: allied (passed this phase)" in posted.json()["phase"]


def _hit(battle: Battle) -> bool:
    battle.refresh_from_db()
    return any(e["event"] == "fired" and e["hits"] for e in battle.log)


def test_each_units_control_card_boxes_and_only_its_own_ammunition(flyer):
    battle = _battle(flyer)
    _fly_until(flyer, battle, lambda t: _marking(t) and _hit(battle), most=600)
    battle.refresh_from_db()
    state = AIRPIRATES.replay(battle.setup, battle.seed, battle.actions)
    page = flyer.get(f"/battles/{battle.pk}/play/").content.decode()
    assert '<div class="card" id="unit-panels"><h2>Control cards</h2>' in page
    panel = page[page.index('id="unit-panels"') : page.index("<h2>Latest events</h2>")]
    hit_now = False
    for u in state.units:
        block = re.search(rf'data-unit="{u.id}">(.*?)</div>', panel, re.S)
        assert block is not None
        for part, hits in u.damage.items():
            boxes = u.card[f"{part}_boxes"]
            li = re.search(rf'<li data-part="{part}"[^>]*>(.*?)</li>', block[1], re.S)
            assert li is not None and li[1].endswith(f" {hits}/{boxes}")
            assert li[1].count('class="box hit"') == hits
        hit_now = hit_now or any(u.damage.values())
        ammunition = f"forward ammunition {u.ammunition_used} of {u.card['ammunition']} used"
        assert (ammunition in block[1]) == (u.side == "axis")  # 13a3: the own side's
    assert hit_now  # some boxes are marked

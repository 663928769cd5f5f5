"""Air Pirates' maneuver markers on the play page (002 5c): each marked unit's marker is
drawn at its hex as that side's marker (a dashed hex in the side's colour, "#1 straight",
its title naming it a maneuver marker), not as a cloud (a marker of no kind is drawn as a
placed cloud: a white hex the player took for a cloud)."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from rules.airpirates.system import AIRPIRATES

pytestmark = pytest.mark.django_db


def test_each_marked_units_maneuver_marker_is_drawn_as_its_sides_not_as_a_cloud(client, catalog):
    user = get_user_model().objects.create_user("marks", password="pw-123456", is_staff=True)
    client.force_login(user)  # staff may give a seed: the same dice each run
    seats = {"axis": {"user": "marks"}, "allied": {"pilot": "competent"}}
    made = client.post(
        "/api/battles/create/",
        {"system": "airpirates", "scenario": "basic", "seed": 3, "settings": {"seats": seats}},
        content_type="application/json",
    )
    assert made.status_code == 202, made.content
    pk = made.json()["id"]
    turn = client.get(f"/api/battles/{pk}/turn/").json()
    for _ in range(200):  # the first listed decision until the axis moves a marked unit
        if turn["your_turn"] and any(a["kind"] == "move" for a in turn["legal_actions"]):
            break
        body = {"version": turn["version"], "action": turn["legal_actions"][0]}
        turn = client.post(f"/api/battles/{pk}/turn/", body, content_type="application/json").json()
    battle = Battle.objects.get(pk=pk)
    state = AIRPIRATES.replay(battle.setup, battle.seed, battle.actions)
    marked = [u for u in state.units if u.marker is not None and u.hex is not None]
    assert marked
    page = html.unescape(client.get(f"/battles/{pk}/play/").content.decode())
    drawn = re.findall(
        r'<g class="maneuver-marker side-(\w+)"><title>([^<]+)</title>.*?<text[^>]*>([^<]+)</text>',
        page,
    )
    expected = []
    for u in marked:
        name = u.marker["maneuver"].replace("_", " ")
        expected.append((u.side, f"#{u.id}'s maneuver marker: {name} (002 5c)", f"#{u.id} {name}"))
    assert sorted(drawn) == sorted(expected)
    assert 'class="cloud"' not in page  # the basic game has no clouds: none is drawn

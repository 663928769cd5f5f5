"""Angels 20's play page draws its map from what the game describes (issue 25:
``BattleState.describe_board`` through battles/board_drawing.py, as every game's): at each
decision of a battle flown by two people, every aircraft on the page's map is where the
description puts it, facing its way, with its counter, label, title and damage mark, and the
placed cloud, flak fields and balloons are drawn with their labels; the map keeps its size.
The report draws the grid and what is placed on it from the description of the battle as set
up (its aircraft are still its frames', battles/static/battles/report.js)."""

from __future__ import annotations

import html
import random
import re

import pytest
from rest_framework.test import APIClient

from battles import play, services
from battles.models import Battle
from battles.report import map_size
from rules.tactical import system_named
from tests.battles.seating import seats_accepted

pytestmark = pytest.mark.django_db
MAP_RULES = {
    "status": True,
    "cloud_shapes": [{"hexes": [[4, 5], [4, 6]], "base": 2, "top": 3}],
    "flak_fields": [[8, 10, 3]],
    "barrage_balloons": [[7, 11]],
}
PLANE = re.compile(
    r'<g class="plane[^"]*" data-plane="(\d+)" data-hex="(\d+),(\d+)"[^>]*>\s*'
    r'(<circle[^>]*>)?\s*<polygon points="([^"]+)" transform="rotate\((-?\d+)\)" '
    r'fill="[^"]+" stroke="([^"]+)"/>\s*<title>([^<]*)</title>'
)
LABEL = re.compile(r'<text class="plane-label" data-plane="(\d+)"[^>]*>([^<]*)</text>')
FEATURE = re.compile(r'<g class="(cloud|flak|balloon)"><title>([^<]*)</title>(.*?)</g>')
SHAPES = {"fighter": "12,0 -7,7 -3,0 -7,-7", "bomber": "11,0 -8,8 -8,-8"}


def _client(user):
    client = APIClient()
    client.force_login(user)
    return client


def _drawn(page: str) -> dict[int, dict]:
    labels = {int(i): html.unescape(t) for i, t in LABEL.findall(page)}
    out = {}
    for i, col, row, cloud, shape, angle, stroke, title in PLANE.findall(page):
        out[int(i)] = {
            "hex": [int(col), int(row)],
            "in_cloud": bool(cloud),
            "shape": shape,
            "angle": int(angle),
            "damaged": stroke != "#fff",
            "title": html.unescape(title),
            "label": labels[int(i)],
        }
    return out


def _described(piece: dict) -> dict:
    return {
        "hex": piece["hex"],
        "in_cloud": piece["in_cloud"],
        "shape": SHAPES[piece["shape"]],
        "angle": -90 + 60 * piece["facing"],
        "damaged": piece["damaged"],
        "title": piece["title"],
        "label": piece["label"],
    }


def test_the_play_pages_map_is_the_described_board(catalog, django_user_model):
    make = django_user_model.objects.create_user
    staff = make("umpire", password="pw-umpire-1", is_staff=True)
    seats = {
        "axis": make("hans", password="pw-hans-123"),
        "allied": make("tom", password="pw-tom-1234"),
    }
    body = {
        "scenario": "dogfight",
        "settings": {
            "seats": {side: {"user": u.pk} for side, u in seats.items()},
            "rules": MAP_RULES,
        },
        "seed": 7,
    }
    created = _client(staff).post("/api/battles/create/", body, format="json")
    assert created.status_code == 202, created.content
    pk = seats_accepted(created.json()["id"]).pk
    clients = {side: _client(u) for side, u in seats.items()}
    rng = random.Random(3)  # mostly the tactical pilot's decisions: they fight
    drawn_damage = 0
    for _ in range(60):
        battle = Battle.objects.get(pk=pk)
        board = play.battle_state(battle).describe_board(None)
        page = clients["allied"].get(f"/battles/{pk}/play/?part=board").content.decode()
        drawn = _drawn(page)
        assert drawn == {p["id"]: _described(p) for p in board["pieces"]}
        drawn_damage += sum(d["damaged"] for d in drawn.values())
        features = [(k, html.unescape(t)) for k, t, _ in FEATURE.findall(page)]
        assert features == [(m["kind"], m["title"]) for m in board["markers"]]
        width, height = map_size(board["columns"], board["rows"])  # no room added: as before
        assert f'viewBox="0 0 {width} {height}"' in page
        turn = clients["axis"].get(f"/api/battles/{pk}/turn/").json()
        if turn["to_act"] is None:
            break
        mine = clients[turn["to_act"]].get(f"/api/battles/{pk}/turn/").json()
        decision = (
            {"computer": "tactical"}
            if rng.random() < 0.8
            else {"action": rng.choice(mine["legal_actions"])}
        )
        answer = clients[turn["to_act"]].post(
            f"/api/battles/{pk}/turn/", {"version": mine["version"], **decision}, format="json"
        )
        assert answer.status_code == 200, answer.content
    assert [k for k, _ in features] == ["cloud", "flak", "balloon"]
    assert drawn_damage, "no aircraft was drawn damaged: the damage mark went unchecked"


def test_the_reports_map_is_the_described_board_as_set_up(catalog, client):
    battle = services.battle_create(
        scenario="dogfight", seed=3, resolve=False, settings={"rules": MAP_RULES}
    )
    Battle.objects.filter(pk=battle.pk).update(status="pending")
    services.battle_run(battle_id=battle.pk)
    battle.refresh_from_db()
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    board = system_named("angels20").new_battle(battle.setup, battle.seed).describe_board(None)
    features = [(k, html.unescape(t)) for k, t, _ in FEATURE.findall(page)]
    assert features == [(m["kind"], m["title"]) for m in board["markers"]]
    assert [k for k, _ in features] == ["cloud", "flak", "balloon"]
    flak = next(cells for k, _, cells in FEATURE.findall(page) if k == "flak")
    assert flak.count("<polygon") == 7  # the field's centre and its six neighbours
    width, height = map_size(board["columns"], board["rows"])
    assert f'viewBox="0 0 {width} {height}"' in page

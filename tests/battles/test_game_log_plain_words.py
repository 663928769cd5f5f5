"""Another game's log on the battle pages (battles.board_drawing.game_texts): an entry the
game words in its own sentence shows it; one it does not word shows its event, its unit and
its rule, never "None" (the pages showed "None" for Air Pirates' tied sequence roll, a unit
leaving the gameboard and the battle shifted from the edge)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from battles.board_drawing import game_texts
from battles.models import Battle
from rules.airpirates.system import AIRPIRATES

pytestmark = pytest.mark.django_db

SEED = 11
UNWORDED = [  # entries as Air Pirates writes them, which its log_sentence does not word
    {"turn": 1, "impulse": 0, "phase": "place", "event": "competitive die roll tied: rolled again",
     "rule": "002 '2a'", "rolls": [["002 2a sequence marker: axis", 10, 6],
                                   ["002 2a sequence marker: allied", 10, 6]]},
    {"turn": 1, "impulse": 0, "phase": "setup_mark", "unit": 1, "disengaged": True,
     "event": "left the gameboard: no maneuver stays on it", "rule": "002 '3b' GAMEBOARD EXITS"},
    {"turn": 1, "impulse": 0, "phase": "setup_mark", "shift": [-1, 2],
     "event": "the whole battle shifted to avoid the edge", "rule": "002 '3b' GAMEBOARD EXITS"},
]  # fmt: skip


def test_an_entry_the_game_does_not_word_shows_its_event_unit_and_rule():
    worded = {"turn": 1, "impulse": 1, "phase": "move", "event": "impulse I", "rule": "002 '4a'"}
    texts = game_texts(AIRPIRATES, [*UNWORDED, worded], ["None"] * 4)
    assert texts == [
        "Competitive die roll tied: rolled again [002 '2a']",
        "Unit 1: left the gameboard: no maneuver stays on it [002 '3b' GAMEBOARD EXITS]",
        "The whole battle shifted to avoid the edge [002 '3b' GAMEBOARD EXITS]",
        AIRPIRATES.log_sentence(worded),
    ]
    assert texts[3] and "None" not in texts[3]


def test_no_line_of_a_flown_battles_report_reads_none(
    client, catalog, django_capture_on_commit_callbacks
):
    reader = get_user_model().objects.create_user("reader", password="pw-123456", is_staff=True)
    client.force_login(reader)  # staff may give a seed: the same dice each run
    body = {"system": "airpirates", "scenario": "bounce", "seed": SEED,
            "settings": {"policies": {"axis": "random", "allied": "random"}}}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        made = client.post("/api/battles/create/", body, content_type="application/json")
    assert made.status_code in (201, 202), made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.status == "finished"
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    lines = re.findall(r'<li data-i="\d+">([^<]*)', page)
    assert len(lines) == len(battle.log)
    unworded = [e for e in battle.log if AIRPIRATES.log_sentence(e) is None]
    assert unworded  # seed SEED's log has entries the game does not word
    assert "None" not in [line.strip() for line in lines]

"""The battle pages built from what a game describes (issue 25): the tests' duel on a tiny
hex board (tests/rules/board_duel.py) has its two gunners drawn on the play page and in the
report with the same map code as Angels 20's, its phase and log in its own words, and a
new-battle page of its own settings alone (no Angels 20 aircraft slots or rule switches).
Angels 20's pages are pinned by tests/battles/test_angels_play_unchanged.py."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model

from battles.board_drawing import checked_board
from battles.models import Battle
from battles.services import battle_create
from rules.tactical import board_problems, registered
from tests.rules.board_duel import BOARD_DUEL, BoardDuel
from tests.rules.duel_system import DUEL

pytestmark = pytest.mark.django_db


@pytest.fixture
def hans(client, catalog):
    with registered(BOARD_DUEL):
        user = get_user_model().objects.create_user("hans", password="pw-hans-123")
        client.force_login(user)
        yield user


def _flown_by_hans(user) -> Battle:
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "gunner"}}
    return battle_create(
        system="board_duel", scenario="ridge", settings={"seats": seats}, requested_by=user
    )


def _markers(page: str) -> list[tuple[str, str]]:
    """(data-hex, label) of each piece drawn on the play page's map."""
    hexes = re.findall(r'class="plane[^"]*" data-plane="\d+" data-hex="(\d+,\d+)"', page)
    labels = re.findall(r'<text class="plane-label" data-plane="\d+"[^>]*>([^<]*)</text>', page)
    return list(zip(hexes, labels, strict=True))


def test_the_play_page_draws_the_duels_board_with_its_phase_and_sentences(client, hans):
    battle = _flown_by_hans(hans)
    page = client.get(f"/battles/{battle.pk}/play/").content.decode()
    assert 'id="play-map"' in page and 'viewBox="0 0 253.8 130.7"' in page  # 5 x 3 hexes
    assert page.count("<polygon points=") >= 15  # the grid
    assert _markers(page) == [("0,1", "Axis gunner"), ("4,1", "Allied gunner")]
    assert "<title>The axis gunner at column 0</title>" in page
    assert "church tower" in page  # the board's marker
    assert "Turn <strong>1</strong>: axis gunnery" in page
    assert "The gunners take their places: 4 rounds at most." in page
    assert 'id="play-legend"' not in page  # Angels 20's aircraft table
    posted = client.post(
        f"/battles/{battle.pk}/play/",
        {"version": battle.version, "action": json.dumps({"type": "shot", "aim": 1})},
    )
    assert posted.status_code == 302
    page = client.get(f"/battles/{battle.pk}/play/").content.decode()
    shot = re.search(r"The axis gunner fires \(d6 (\d)\) and (hits|misses)\.", page)
    assert shot is not None, page
    assert "shot: hit" not in page  # not the generic sentence
    battle.refresh_from_db()
    if battle.status == "in_play":  # both missed: each closed one hex on the other
        assert _markers(page) == [("1,1", "Axis gunner"), ("3,1", "Allied gunner")]
    # the board part the page's polling swaps in draws the same
    part = client.get(f"/battles/{battle.pk}/play/?part=board").content.decode()
    assert _markers(part) == _markers(page)


def test_the_report_steps_through_the_duels_board_in_its_own_words(
    client, hans, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the computer pilots fly it
        battle = battle_create(
            system="board_duel", scenario="ridge", settings={}, seed=7, requested_by=hans
        )
    battle.refresh_from_db()
    assert battle.status == "finished", battle.error
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    frames = json.loads(re.search(r'<script id="frames"[^>]*>(.*?)</script>', page, re.S)[1])
    assert len(frames) == len(battle.log)
    assert frames[0]["text"] == "The gunners take their places: 4 rounds at most."
    assert all(
        re.fullmatch(r"The (axis|allied) gunner fires \(d6 \d\) and (hits|misses)\.", f["text"])
        for f in frames[1:]
    )
    first, last = frames[0]["aircraft"], frames[-1]["aircraft"]
    assert [(a["label"], a["col"], a["row"]) for a in first] == [
        ("Axis gunner", 0, 1),
        ("Allied gunner", 4, 1),
    ]
    replayed = BOARD_DUEL.replay(battle.setup, battle.seed, battle.actions)
    assert [[a["col"], a["row"]] for a in last] == [replayed.places[0], replayed.places[1]]
    if battle.result["winner"]:  # the gunner hit is drawn damaged
        hit = next(a for a in last if a["side"] != battle.result["winner"])
        assert hit["hp"] < hit["hits"]
    assert 'id="map"' in page and "<div hidden>" not in page
    assert 'viewBox="0 0 253.8 130.7"' in page
    assert 'id="rules"' not in page and 'id="legend"' not in page  # Angels 20's cards


def test_a_duel_describing_no_board_keeps_the_generic_sentences_and_no_map(client, hans):
    state = DUEL.new_battle({"name": "n", "turns": 2}, 1)
    assert checked_board(state, None) is None
    bad = BoardDuel({"name": "n", "turns": 2}, 1).describe_board(None)
    bad["pieces"][0]["hex"] = [9, 9]
    assert board_problems(bad) == ["pieces[0].hex [9, 9] is off the map"]


def test_the_new_battle_page_for_the_duel_shows_its_own_settings_only(client, hans):
    page = client.get("/battles/new/?system=board_duel").content.decode()
    assert "Fly a battle of Duel on the Ridge" in page
    assert '<option value="ridge" selected>Dawn over the ridge</option>' in page
    assert '<option value="gunner" selected>computer pilot: gunner</option>' in page
    assert "_aircraft" not in page  # no Angels 20 aircraft slots
    for angels in ("Standard Scenario", "Advanced rules", "tailing", "Starting advantage"):
        assert angels not in page
    # the game select chooses by a plain GET (no script)
    assert '<form method="get" class="card" id="choose-game">' in page
    made = client.post(
        "/battles/new/",
        {"system": "board_duel", "scenario": "ridge", "axis_policy": "person", "axis_user": "hans",
         "allied_policy": "gunner", "deadline_amount": "", "deadline_unit": "minutes"},
    )  # fmt: skip
    battle = Battle.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/battles/{battle.pk}/play/"
    refused = client.post(
        "/battles/new/", {"system": "board_duel", "scenario": "ridge", "axis_policy": "ace"}
    )
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "Duel on the Ridge&#x27;s computer pilots are: gunner" in text
    assert "Fly a battle of Duel on the Ridge" in text and "_aircraft" not in text
    assert Battle.objects.count() == 1


def test_the_angels_20_page_keeps_its_form_with_a_choose_button_for_another_game(client, catalog):
    user = get_user_model().objects.create_user("tom", password="pw-tom-1234")
    client.force_login(user)
    with registered(BOARD_DUEL):
        page = client.get("/battles/new/").content.decode()
        # "Choose" in a GET form of its own, the game alone sent (test_new_battle_games.py;
        # tests/browser/test_choose_game_without_token.py, test_new_battle_enter_key.py)
        choose = page[page.index('<form method="get" class="card" id="choose-game">') :]
        choose = choose[: choose.index("</form>")]
        assert '<button type="submit" name="choose" value="1">Choose</button>' in choose
        assert "csrfmiddlewaretoken" not in choose
        assert page.count('name="axis_aircraft"') == 5 and 'name="tailing"' in page
        chosen = client.get("/battles/new/?system=angels20&choose=1").content.decode()
        assert chosen.count('name="axis_aircraft"') == 5 and "<h1>Fly a battle</h1>" in chosen

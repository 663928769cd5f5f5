"""A decision's odds come from the battle's game (issue 25, rules.tactical.decision_odds):
the turn API lists them beside another game's choice, and the play page shows their words,
the modifiers on hover; a game or a decision without odds shows none. Angels 20 gives an
attack's odds the same way (its own play page keeps attack_preview's figures)."""

from __future__ import annotations

import html

import pytest
from rest_framework.test import APIClient

from battles import services
from rules.tactical import decision_odds, registered
from tests.rules.duel_system import DUEL, DUEL_SCENARIO, Shot


def test_the_hook_asks_the_battle_and_a_game_without_odds_gives_none():
    duel = DUEL.new_battle(DUEL_SCENARIO, 4)
    assert decision_odds(duel, 0, Shot(2)) == {
        "chance": 2 / 6,
        "text": "axis hits 33%",
        "modifiers": [{"name": "aim", "value": 2, "rule": "duel 'SHOOTING'"}],
    }
    assert decision_odds(duel, 0, Shot(1)) is None  # a decision without odds
    assert decision_odds(object(), 0, Shot(2)) is None  # a game without the method


@pytest.fixture
def hans(django_user_model):
    with registered(DUEL):
        yield django_user_model.objects.create_user("hans", password="pw-hans-123")


def _battle(hans):
    seats = {"axis": {"user": hans.pk}, "allied": {"pilot": "gunner"}}
    return services.battle_create_from_setup(
        setup=DUEL_SCENARIO, seed=7, source_key="test:odds", settings={"seats": seats},
        system="duel",
    )  # fmt: skip


@pytest.mark.django_db
def test_the_turn_api_and_the_play_page_show_the_odds_the_game_gives(hans):
    battle = _battle(hans)
    client = APIClient()
    client.force_login(hans)
    turn = client.get(f"/api/battles/{battle.pk}/turn/").json()
    assert turn["your_turn"]
    by_label = {c["label"]: c for c in turn["choices"]}
    assert by_label["shoot aiming 2"]["odds"] == {
        "chance": pytest.approx(1 / 3),
        "text": "axis hits 33%",
        "modifiers": [{"name": "aim", "value": 2, "rule": "duel 'SHOOTING'"}],
    }
    assert "odds" not in by_label["shoot aiming 1"]
    page = client.get(f"/battles/{battle.pk}/play/").content.decode()
    aim2 = page.split(">shoot aiming 2</button>", 1)[1].split("</form>", 1)[0]
    assert '<span class="odds" title="aim +2 (duel ' in aim2
    assert html.unescape(aim2).count("(duel 'SHOOTING')\">axis hits 33%</span>") == 1
    aim1 = page.split(">shoot aiming 1</button>", 1)[1].split("</form>", 1)[0]
    assert 'class="odds"' not in aim1

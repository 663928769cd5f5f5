"""The page of a battle flown by people (issue 14): the board, the choices of the person
whose decision it is as forms (CSRF, session), refusals in plain words, and the
new-battle page's seats."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from battles import play, services
from battles.models import Battle, BattleStatus
from tests.battles.seating import seats_accepted

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast(catalog, django_user_model):
    make = django_user_model.objects.create_user
    return {
        "staff": make("umpire", password="pw-umpire-1", is_staff=True),
        "axis": make("hans", password="pw-hans-123"),
        "allied": make("tom", password="pw-tom-1234"),
        "outsider": make("nosy", password="pw-nosy-123"),
    }


def _battle(cast) -> Battle:
    seats = {"axis": {"user": "hans"}, "allied": {"user": "tom"}}
    battle = services.battle_create(
        scenario="dogfight", seed=21, settings={"seats": seats}, requested_by=cast["staff"]
    )
    return seats_accepted(battle)  # the umpire offered them the seats (issue 23)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _forms(html: str) -> list[dict[str, str]]:
    """The choice forms of the page: their version and action."""
    found = re.findall(
        r'name="version" value="(\d+)"><input type="hidden" name="action" value="([^"]+)"', html
    )
    return [{"version": v, "action": a.replace("&quot;", '"')} for v, a in found]


def test_the_side_to_act_sees_its_choices_and_the_other_side_waits(cast):
    battle = _battle(cast)
    side = play.turn_view(battle, cast["axis"])["to_act"]
    other = "allied" if side == "axis" else "axis"
    mine = _client(cast[side]).get(f"/battles/{battle.pk}/play/").content.decode()
    theirs = _client(cast[other]).get(f"/battles/{battle.pk}/play/").content.decode()
    assert "Your decision" in mine and "Your choices" in mine and "csrfmiddlewaretoken" in mine
    assert _forms(mine) and not _forms(theirs)
    assert f"waiting for the {side} side" in theirs
    assert 'id="play-map"' in mine and "Spitfire Mk I Ace" in mine  # the map and its legend
    assert "polling" in mine  # the page explains how it follows the battle
    board = _client(cast[other]).get(f"/battles/{battle.pk}/play/?part=board").content.decode()
    assert "<html" not in board and "waiting for the" in board


def test_a_choice_posted_from_the_page_is_flown(cast):
    battle = _battle(cast)
    side = play.turn_view(battle, cast["axis"])["to_act"]
    client = _client(cast[side])
    form = _forms(client.get(f"/battles/{battle.pk}/play/").content.decode())[0]
    response = client.post(f"/battles/{battle.pk}/play/", form)
    assert response.status_code == 302 and response["Location"] == f"/battles/{battle.pk}/play/"
    battle.refresh_from_db()
    assert battle.version == int(form["version"]) + 1
    assert battle.actions[-1] == json.loads(form["action"])


def test_a_stale_form_is_refused_in_plain_words_and_changes_nothing(cast):
    battle = _battle(cast)
    side = play.turn_view(battle, cast["axis"])["to_act"]
    client = _client(cast[side])
    form = _forms(client.get(f"/battles/{battle.pk}/play/").content.decode())[0]
    client.post(f"/battles/{battle.pk}/play/", form)
    before = Battle.objects.values().get(pk=battle.pk)
    again = client.post(f"/battles/{battle.pk}/play/", form)  # the same form, once more
    assert again.status_code == 400 and "moved on" in again.content.decode()
    assert Battle.objects.values().get(pk=battle.pk) == before


def test_only_the_seats_may_post(cast):
    battle = _battle(cast)
    side = play.turn_view(battle, cast["axis"])["to_act"]
    form = _forms(_client(cast[side]).get(f"/battles/{battle.pk}/play/").content.decode())[0]
    assert _client(cast["outsider"]).post(f"/battles/{battle.pk}/play/", form).status_code == 403
    anonymous = Client().post(f"/battles/{battle.pk}/play/", form)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert Battle.objects.get(pk=battle.pk).version == int(form["version"])


def test_a_battle_of_the_computer_pilots_has_its_report_for_a_page(cast):
    battle = services.battle_create(scenario="dogfight", seed=3, resolve=False)
    response = Client().get(f"/battles/{battle.pk}/play/")
    assert response.status_code == 302 and response["Location"] == f"/battles/{battle.pk}/"


def test_the_new_battle_page_seats_a_person(cast):
    client = _client(cast["axis"])
    page = client.get("/battles/new/").content.decode()
    assert 'name="axis_user"' in page and "a person, in the browser" in page
    post = {"scenario": "dogfight", "axis_policy": "person", "axis_user": "tom",
            "allied_policy": "tactical", "resolve": "now"}  # fmt: skip
    response = client.post("/battles/new/", post)
    battle = Battle.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/battles/{battle.pk}/play/"
    assert battle.status == BattleStatus.IN_PLAY
    assert battle.settings["seats"] == {  # hans seats tom: an offer tom answers (issue 23)
        "axis": {"user": cast["allied"].pk, "offered": True},
        "allied": {"pilot": "tactical"},
    }


def test_the_new_battle_page_names_an_unknown_user_beside_the_seat(cast):
    post = {"scenario": "dogfight", "axis_policy": "person", "axis_user": "ghost",
            "allied_policy": "random", "resolve": "now"}  # fmt: skip
    response = _client(cast["axis"]).post("/battles/new/", post)
    page = response.content.decode()
    assert response.status_code == 400 and "Unknown user" in page and 'value="ghost"' in page
    assert not Battle.objects.exists()


def test_the_page_hands_a_decision_to_the_computer_pilot(cast):
    battle = _battle(cast)
    side = play.turn_view(battle, cast["axis"])["to_act"]
    client = _client(cast[side])
    page = client.get(f"/battles/{battle.pk}/play/").content.decode()
    assert "Let the tactical computer pilot decide this one" in page
    response = client.post(
        f"/battles/{battle.pk}/play/", {"version": battle.version, "computer": "tactical"}
    )
    assert response.status_code == 302
    assert Battle.objects.get(pk=battle.pk).version == battle.version + 1


def test_the_battle_list_and_report_lead_to_a_battle_in_play(cast):
    battle = _battle(cast)
    done = services.battle_create(scenario="dogfight", seed=3, resolve=False)
    play = f'href="/battles/{battle.pk}/play/"'
    listing = Client().get("/battles/").content.decode()
    assert play in listing and f'href="/battles/{done.pk}/play/"' not in listing
    assert play in Client().get(f"/battles/{battle.pk}/").content.decode()
    assert "/play/" not in Client().get(f"/battles/{done.pk}/").content.decode()


def test_an_action_nested_too_deeply_is_refused_not_a_500(cast):
    battle = _battle(cast)
    side = play.turn_view(battle, cast["axis"])["to_act"]
    client = _client(cast[side])
    form = _forms(client.get(f"/battles/{battle.pk}/play/").content.decode())[0]
    before = Battle.objects.values().get(pk=battle.pk)
    answer = client.post(f"/battles/{battle.pk}/play/", {**form, "action": "[" * 5000 + "]" * 5000})
    assert answer.status_code == 400
    assert Battle.objects.values().get(pk=battle.pk) == before

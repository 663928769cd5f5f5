"""Air Pirates' hidden starting ammunition (002 13a5, 13a6) flown by two people (issue 25:
a view per side): while the battle is in play nothing of the other seat's starting
ammunition reaches a seat in any response (the turn API, the play page, the log API,
the report page); once it is over everyone sees everything; with 13a6 off nothing is
hidden."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from battles import play, services
from battles.models import Battle
from rules.airpirates.units import basic_game

pytestmark = pytest.mark.django_db

ROLLED = "variable starting ammunition"
AXIS_UNITS, ALLIED_UNITS = {1, 2}, {3, 4}


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "axis": make("hans", password="pw-hans-123"),
        "allied": make("tom", password="pw-tom-1234"),
        "outsider": make("nosy", password="pw-nosy-123"),
    }


def _client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _create(people, options: list[str], key: str) -> Battle:
    setup = {**basic_game("Bf 110C", "Hurricane Mk I"), "options": options}
    seats = {"axis": {"user": people["axis"].pk}, "allied": {"user": people["allied"].pk}}
    battle = services.battle_create_from_setup(
        setup=setup, seed=7, source_key=key,
        settings={"seats": seats, "deadline": {"minutes": 5}}, system="airpirates",
    )  # fmt: skip
    assert battle.status == "in_play" and battle.system == "airpirates"
    return battle


def _turn(client: APIClient, pk: int) -> dict:
    response = client.get(f"/api/battles/{pk}/turn/")
    assert response.status_code == 200, response.content
    return response.json()


def _seen(client: APIClient, pk: int) -> dict[str, str]:
    """Every answer a reader gets about the battle."""
    return {
        "turn": json.dumps(_turn(client, pk)),
        "page": client.get(f"/battles/{pk}/play/").content.decode(),
        "board": client.get(f"/battles/{pk}/play/?part=board").content.decode(),
        "log": json.dumps(client.get(f"/api/battles/{pk}/log/").json()),
        "report": client.get(f"/battles/{pk}/").content.decode(),
    }


def _rolled_units(text: str) -> set[int]:
    """The units whose 13a5 roll a response tells, as JSON or as the log's sentence."""
    as_json = r'"event": "' + ROLLED + r'"[^}]*?"unit": (\d+)'
    units = {int(u) for u in re.findall(as_json, text)}
    units |= {int(u) for u in re.findall(r"starting ammunition: unit (\d+)", text)}
    for sentence in re.findall(ROLLED + r"[^<]*", text, re.IGNORECASE):
        units |= {int(u) for u in re.findall(r"unit (\d+)", sentence)}
    return units


def _fly(people, pk: int, moves: int) -> None:
    """``moves`` decisions through the turn API, each seat choosing its first legal one."""
    clients = {side: _client(people[side]) for side in ("axis", "allied")}
    for _ in range(moves):
        for client in clients.values():
            turn = _turn(client, pk)
            if turn["your_turn"] and turn["legal_actions"]:
                body = {"version": turn["version"], "action": turn["legal_actions"][0]}
                posted = client.post(f"/api/battles/{pk}/turn/", body, format="json")
                assert posted.status_code == 200, posted.content
                break


def _finish(pk: int) -> None:
    """The deadlines pass until the computer pilots have flown the battle to its end."""
    for _ in range(2000):
        battle = Battle.objects.get(pk=pk)
        if battle.status == "finished":
            return
        assert play.deadline_pass(pk, now=battle.decision_due + timedelta(seconds=1)) >= 1
    raise AssertionError("the battle did not end")


def test_the_other_seats_starting_ammunition_never_reaches_a_seat(people):
    battle = _create(people, ["hidden_ammunition", "variable_ammunition"], "test:ap:hidden:1")
    _fly(people, battle.pk, 12)
    readers = {s: _client(people[s]) for s in ("axis", "allied", "outsider")}
    mine = {"axis": AXIS_UNITS, "allied": ALLIED_UNITS, "outsider": set()}
    for who, client in readers.items():
        seen = _seen(client, battle.pk)
        for where, text in seen.items():
            assert _rolled_units(text) <= mine[who], (who, where)
            assert "13a5 starting ammunition" not in text, (who, where)  # the dice's labels
        turn = json.loads(seen["turn"])
        for u in turn["view"]["units"]:
            assert (u["ammunition"] is not None) == (u["id"] in mine[who]), (who, u)
        if who == "outsider":  # no unit's ammunition on the pages' control card panels
            for where in ("page", "board"):
                assert not re.search(r"ammunition \d+ of \d+ used", seen[where]), where
        else:
            assert _rolled_units(seen["turn"]) == mine[who]  # its own rolls it reads
            assert _rolled_units(seen["log"]) == mine[who]

    _finish(battle.pk)
    for who, client in readers.items():
        seen = _seen(client, battle.pk)
        assert _rolled_units(seen["turn"]) == AXIS_UNITS | ALLIED_UNITS, who
        assert _rolled_units(seen["log"]) == AXIS_UNITS | ALLIED_UNITS, who
        assert _rolled_units(seen["report"]) == AXIS_UNITS | ALLIED_UNITS, who
        units = json.loads(seen["turn"])["view"]["units"]
        assert all(u["ammunition"] is not None for u in units), who


def test_without_hidden_ammunition_nothing_is_hidden(people):
    battle = _create(people, ["variable_ammunition"], "test:ap:hidden:2")
    _fly(people, battle.pk, 4)
    for who in ("axis", "allied", "outsider"):
        seen = _seen(_client(people[who]), battle.pk)
        assert _rolled_units(seen["turn"]) == AXIS_UNITS | ALLIED_UNITS, who
        assert _rolled_units(seen["log"]) == AXIS_UNITS | ALLIED_UNITS, who
        units = json.loads(seen["turn"])["view"]["units"]
        assert all(u["ammunition"] is not None for u in units), who

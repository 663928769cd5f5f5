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

from battles import play
from battles.models import Battle
from rules.airpirates.units import basic_game
from tests.battles.seating import everything_seen, logged_in, seated_battle, seated_people, turn_of

pytestmark = pytest.mark.django_db

ROLLED = "variable starting ammunition"
AXIS_UNITS, ALLIED_UNITS = {1, 2}, {3, 4}


@pytest.fixture
def people(django_user_model):
    return seated_people(django_user_model)


def _create(people, options: list[str], key: str) -> Battle:
    setup = {**basic_game("Bf 110C", "Hurricane Mk I"), "options": options}
    battle = seated_battle(
        people, setup=setup, system="airpirates", seed=7, key=key, deadline={"minutes": 5}
    )
    assert battle.status == "in_play" and battle.system == "airpirates"
    return battle


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
    clients = {side: logged_in(people[side]) for side in ("axis", "allied")}
    for _ in range(moves):
        for client in clients.values():
            turn = turn_of(client, pk)
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
    readers = {s: logged_in(people[s]) for s in ("axis", "allied", "outsider")}
    mine = {"axis": AXIS_UNITS, "allied": ALLIED_UNITS, "outsider": set()}
    for who, client in readers.items():
        seen = everything_seen(client, battle.pk)
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
        seen = everything_seen(client, battle.pk)
        assert _rolled_units(seen["turn"]) == AXIS_UNITS | ALLIED_UNITS, who
        assert _rolled_units(seen["log"]) == AXIS_UNITS | ALLIED_UNITS, who
        assert _rolled_units(seen["report"]) == AXIS_UNITS | ALLIED_UNITS, who
        units = json.loads(seen["turn"])["view"]["units"]
        assert all(u["ammunition"] is not None for u in units), who


def test_without_hidden_ammunition_nothing_is_hidden(people):
    battle = _create(people, ["variable_ammunition"], "test:ap:hidden:2")
    _fly(people, battle.pk, 4)
    for who in ("axis", "allied", "outsider"):
        seen = everything_seen(logged_in(people[who]), battle.pk)
        assert _rolled_units(seen["turn"]) == AXIS_UNITS | ALLIED_UNITS, who
        assert _rolled_units(seen["log"]) == AXIS_UNITS | ALLIED_UNITS, who
        units = json.loads(seen["turn"])["view"]["units"]
        assert all(u["ammunition"] is not None for u in units), who

"""The Angels 20 play responses recorded before the view per side and simultaneous
decisions were added (issue 25): a battle flown by two people through the turn API, each
seat's turn (and a spectator's) read at every decision, with the battle's id and clock
left out. ``test_view_per_side`` flies the same battle and compares."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rest_framework.test import APIClient

from tests.battles.seating import seats_accepted

SNAPSHOT = Path(__file__).parent / "data" / "angels20_play_responses.json"
DECISIONS = 25  # the first decisions of the battle: initiative, moves, attacks
VOLATILE = ("battle", "decision_due", "seconds_left")


def _client(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _turn(client: APIClient, pk: int) -> dict[str, Any]:
    response = client.get(f"/api/battles/{pk}/turn/")
    assert response.status_code == 200, response.content
    body = response.json()
    return {k: v for k, v in body.items() if k not in VOLATILE}


def fly_and_read(staff: Any, axis: Any, allied: Any, outsider: Any) -> list[dict[str, Any]]:
    """Every reader's turn before each of the first decisions, each decision the first legal one."""
    body = {
        "scenario": "dogfight",
        "settings": {"seats": {"axis": {"user": axis.pk}, "allied": {"user": allied.pk}}},
        "seed": 23,
    }
    created = _client(staff).post("/api/battles/create/", body, format="json")
    assert created.status_code == 202, created.content
    pk = seats_accepted(created.json()["id"]).pk
    readers = {"axis": _client(axis), "allied": _client(allied), "outsider": _client(outsider)}
    out = []
    for _ in range(DECISIONS):
        seen = {name: _turn(client, pk) for name, client in readers.items()}
        out.append(seen)
        to_act = seen["axis"]["to_act"]
        if to_act is None:
            break
        mine = seen[to_act]
        act = readers[to_act].post(
            f"/api/battles/{pk}/turn/",
            {"version": mine["version"], "action": mine["legal_actions"][0]},
            format="json",
        )
        assert act.status_code == 200, act.content
    return out


def record(staff: Any, axis: Any, allied: Any, outsider: Any) -> None:
    SNAPSHOT.write_text(json.dumps(fly_and_read(staff, axis, allied, outsider), sort_keys=True))

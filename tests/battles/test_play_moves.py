"""Movement by clicking (issue 14) through the API: the person whose decision it is asks
for an aircraft's reachable end hexes and the paths to one, posts one as its move (the
checked apply, same version rules); the other side never gets them; bad input is a 400."""

from __future__ import annotations

import pytest

from battles.models import Battle
from tests.battles.seating import logged_in
from tests.errors import reason

from .test_play_by_web import _create, cast  # noqa: F401  (cast is a fixture)

pytestmark = pytest.mark.django_db


def _at_a_move(cast):  # noqa: F811
    """A Dogfight at its first move: (battle id, side to act, the other side)."""
    pk = _create(cast, seed=21)
    for _ in range(10):  # initiative and the like, until an aircraft may start its move
        view = logged_in(cast["axis"]).get(f"/api/battles/{pk}/turn/").json()
        side = view["to_act"]
        view = logged_in(cast[side]).get(f"/api/battles/{pk}/turn/").json()
        if view["movable"]:
            return pk, side, "allied" if side == "axis" else "axis", view
        answer = logged_in(cast[side]).post(
            f"/api/battles/{pk}/turn/",
            {"version": view["version"], "action": view["legal_actions"][0]},
            format="json",
        )
        assert answer.status_code == 200
    raise AssertionError("no move came up")


def test_the_seat_to_act_gets_move_choices_and_flies_one(cast):  # noqa: F811
    pk, side, other, view = _at_a_move(cast)
    url = f"/api/battles/{pk}/turn/"
    plane = view["movable"][0]
    me = logged_in(cast[side])
    assert view["move_choices"] is None  # not asked: a poll pays nothing
    asked = me.get(f"{url}?moves={plane}").json()["move_choices"]
    assert asked["plane"] == plane and asked["plans"] > 100 and asked["ends"] == []
    assert len(asked["reach"]) > 20
    # a hex reached without a maneuver check (chance 1) and its paths
    sure = next(r for r in asked["reach"] if r["chance"] == 1.0)
    col, row = sure["hex"]
    detail = me.get(f"{url}?moves={plane}&to={col},{row}").json()["move_choices"]
    assert detail["to"] == [col, row] and len(detail["ends"]) == sure["ends"]
    end = next(e for e in detail["ends"] if e["paths"][0]["chance"] == 1.0)
    path = end["paths"][0]
    assert path["maneuvers"] == [] and path["hexes"][-1] == [col, row]
    # the other side: no choices, even when it asks
    seen = logged_in(cast[other]).get(f"{url}?moves={plane}&to={col},{row}").json()
    assert seen["move_choices"] is None and seen["movable"] == []
    # posted as it is, with one of its statuses, through the checked apply
    action = {**path["action"], "status": path["statuses"][0]}
    stale = me.post(url, {"version": view["version"] - 1, "action": action}, format="json")
    assert stale.status_code == 400 and stale.json()["field"] == "version"
    answer = me.post(url, {"version": view["version"], "action": action}, format="json")
    assert answer.status_code == 200, answer.content
    after = answer.json()
    assert after["version"] == view["version"] + 1
    moved = next(a for a in after["aircraft"] if a["id"] == plane)
    assert (moved["hex"], moved["facing"], moved["altitude"]) == (
        [col, row],
        end["facing"],
        end["altitude"],
    )
    assert Battle.objects.get(pk=pk).actions[-1] == action  # stored as the engine's action


BAD_QUERIES = [
    ("moves=plane", "moves"),
    ("moves=-1", "moves"),
    ("moves=99", "moves"),
    ("moves=0&to=seven", "to"),
    ("moves=0&to=99,99", "to"),
    ("to=3,4", "moves"),
]


def test_bad_move_queries_are_refused_by_field(cast):  # noqa: F811
    pk, side, _, _ = _at_a_move(cast)
    for query, field in BAD_QUERIES:
        answer = logged_in(cast[side]).get(f"/api/battles/{pk}/turn/?{query}")
        assert answer.status_code == 400 and answer.json()["field"] == field, query
        reason(answer.json())


def test_a_move_off_the_map_is_listed_on_its_edge_hex_and_flown(cast):  # noqa: F811
    # Limited Fuel: the allied fighters start on the north edge, some moves leave the map
    pk = _create(cast, "limited_fuel", allied={"user": "hans"}, seed=5)  # hans flies both
    me = logged_in(cast["axis"])
    url = f"/api/battles/{pk}/turn/"
    for _ in range(10):  # on to the first move that may leave the map
        view = me.get(url).json()
        asked = [me.get(f"{url}?moves={p}").json()["move_choices"] for p in view["movable"]]
        asked = [a for a in asked if a["off_map"]]
        if asked:
            break
        action = view["legal_actions"][0]
        me.post(url, {"version": view["version"], "action": action}, format="json")
    else:
        raise AssertionError("no move off the map came up")
    choices = asked[0]
    plane, exits = choices["plane"], choices["exits"]
    assert exits and sum(e["ways"] for e in exits) <= choices["off_map"]
    for e in exits:  # each on a hex of the map's edge, naming the edge left by
        col, row = e["hex"]
        assert e["edge"] in ("north", "east", "south", "west")
        assert {"north": row == 0, "south": row == 21, "west": col == 0, "east": col == 15}[
            e["edge"]
        ], e
    sure = max(exits, key=lambda e: e["chance"])
    detail = me.get(f"{url}?moves={plane}&to={sure['hex'][0]},{sure['hex'][1]}").json()
    paths = detail["move_choices"]["exit_paths"]
    assert paths and paths[0]["chance"] == sure["chance"] and paths[0]["edge"] == sure["edge"]
    way = paths[0]
    assert (way["hexes"][-1] if way["hexes"] else choices["start"]["hex"]) == sure["hex"]
    answer = me.post(url, {"version": view["version"], "action": way["action"]}, format="json")
    assert answer.status_code == 200, answer.content
    gone = next(a for a in answer.json()["aircraft"] if a["id"] == plane)
    battle = Battle.objects.get(pk=pk)
    assert battle.actions[-1] == way["action"]
    left = [e for e in battle.log if e["e"] in ("retreat", "exit") and e["plane"] == plane]
    if way["maneuvers"] and gone["hex"] is not None:  # its check failed: where it said
        assert (gone["hex"], not left) == (way["if_failed"]["hex"], True), gone
    else:
        assert gone["state"] in ("retreated", "exited") and left[0]["edge"] == sure["edge"]

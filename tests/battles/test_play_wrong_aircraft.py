"""A player who names the other side's aircraft in an action (POST /api/battles/<id>/turn/)
is told that the aircraft is not theirs and whose it is, by the field ``action.plane``,
citing the rule; the battle is left as it was. (It used to say only "it is the axis side's
move" to the axis player, whose move it was.)"""

from __future__ import annotations

import pytest

from battles.models import Battle
from tests.battles.seating import logged_in

from .test_play_by_web import cast  # noqa: F401  (cast is a fixture)
from .test_play_moves import _at_a_move

pytestmark = pytest.mark.django_db


def test_activating_the_other_sides_aircraft_names_the_aircraft_and_its_side(cast):  # noqa: F811
    pk, side, other, view = _at_a_move(cast)
    mine = {a["plane"] for a in view["legal_actions"] if a["type"] == "activate"}
    own = next(a for a in view["legal_actions"] if a["type"] == "activate")
    theirs = next(p for p in view["aircraft"] if p["side"] == other and p["id"] not in mine)
    before = Battle.objects.values("version", "actions").get(pk=pk)
    answer = logged_in(cast[side]).post(
        f"/api/battles/{pk}/turn/",
        {"version": view["version"], "action": {**own, "plane": theirs["id"]}},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()
    assert error["field"] == "action.plane"
    assert f"aircraft {theirs['name']} is not yours: it is the {other} side's" in error["detail"]
    assert f"it is the {side} side's move" not in error["detail"]
    assert error["rule"] == "000 'UNEQUAL NUMBERS'"
    assert Battle.objects.values("version", "actions").get(pk=pk) == before

"""The two POSTs of a battle in play (act in the turn, hand over to the computer pilot) refuse
bad input the same way: a battle that does not exist is a 404, a body that is not a JSON
object or a field of the wrong kind a 400 naming the field, in the one error shape, and the
battle is left as it was; never a 500."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from battles.models import Battle
from tests.battles.seating import seats_accepted

pytestmark = pytest.mark.django_db

SHAPE = {"detail", "field", "rule", "code", "errors"}


@pytest.fixture
def battle_and_hans(django_user_model):
    make = django_user_model.objects.create_user
    umpire = make("umpire", password="pw-umpire-1", is_staff=True)
    hans = make("hans", password="pw-hans-123")
    staff = APIClient()
    staff.force_login(umpire)
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}}
    body = {"scenario": "dogfight", "settings": {"seats": seats}, "seed": 21}
    created = staff.post("/api/battles/create/", body, format="json")
    assert created.status_code == 202, created.content
    seats_accepted(created.json()["id"])  # the umpire offered hans the seat (issue 23)
    client = APIClient()
    client.force_login(hans)
    return created.json()["id"], client


@pytest.mark.parametrize(
    ("endpoint", "body", "status", "field", "code"),
    [
        ("turn", "{not json", 400, None, "parse_error"),
        ("hand-over", "{not json", 400, None, "parse_error"),
        ("turn", "[1, 2]", 400, None, "invalid"),
        ("hand-over", "[1, 2]", 400, None, "invalid"),
        ("turn", "{}", 400, "version", "required"),
        ("hand-over", "{}", 400, "side", "required"),
        ("turn", '{"version": "first", "action": {}}', 400, "version", "invalid"),
        ("hand-over", '{"side": "axis", "aircraft": 1.5}', 400, "aircraft", "invalid"),
        ("turn", '{"version": 1, "action": []}', 400, "action", "not_a_dict"),
        ("hand-over", '{"side": ["axis"]}', 400, "side", "invalid"),
        ("turn", '{"version": 99999999999999999999999, "action": {}}', 400, "version", "conflict"),
        ("hand-over", '{"side": "axis", "aircraft": 99999999999999999999}', 400, "aircraft", "invalid"),
    ],
)  # fmt: skip
def test_both_posts_refuse_bad_input_naming_the_field(
    battle_and_hans, endpoint, body, status, field, code
):
    pk, hans = battle_and_hans
    before = Battle.objects.values("version", "actions", "handed", "notes").get(pk=pk)
    answer = hans.post(f"/api/battles/{pk}/{endpoint}/", body, content_type="application/json")
    assert answer.status_code == status, answer.content
    error = answer.json()
    assert set(error) == SHAPE and error["errors"][0] == {k: error[k] for k in SHAPE - {"errors"}}
    assert (error["field"], error["code"]) == (field, code), error
    assert Battle.objects.values("version", "actions", "handed", "notes").get(pk=pk) == before


@pytest.mark.parametrize("endpoint", ["turn", "hand-over"])
def test_both_posts_answer_a_missing_battle_with_a_404_and_a_stranger_with_a_401(
    battle_and_hans, endpoint
):
    pk, hans = battle_and_hans
    missing = hans.post(f"/api/battles/{pk + 1000}/{endpoint}/", {}, format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert set(missing.json()) == SHAPE
    stranger = APIClient().post(f"/api/battles/{pk}/{endpoint}/", {}, format="json")
    assert stranger.status_code == 401 and stranger.json()["code"] == "not_authenticated"

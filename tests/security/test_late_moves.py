"""A decision's deadline holds on the write (issue 23, item 10): a move posted after it is
refused, and the computer pilot's decision taken at the deadline is applied, logged and
named in the refusal, even when nobody read the turn in between and no beat ran."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import Client

from battles.models import Battle

pytestmark = pytest.mark.django_db
START = dt.datetime(2026, 11, 24, 9, 0, tzinfo=dt.UTC)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def battle(django_user_model):
    """hans seats himself against the computer, 30 seconds a decision."""
    hans = django_user_model.objects.create_user("hans", password="pw-hans-123")
    body = {
        "scenario": "dogfight",
        "settings": {
            "seats": {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}},
            "deadline": {"seconds": 30},
        },
    }
    with time_machine.travel(START, tick=False):
        made = _client(hans).post("/api/battles/create/", body, content_type="application/json")
    assert made.status_code == 202, made.content
    return Battle.objects.get(pk=made.json()["id"]), hans


def test_a_move_after_the_deadline_is_refused_and_the_computers_is_applied(battle):
    battle, hans = battle
    client = _client(hans)
    with time_machine.travel(START + dt.timedelta(seconds=5), tick=False):
        view = client.get(f"/api/battles/{battle.pk}/turn/").json()
    assert view["to_act"] == "axis" and view["seconds_left"] == 25
    with time_machine.travel(START + dt.timedelta(seconds=31), tick=False):
        late = client.post(
            f"/api/battles/{battle.pk}/turn/",
            {"version": view["version"], "action": view["legal_actions"][0]},
            content_type="application/json",
        )
    assert late.status_code == 400, late.content
    body = late.json()
    assert body["field"] == "action" and body["code"] == "state"
    assert "deadline for this decision passed" in body["detail"]
    assert "the computer pilot chose: axis: " in body["detail"]
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.version == view["version"] + 1  # the computer's decision, not the move
    assert len(stored.actions) > len(battle.actions)
    assert [n["text"] for n in stored.notes][:2] == [
        "hans's move came after the deadline and was not applied",
        "the deadline passed: the computer pilot chose for axis",
    ]
    # the next decision has its own time, counted from the deadline that passed
    assert stored.decision_due == START + dt.timedelta(seconds=60)
    with time_machine.travel(START + dt.timedelta(seconds=32), tick=False):
        page = client.get(f"/battles/{battle.pk}/play/").content.decode()
    assert "move came after the deadline and was not applied" in page


def test_a_move_in_time_is_applied(battle):
    battle, hans = battle
    client = _client(hans)
    with time_machine.travel(START + dt.timedelta(seconds=29), tick=False):
        view = client.get(f"/api/battles/{battle.pk}/turn/").json()
        made = client.post(
            f"/api/battles/{battle.pk}/turn/",
            {"version": view["version"], "action": view["legal_actions"][0]},
            content_type="application/json",
        )
    assert made.status_code == 200, made.content
    assert Battle.objects.get(pk=battle.pk).notes == []

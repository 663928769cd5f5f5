"""Tests' shorthand for seated battles: a battle whose seats someone else offered (issue 23)
with every offered seat accepted by its person, through the service the API and the page
call; and the people, their logged-in clients and what each reads of a battle they are
seated in (issue 25: a view per side)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from battles import services
from battles.models import Battle
from battles.play import seats_of
from battles.seat_offers import seat_answer


def seats_accepted(battle: Battle | int) -> Battle:
    pk = battle if isinstance(battle, int) else battle.pk
    offered = {s["user"] for s in seats_of(Battle.objects.get(pk=pk)).values() if s.get("offered")}
    for user in get_user_model().objects.filter(pk__in=offered).order_by("pk"):
        seat_answer(battle_id=pk, user=user, accept=True)  # all the seats offered to them
    return Battle.objects.get(pk=pk)


# The people the battle tests seat: hans flies axis, tom allied; nosy only looks on.
PEOPLE = {
    "axis": ("hans", "pw-hans-123"),
    "allied": ("tom", "pw-tom-1234"),
    "outsider": ("nosy", "pw-nosy-123"),
}


def seated_people(django_user_model) -> dict[str, Any]:
    """The tests' people by role ("axis", "allied", "outsider"), created now."""
    make = django_user_model.objects.create_user
    return {role: make(name, password=password) for role, (name, password) in PEOPLE.items()}


def logged_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def seated_battle(
    people: dict[str, Any], *, setup: dict, system: str, seed: int, key: str, **settings: Any
) -> Battle:
    """A battle of ``system`` created by the service with its axis and allied seats those
    people's (the service seats them: nothing is offered); ``settings`` beside the seats."""
    seats = {"axis": {"user": people["axis"].pk}, "allied": {"user": people["allied"].pk}}
    return services.battle_create_from_setup(
        setup=setup, seed=seed, source_key=key, settings={"seats": seats, **settings}, system=system
    )


def turn_of(client: APIClient, pk: int, query: str = "") -> dict:
    """The turn API's answer to ``client`` (a 200, or the test fails with the body)."""
    response = client.get(f"/api/battles/{pk}/turn/{query}")
    assert response.status_code == 200, response.content
    return response.json()


def everything_seen(client: APIClient, pk: int) -> dict[str, str]:
    """Every answer a reader gets about the battle: the turn API, the play page and its
    board, the log API and the report page, each as text."""
    return {
        "turn": json.dumps(turn_of(client, pk)),
        "page": client.get(f"/battles/{pk}/play/").content.decode(),
        "board": client.get(f"/battles/{pk}/play/?part=board").content.decode(),
        "log": json.dumps(client.get(f"/api/battles/{pk}/log/").json()),
        "report": client.get(f"/battles/{pk}/").content.decode(),
    }

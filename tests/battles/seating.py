"""Tests' shorthand for a battle whose seats someone else offered (issue 23): every
offered seat accepted by its person, through the service the API and the page call."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from battles.models import Battle
from battles.play import seats_of
from battles.seat_offers import seat_answer


def seats_accepted(battle: Battle | int) -> Battle:
    pk = battle if isinstance(battle, int) else battle.pk
    offered = {s["user"] for s in seats_of(Battle.objects.get(pk=pk)).values() if s.get("offered")}
    for user in get_user_model().objects.filter(pk__in=offered).order_by("pk"):
        seat_answer(battle_id=pk, user=user, accept=True)  # all the seats offered to them
    return Battle.objects.get(pk=pk)

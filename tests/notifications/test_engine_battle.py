"""A campaign's engine battle, once its result is applied, tells the campaign's people
its result once, linking to the battle's report (campaign.engagements sends it)."""

from __future__ import annotations

import pytest

from battles.models import Battle
from notifications.models import Notification
from tests.campaign.test_engine_engagements import engine_war_until_a_battle

pytestmark = pytest.mark.django_db


def test_an_engine_battles_result_is_told_once(catalog, people, django_capture_on_commit_callbacks):
    campaign = engine_war_until_a_battle(people["orga"], django_capture_on_commit_callbacks)
    battle = (
        Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")
        .order_by("pk")
        .first()
    )
    told = Notification.objects.filter(key=f"battle_result:battle:{battle.pk}")
    assert [(n.user.username, n.kind, n.url) for n in told] == [
        ("orga", "battle_result", f"/battles/{battle.pk}/")
    ]
    assert campaign.name in told[0].text

"""Odds on a campaign's engine battle: the batch flies the battle's own stored setup
(an engagement is not rebuilt from flights) N times with the computer pilots."""

import pytest

from battles.models import Battle, BattleBatch
from tests.campaign.test_engine_engagements import engine_war_until_a_battle

pytestmark = pytest.mark.django_db


def test_the_organiser_gets_odds_on_an_engagement_battle(
    catalog, users, client, settings, django_capture_on_commit_callbacks
):
    settings.BATTLE_ODDS_RUNS = 5
    campaign = engine_war_until_a_battle(users["organiser"], django_capture_on_commit_callbacks)
    battle = Battle.objects.get(source_key__startswith=f"campaign:{campaign.pk}:")
    assert battle.scenario == "engagement" and "campaign" in battle.settings

    client.force_login(users["organiser"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/battles/{battle.pk}/odds/")
    assert response.status_code == 202, response.content
    batch = BattleBatch.objects.get(pk=response.json()["id"])
    assert batch.purpose == f"odds:{battle.pk}" and batch.runs == 5
    flown = list(batch.battles.all())
    assert len(flown) == 5 and all(b.status == "finished" for b in flown)
    assert all(b.setup == battle.setup for b in flown)  # the battle's own setup
    assert len({b.seed for b in flown}) == 5 and battle.seed not in {b.seed for b in flown}
    assert batch.summary is not None and batch.summary["battles"] == 5
    assert batch.summary["failed"] == 0
    # the campaign battle itself is untouched: one engine battle for the campaign
    assert Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:").count() == 1


def test_a_spectator_gets_no_odds_on_an_engagement_battle(
    catalog, users, client, django_capture_on_commit_callbacks
):
    campaign = engine_war_until_a_battle(users["organiser"], django_capture_on_commit_callbacks)
    battle = Battle.objects.get(source_key__startswith=f"campaign:{campaign.pk}:")
    client.force_login(users["spectator"])
    response = client.post(f"/api/battles/{battle.pk}/odds/")
    assert response.status_code in (403, 404)
    assert not BattleBatch.objects.exists()

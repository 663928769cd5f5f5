"""An engine battle whose result the campaign cannot take (issue 13): the battle stays
finished, not applied, with the error on the campaign's page and the battle's; the sweep
does not fly it again; the organiser re-applies it once the fault is gone, and the
campaign takes the result exactly once."""

from datetime import timedelta

import pytest
from django.utils import timezone

import campaign.engagements as engagements
from battles import services as battle_services
from battles.models import Battle
from campaign.models import CampaignAction
from tests.campaign.test_engine_engagements import engine_war_until_a_battle

pytestmark = pytest.mark.django_db


def test_a_campaign_battle_that_cannot_be_applied_is_shown_and_re_applied_once(
    catalog, users, client, monkeypatch, django_capture_on_commit_callbacks
):
    real_apply = engagements.engagement_apply

    def roster_locked(**kwargs):
        raise RuntimeError("pilot roster locked for maintenance")

    monkeypatch.setattr(engagements, "engagement_apply", roster_locked)
    campaign = engine_war_until_a_battle(users["organiser"], django_capture_on_commit_callbacks)
    battle = Battle.objects.get(source_key__startswith=f"campaign:{campaign.pk}:")
    assert battle.status == "finished" and battle.result and battle.attempts == 1
    assert battle.applied_at is None
    assert battle.apply_error == "RuntimeError: pilot roster locked for maintenance"
    mission = battle.source_key.rsplit(":", 1)[1]

    def results_entered() -> int:
        """The umpire's result actions for this battle's mission."""
        actions = CampaignAction.objects.filter(campaign=campaign, payload__type="result")
        return sum(f'"mission_id": "{mission}"' in a.payload["result"] for a in actions)

    # nothing of the result reached the campaign (the hook's writes were rolled back)
    assert results_entered() == 0

    client.force_login(users["organiser"])
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'<a href="/battles/{battle.pk}/">Battle {battle.pk}</a> finished, not applied' in page
    assert "RuntimeError: pilot roster locked for maintenance" in page
    report = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Finished, not applied: RuntimeError: pilot roster locked" in report

    with django_capture_on_commit_callbacks(execute=True):
        battle_services.battles_sweep(now=timezone.now() + timedelta(hours=1))
    battle.refresh_from_db()
    assert (battle.status, battle.attempts, battle.applied_at) == ("finished", 1, None)

    monkeypatch.setattr(engagements, "engagement_apply", real_apply)  # the fault is fixed
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/battles/{battle.pk}/apply/")
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.applied_at is not None and battle.apply_error == ""
    assert results_entered() == 1
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "not applied" not in page
    with django_capture_on_commit_callbacks(execute=True):
        battle_services.battles_sweep(now=timezone.now() + timedelta(hours=1))
        battle_services.battle_apply(battle_id=battle.pk)
    assert results_entered() == 1  # exactly once

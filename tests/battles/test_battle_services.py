"""Battles as background work: exactly once, failures kept, stale ones swept, batches summarised."""

from datetime import timedelta

import pytest
from django.utils import timezone

from battles import services
from battles.models import Battle, BattleBatch

pytestmark = pytest.mark.django_db


def _pending_dogfight(seed=5):
    return services.battle_create(
        scenario="dogfight",
        seed=seed,
        resolve=False,
        settings={"policies": {"axis": "tactical", "allied": "random"}},
    )


def _make_pending(battle):
    Battle.objects.filter(pk=battle.pk).update(status="pending")


def test_running_the_task_twice_records_one_result(catalog):
    battle = _pending_dogfight()
    _make_pending(battle)
    assert services.battle_run(battle_id=battle.pk) is True
    battle.refresh_from_db()
    first = (battle.result, battle.finished_at, battle.attempts)
    assert battle.status == "finished" and battle.result["winner"] in ("axis", "allied", None)
    assert services.battle_run(battle_id=battle.pk) is False  # a re-delivered task changes nothing
    battle.refresh_from_db()
    assert (battle.result, battle.finished_at, battle.attempts) == first


def test_the_same_seed_flies_the_same_battle(catalog):
    a, b = _pending_dogfight(seed=9), _pending_dogfight(seed=9)
    for battle in (a, b):
        _make_pending(battle)
        services.battle_run(battle_id=battle.pk)
        battle.refresh_from_db()
    assert a.result == b.result and a.log == b.log and a.actions == b.actions


def test_a_battle_whose_task_raises_is_marked_failed_with_the_message(catalog, monkeypatch):
    battle = _pending_dogfight()
    _make_pending(battle)

    def broken(*args, **kwargs):
        raise RuntimeError("engine exploded at turn 3")

    monkeypatch.setattr(services, "fly", broken)
    services.battle_run(battle_id=battle.pk)
    battle.refresh_from_db()
    assert battle.status == "failed"
    assert battle.error == "RuntimeError: engine exploded at turn 3"
    assert battle.result is None


def test_a_failed_battle_can_be_retried(catalog, monkeypatch, django_capture_on_commit_callbacks):
    battle = _pending_dogfight()
    Battle.objects.filter(pk=battle.pk).update(status="failed", error="worker lost")
    with django_capture_on_commit_callbacks(execute=True):
        services.battle_retry(battle_id=battle.pk)
    battle.refresh_from_db()
    assert battle.status == "finished" and battle.error == ""


def test_the_sweep_redispatches_stale_battles(catalog, django_capture_on_commit_callbacks):
    stuck_running, lost_pending, fresh = (
        _pending_dogfight(1),
        _pending_dogfight(2),
        _pending_dogfight(3),
    )
    old = timezone.now() - timedelta(hours=1)
    # a running battle whose lease expired (its worker died)
    Battle.objects.filter(pk=stuck_running.pk).update(
        status="running", started_at=old, lease_token="dead", lease_expires_at=old
    )
    # a message the broker took an hour ago, never claimed (lost)
    Battle.objects.filter(pk=lost_pending.pk).update(status="pending", dispatched_at=old)
    Battle.objects.filter(pk=fresh.pk).update(status="pending", dispatched_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        swept = services.battles_sweep()
    assert swept["reclaimed"] == [stuck_running.pk] and swept["lost"] == [lost_pending.pk]
    assert sorted(swept["sent"]) == sorted([stuck_running.pk, lost_pending.pk])
    assert Battle.objects.get(pk=stuck_running.pk).status == "finished"
    assert Battle.objects.get(pk=lost_pending.pk).status == "finished"
    assert Battle.objects.get(pk=fresh.pk).status == "pending"  # sent just now, not stale yet


def test_a_batch_is_summarised_once_all_battles_are_done(
    catalog, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.batch_create(
            scenario="dogfight",
            runs=6,
            seed=100,
            settings={"policies": {"axis": "tactical", "allied": "random"}},
        )
    batch.refresh_from_db()
    assert batch.battles.filter(status="finished").count() == 6
    summary = batch.summary
    assert summary["battles"] == 6
    assert summary["axis"]["wins"] + summary["allied"]["wins"] + summary["draws"] == 6
    low, high = summary["axis"]["win_rate_ci95"]
    assert 0 <= low <= summary["axis"]["win_rate"] <= high <= 1
    assert services.batch_maybe_summarise(batch_id=batch.pk) is False  # written once


def test_wilson_interval():
    low, high = services.wilson_interval(90, 100)
    assert round(low, 3) == 0.826 and round(high, 3) == 0.945


def test_odds_preview_batches_the_same_matchup(catalog, django_capture_on_commit_callbacks):
    battle = _pending_dogfight()
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.odds_preview(battle_id=battle.pk, runs=4)
    batch.refresh_from_db()
    assert batch.purpose == f"odds:{battle.pk}" and batch.summary["battles"] == 4
    assert Battle.objects.get(pk=battle.pk).status == "draft"  # the engagement itself still waits
    assert BattleBatch.objects.count() == 1

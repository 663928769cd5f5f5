"""Nothing lost, nothing stuck (issue 13): a battle is flown once, its result applied
once as its own step, a failure to apply it is shown and re-applied by a person, a
late worker cannot write twice, and a refused broker leaves battles queued, not lost."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from battles import services
from battles.models import Battle
from roster import campaign_hooks
from tests.conftest import celery_on_broker

pytestmark = pytest.mark.django_db
REFUSED = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connection refused


@pytest.fixture
def hook_calls(monkeypatch):
    """A finished-battle hook that raises while ``calls["broken"]``; counts its runs."""
    calls = {"runs": 0, "applied": 0, "broken": True}

    def hook(battle):
        calls["runs"] += 1
        if calls["broken"]:
            raise RuntimeError("squadron table locked by the organiser")
        calls["applied"] += 1

    monkeypatch.setattr(
        campaign_hooks, "_installed", campaign_hooks.with_answer(battle_finished=hook)
    )
    return calls


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("owner", password="pw-123456")


def _fly(owner, capture, seed=5):
    with capture(execute=True):
        battle = services.battle_create(scenario="dogfight", seed=seed, requested_by=owner)
    battle.refresh_from_db()
    return battle


def test_a_hook_that_raises_leaves_the_battle_finished_not_applied_and_it_is_not_flown_again(
    catalog, owner, hook_calls, client, django_capture_on_commit_callbacks
):
    battle = _fly(owner, django_capture_on_commit_callbacks)
    assert battle.status == "finished" and battle.result is not None
    assert battle.applied_at is None and battle.not_applied
    assert battle.apply_error == "RuntimeError: squadron table locked by the organiser"
    assert (battle.attempts, hook_calls["runs"]) == (1, 1)

    client.force_login(owner)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Finished, not applied: RuntimeError: squadron table locked by the organiser" in page
    assert "Re-apply the result" in page

    # the sweep, long after: neither flown again nor applied again behind the person's back
    later = timezone.now() + timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        swept = services.battles_sweep(now=later)
    assert battle.pk not in swept["sent"] + swept["reclaimed"] + swept["apply"]
    battle.refresh_from_db()
    assert (battle.status, battle.attempts, hook_calls["runs"]) == ("finished", 1, 1)

    # the fault removed, the owner re-applies from the battle's page: applied exactly once
    hook_calls["broken"] = False
    response = client.post(f"/battles/{battle.pk}/apply/")
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.applied_at is not None and battle.apply_error == "" and not battle.not_applied
    assert hook_calls["applied"] == 1
    again = client.post(f"/api/battles/{battle.pk}/apply/", content_type="application/json")
    assert again.status_code == 400 and again.json()["code"] == "state"
    services.battle_apply(battle_id=battle.pk)  # a late apply_result message changes nothing
    with django_capture_on_commit_callbacks(execute=True):
        services.battles_sweep(now=later)
    assert hook_calls["applied"] == 1
    assert "not applied" not in client.get(f"/battles/{battle.pk}/").content.decode()


def test_re_apply_through_the_api_by_its_owner_not_by_a_stranger(
    catalog, owner, hook_calls, client, django_capture_on_commit_callbacks
):
    battle = _fly(owner, django_capture_on_commit_callbacks)
    hook_calls["broken"] = False
    stranger = get_user_model().objects.create_user("stranger", password="pw-123456")
    client.force_login(stranger)
    refused = client.post(f"/api/battles/{battle.pk}/apply/", content_type="application/json")
    assert refused.status_code in (400, 403) and refused.json()["code"] == "permission"
    assert Battle.objects.get(pk=battle.pk).applied_at is None
    client.force_login(owner)
    response = client.post(f"/api/battles/{battle.pk}/apply/", content_type="application/json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["applied_at"] is not None and body["not_applied"] is False
    assert body["apply_error"] == "" and hook_calls["applied"] == 1


def test_a_re_apply_that_fails_again_keeps_the_new_error(
    catalog, owner, hook_calls, django_capture_on_commit_callbacks
):
    battle = _fly(owner, django_capture_on_commit_callbacks)
    battle = services.battle_reapply(battle_id=battle.pk, user=owner)
    assert battle.not_applied and battle.apply_error.startswith("RuntimeError")
    assert hook_calls["runs"] == 2 and hook_calls["applied"] == 0


def test_the_sweep_sends_the_apply_step_of_a_battle_whose_message_was_lost(
    catalog, owner, monkeypatch, django_capture_on_commit_callbacks
):
    applied = []
    monkeypatch.setattr(
        campaign_hooks,
        "_installed",
        campaign_hooks.with_answer(battle_finished=lambda b: applied.append(b.pk)),
    )
    battle = services.battle_create(scenario="dogfight", seed=3, resolve=False)
    Battle.objects.filter(pk=battle.pk).update(status="pending")
    services.battle_run(battle_id=battle.pk)  # outside a transaction capture: apply message "lost"
    Battle.objects.filter(pk=battle.pk).update(applied_at=None)
    applied.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.battles_sweep()["apply"] == []  # within the grace period: not yet
    with django_capture_on_commit_callbacks(execute=True):
        swept = services.battles_sweep(now=timezone.now() + timedelta(minutes=1))
    assert swept["apply"] == [battle.pk] and applied == [battle.pk]
    assert Battle.objects.get(pk=battle.pk).applied_at is not None


def test_a_late_worker_whose_lease_was_taken_back_cannot_write_twice(catalog, monkeypatch):
    battle = services.battle_create(scenario="dogfight", seed=8, resolve=False)
    Battle.objects.filter(pk=battle.pk).update(status="pending")
    real_fly = services.fly
    writes = []

    def frozen_then_late(setup, seed, policies, heartbeat=None, progress=None):
        # this worker froze past its lease; the sweep took the battle back and another
        # worker flew it, before this one woke up and tried to write its own result
        if not writes:
            writes.append("late")
            Battle.objects.filter(pk=battle.pk).update(
                lease_expires_at=timezone.now() - timedelta(seconds=1)
            )
            assert services.battle_run(battle_id=battle.pk) is True
            record = real_fly(setup, seed, policies)
            record["result"] = {**record["result"], "winner": "written twice"}
            return record
        return real_fly(setup, seed, policies, heartbeat, progress)

    monkeypatch.setattr(services, "fly", frozen_then_late)
    assert services.battle_run(battle_id=battle.pk) is False
    battle.refresh_from_db()
    assert battle.status == "finished" and battle.attempts == 2
    assert battle.result["winner"] != "written twice"


def test_a_worker_that_lost_its_lease_stops_at_its_next_heartbeat(catalog, monkeypatch):
    battle = services.battle_create(scenario="dogfight", seed=8, resolve=False)
    Battle.objects.filter(pk=battle.pk).update(status="pending")
    monkeypatch.setattr(services, "HEARTBEAT_SECONDS", 0.0)  # renew between every two steps
    real_fly = services.fly
    beats = []

    def taken_back(setup, seed, policies, heartbeat=None, progress=None):
        def beat():
            beats.append(Battle.objects.get(pk=battle.pk).lease_expires_at)
            if len(beats) == 3:  # the sweep takes it back (another worker now holds it)
                Battle.objects.filter(pk=battle.pk).update(lease_token="someone else")
            heartbeat()

        return real_fly(setup, seed, policies, beat, progress)

    monkeypatch.setattr(services, "fly", taken_back)
    assert services.battle_run(battle_id=battle.pk) is False
    assert beats[0] < beats[1] < beats[2]  # each heartbeat renewed the lease
    assert len(beats) == 3  # and the first one after losing it stopped the flight
    battle.refresh_from_db()
    assert battle.status == "running" and battle.result is None  # the other worker's to write


def test_battle_creation_with_the_broker_refused_answers_202_and_is_flown_when_it_is_back(
    catalog, owner, client
):
    client.force_login(owner)
    with celery_on_broker(REFUSED):
        started = time.monotonic()
        response = client.post(
            "/api/battles/create/", {"scenario": "dogfight", "seed": 4},
            content_type="application/json",
        )  # fmt: skip
        took = time.monotonic() - started
        batch = client.post(
            "/api/battles/batches/", {"scenario": "dogfight", "seed": 4, "runs": 3},
            content_type="application/json",
        )  # fmt: skip
    assert response.status_code == 202, response.content
    assert took < 10  # answered, not hung (a loose bound: this is no speed test)
    body = response.json()
    assert body["status"] == "pending" and body["queued"] is True
    assert batch.status_code == 202, batch.content
    assert Battle.objects.filter(status="pending", dispatched_at__isnull=True).count() == 4
    page = client.get(f"/battles/{body['id']}/").content.decode()
    assert "Queued: stored, waiting for the broker" in page
    # the broker is back (eager mode here): the dispatcher sends them, nobody retried
    call_command("dispatch_queued")
    battle = Battle.objects.get(pk=body["id"])
    assert battle.status == "finished" and battle.attempts == 1 and battle.dispatched_at
    assert Battle.objects.filter(status="finished").count() == 4
    assert Battle.objects.count() == 4  # nothing created twice


def test_a_battle_whose_worker_died_before_claiming_it_is_sent_again_after_30_s(
    catalog, django_capture_on_commit_callbacks
):
    taken = services.battle_create(scenario="dogfight", seed=6, resolve=False)
    just_sent = services.battle_create(scenario="dogfight", seed=7, resolve=False)
    now = timezone.now()
    # the broker accepted both; a worker took the first and died before its claim
    Battle.objects.filter(pk=taken.pk).update(
        status="pending", dispatched_at=now - timedelta(seconds=31)
    )
    Battle.objects.filter(pk=just_sent.pk).update(
        status="pending", dispatched_at=now - timedelta(seconds=5)
    )
    with django_capture_on_commit_callbacks(execute=True):
        swept = services.battles_sweep(now=now)
    assert swept["lost"] == [taken.pk] and swept["sent"] == [taken.pk]
    assert Battle.objects.get(pk=taken.pk).status == "finished"
    assert Battle.objects.get(pk=just_sent.pk).status == "pending"  # still in the queue


def test_a_battle_taken_back_from_a_dead_worker_is_sent_on_the_housekeeping_queue(
    catalog, monkeypatch
):
    """Recovery within a minute under load: the soak found reclaimed battles waiting
    behind a backlog on the default queue (p95 84 s), so the sweep sends them on the
    short housekeeping queue every worker reads."""
    from battles import dispatch
    from battles.tasks import run_battle

    battle = services.battle_create(scenario="dogfight", seed=8, resolve=False)
    Battle.objects.filter(pk=battle.pk).update(
        status="running", started_at=timezone.now(), dispatched_at=timezone.now(),
        lease_token="dead-worker", lease_expires_at=timezone.now() - timedelta(seconds=1),
    )  # fmt: skip
    queues = {}
    monkeypatch.setattr(run_battle.app.conf, "task_always_eager", False)
    monkeypatch.setattr(
        run_battle, "apply_async", lambda args, **kw: queues.__setitem__(args[0], kw.get("queue"))
    )
    monkeypatch.setattr(dispatch, "publish_apply", lambda ids: [])
    swept = services.battles_sweep()
    assert swept["reclaimed"] == [battle.pk]
    assert queues == {battle.pk: services.RECOVERY_QUEUE}
    battle.refresh_from_db()
    assert battle.status == "pending" and battle.dispatched_at is not None

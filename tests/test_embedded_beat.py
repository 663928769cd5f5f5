"""The embedded default recovers by itself (angels.background's embedded beat): with no
broker and no ``celery beat``, the web process runs the beat's schedule in a thread of
its own, so a battle its last process left behind (running with a lease that ran out, or
stored and never flown) is flown to the end without anyone running a command.

Like tests/campaign/test_slow_work.py these run the real threads (transaction=True: the
threads read committed rows through their own connections). The beat is stopped after
its first pass, so that the test knows when the battle it sent back is flown."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from angels import background
from angels.celery import app
from battles import services
from battles.models import Battle

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 60  # seconds at most for the background work (a loaded CI machine)


@pytest.fixture
def embedded(settings):
    """The embedded default as a server runs it: background threads and the beat."""
    settings.ANGELS_BACKGROUND_WORK = "thread"
    settings.ANGELS_BACKGROUND_THREADS = 1
    settings.ANGELS_EMBEDDED_BEAT = True
    background.beat_stop()
    background.shutdown()
    yield
    background.beat_stop()
    assert background.wait_idle(WAIT)
    background.shutdown()


def _first_pass_then_flown() -> None:
    """Wait for the beat's first pass (started with the server), stop it, let the pool fly."""
    assert background.beat_running(), "the web process did not start the embedded beat"
    assert background.beat_wait(1, WAIT), "the embedded beat made no pass"
    background.beat_stop()
    assert background.wait_idle(WAIT), "the background work did not end"


def _status(client, pk: int) -> dict:
    answer = client.get(f"/api/battles/{pk}/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_a_battle_left_running_by_a_dead_process_is_flown_without_a_command(
    catalog, admin_client, embedded
):
    battle = services.battle_create(scenario="dogfight", seed=6, resolve=False)
    long_ago = timezone.now() - timedelta(minutes=5)
    # the process flying it died: its lease ran out and nobody renews it
    Battle.objects.filter(pk=battle.pk).update(
        status="running", attempts=1, lease_token="the dead process's", started_at=long_ago,
        lease_expires_at=long_ago + timedelta(seconds=20), dispatched_at=long_ago,
    )  # fmt: skip

    assert Battle.objects.get(pk=battle.pk).status == "running"
    # the server starts again: its first request starts the beat (which may send the
    # battle back to the queue before this very request reads it) ...
    _status(admin_client, battle.pk)
    _first_pass_then_flown()

    # ... and soon it is finished, flown once more, by nobody's command
    after = _status(admin_client, battle.pk)
    assert after["status"] == "finished", after["error"]
    assert after["winner"] in ("axis", "allied", None)
    assert after["attempts"] == 2 and after["result"]


def test_a_battle_stored_but_never_flown_is_flown_without_a_command(
    catalog, admin_client, embedded
):
    battle = services.battle_create(scenario="dogfight", seed=7, resolve=False)
    # stored, queued for a background thread; the process died before the thread ran it
    Battle.objects.filter(pk=battle.pk).update(status="pending", dispatched_at=None)

    assert Battle.objects.get(pk=battle.pk).queued
    _status(admin_client, battle.pk)  # the server's first request starts the beat
    _first_pass_then_flown()

    after = _status(admin_client, battle.pk)
    assert after["status"] == "finished" and after["attempts"] == 1 and not after["queued"]


def test_no_beat_thread_in_the_tests_or_beside_a_broker(admin_client, settings, monkeypatch):
    background.beat_stop()
    admin_client.get("/healthz")  # the test settings: off
    assert not background.beat_running()
    settings.ANGELS_EMBEDDED_BEAT = True
    monkeypatch.setattr(app.conf, "task_always_eager", False)  # a broker: workers and beat
    assert background.beat_start() is False and not background.beat_running()


def test_the_embedded_beat_runs_the_beat_schedule(settings):
    schedule = background.beat_schedule()
    assert schedule["battles.sweep"] == 10.0 and schedule["battles.pass_deadlines"] == 5.0
    assert set(schedule) == {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}


def test_work_waiting_for_a_thread_is_not_queued_twice(settings):
    """The sweep sends every queued battle, and a battle waiting behind others is still
    queued: sending it again while it waits adds nothing to the pool."""
    settings.ANGELS_BACKGROUND_WORK = "thread"
    settings.ANGELS_BACKGROUND_THREADS = 1
    background.shutdown()
    release, ran = threading.Event(), []
    background.submit(release.wait, WAIT, what="a long battle")
    for _ in range(3):
        background.submit(ran.append, "battle 9", what="battle 9")
    release.set()
    assert background.wait_idle(WAIT)
    background.submit(ran.append, "battle 9", what="battle 9")  # started and ended: new work
    assert background.wait_idle(WAIT)
    background.shutdown()
    assert ran == ["battle 9", "battle 9"]

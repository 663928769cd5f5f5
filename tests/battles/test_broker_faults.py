"""Broker faults with a real broker (issue 13): a refused broker costs nothing, a frozen
one hangs nothing, and a worker killed mid-battle is recovered within a minute with one
result. Each test starts its own private redis-server on a free port (so no other
worker sees its messages) and, where a worker flies battles, needs PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from battles import services
from battles.models import Battle
from tests.conftest import celery_on_broker

ROOT = Path(__file__).resolve().parents[2]
HANG = 10.0  # seconds: only to tell an answer from a hang, not a speed requirement
pytestmark = [pytest.mark.broker, pytest.mark.django_db(transaction=True)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def private_redis(port: int) -> Iterator[subprocess.Popen]:
    """A redis-server of our own on ``port``, no persistence; stopped (and woken) on exit."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed: the broker fault tests start their own")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            assert time.monotonic() < deadline and proc.poll() is None, "redis-server did not start"
            time.sleep(0.05)
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGCONT)
        proc.terminate()
        proc.wait(timeout=10)


def _database_url() -> str:
    if connection.vendor != "postgresql":
        pytest.skip(
            "a worker process needs a shared server database: set DATABASE_URL to PostgreSQL"
        )
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_worker(
    broker: str, database_url: str, log: Path, name: str, beat: bool = False
) -> subprocess.Popen:  # fmt: skip
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "angels.settings.base",
        "REDIS_URL": broker, "CELERY_BROKER_URL": broker, "DATABASE_URL": database_url,
    }  # fmt: skip
    args = [sys.executable, "-m", "celery", "-A", "angels", "worker", "--pool=solo",
            "--loglevel=WARNING", f"--hostname={name}@%h", "--without-gossip", "--without-mingle"]  # fmt: skip
    if beat:
        args += ["--beat", f"--schedule={log.with_suffix('.beat')}"]
    return subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w")
    )


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_for(pk: int, statuses: tuple[str, ...], seconds: float, worker=None, log=None) -> str:
    deadline = time.monotonic() + seconds
    status = ""
    while time.monotonic() < deadline:
        status = Battle.objects.get(pk=pk).status
        if status in statuses:
            return status
        if worker is not None:
            assert worker.poll() is None, log.read_text()[-2000:]
        time.sleep(0.05)
    return status


@pytest.fixture
def api(client, catalog):
    user = get_user_model().objects.create_user("organiser", password="pw-123456")
    client.force_login(user)
    return client


def _create(api, seed: int):
    started = time.monotonic()
    response = api.post(
        "/api/battles/create/", {"scenario": "dogfight", "seed": seed},
        content_type="application/json",
    )  # fmt: skip
    return response, time.monotonic() - started


def test_a_refused_broker_answers_202_and_the_battle_is_flown_once_it_is_back(api, tmp_path):
    database_url = _database_url()
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with celery_on_broker(url):  # nothing listens there yet: connection refused
        response, took = _create(api, seed=21)
        assert response.status_code == 202, response.content
        assert took < HANG
        pk = response.json()["id"]
        assert response.json()["queued"] is True
        with private_redis(port):  # the broker is back
            worker = start_worker(url, database_url, tmp_path / "worker.log", "refused-test")
            try:
                call_command("dispatch_queued")
                assert Battle.objects.get(pk=pk).dispatched_at is not None
                status = wait_for(pk, ("finished", "failed"), 60, worker, tmp_path / "worker.log")
            finally:
                stop(worker)
    battle = Battle.objects.get(pk=pk)
    assert status == "finished", (status, battle.error)
    assert battle.attempts == 1 and Battle.objects.count() == 1


def test_a_frozen_broker_hangs_neither_healthz_nor_battle_creation(api):
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with private_redis(port) as redis, celery_on_broker(url):
        assert api.get("/healthz").json()["broker"]["status"] == "up"
        redis.send_signal(signal.SIGSTOP)  # frozen: its socket accepts, nothing answers
        started = time.monotonic()
        health = api.get("/healthz")
        health_took = time.monotonic() - started
        response, took = _create(api, seed=22)
        batch_started = time.monotonic()
        batch = api.post(
            "/api/battles/batches/", {"scenario": "dogfight", "seed": 1, "runs": 3},
            content_type="application/json",
        )  # fmt: skip
        batch_took = time.monotonic() - batch_started
        redis.send_signal(signal.SIGCONT)
        assert health.status_code == 503 and health.json()["broker"]["status"] == "down"
        assert "broker" in health.json()["down"]
        assert health_took < HANG
        assert response.status_code == 202, response.content
        assert response.json()["queued"] is True and took < HANG
        assert batch.status_code == 202 and batch_took < HANG
        assert Battle.objects.filter(dispatched_at__isnull=True).count() == 4
        # thawed: the dispatcher hands every queued battle over
        assert len(services.dispatch_queued()) == 4
        assert not Battle.objects.filter(dispatched_at__isnull=True).exists()


def test_a_worker_killed_mid_battle_is_recovered_within_a_minute_with_one_result(api, tmp_path):
    database_url = _database_url()
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with private_redis(port), celery_on_broker(url):
        first = start_worker(url, database_url, tmp_path / "first.log", "doomed")
        try:
            for seed in (31, 32, 33, 34):  # until one is caught mid-flight
                pk = _create(api, seed=seed)[0].json()["id"]
                status = wait_for(pk, ("running", "finished"), 60, first, tmp_path / "first.log")
                if status == "running":
                    first.send_signal(signal.SIGKILL)
                    killed_at = time.monotonic()
                    break
            else:
                pytest.fail("every battle finished before the worker could be killed")
        finally:
            stop(first)
        assert Battle.objects.get(pk=pk).status == "running"  # caught by the dead worker
        # a fresh worker with beat (the sweep every 10 s), as in production
        second = start_worker(url, database_url, tmp_path / "second.log", "rescuer", beat=True)
        try:
            status = wait_for(pk, ("finished", "failed"), 75, second, tmp_path / "second.log")
            recovered = time.monotonic() - killed_at
        finally:
            stop(second)
    battle = Battle.objects.get(pk=pk)
    assert status == "finished", (status, battle.error)
    assert recovered < 60, recovered
    assert battle.attempts == 2  # claimed by the dead worker, then once more
    # one whole result: the one its seed gives
    again = services.fly(battle.setup, battle.seed, battle.settings.get("policies", {}))
    assert battle.result == again["result"] and battle.actions == again["actions"]

"""/healthz reports the database, the broker and the workers, and never fails itself."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[1]


def test_healthz_embedded_mode_is_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["status"] == "up"
    assert body["broker"]["mode"].startswith("eager")


def test_healthz_reports_a_stopped_broker_as_down(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["status"] == "up"
    assert body["broker"]["status"] == "down"
    assert body["workers"] == {"status": "down", "error": "broker unreachable", "count": 0}


def test_healthz_with_a_broker_but_no_worker(client, settings, redis_url):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = redis_url
    body = client.get("/healthz").json()
    assert body["broker"]["status"] == "up"
    assert body["workers"]["status"] == "down"


@pytest.mark.broker
def test_healthz_sees_a_real_worker(client, settings, redis_url):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = redis_url
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "angels.settings.base", "REDIS_URL": redis_url}
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "angels", "worker", "--pool=solo", "--loglevel=WARNING",
         "--hostname=healthz-test@%h", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        body = {}
        while time.monotonic() < deadline:
            body = client.get("/healthz").json()
            if body["workers"]["status"] == "up":
                break
            assert worker.poll() is None, worker.stderr.read().decode()[-2000:]
            time.sleep(0.5)
        assert body["workers"]["status"] == "up", body
        assert body["workers"]["count"] >= 1
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()

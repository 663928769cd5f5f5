"""/healthz reports the database, the broker and the workers, and never fails itself."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import celery_on_broker

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[1]


def test_healthz_embedded_mode_is_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["status"] == "up"
    assert body["broker"]["mode"].startswith("eager")


def test_healthz_reports_a_stopped_broker_as_down(client):
    with celery_on_broker("redis://127.0.0.1:1/0"):  # nothing listens on port 1
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["status"] == "up"
    assert body["broker"]["status"] == "down"
    assert body["workers"] == {"status": "down", "error": "broker unreachable", "count": 0}


def test_healthz_with_a_broker_but_no_worker(client, redis_url):
    with celery_on_broker(redis_url):
        body = client.get("/healthz").json()
    assert body["broker"]["status"] == "up"
    assert body["workers"]["status"] == "down"


@pytest.mark.broker
def test_healthz_sees_a_real_worker(client, redis_url, tmp_path):
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "angels.settings.base", "REDIS_URL": redis_url}
    log = tmp_path / "worker.log"
    log.touch()
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "angels", "worker", "--pool=solo", "--loglevel=WARNING",
         "--hostname=healthz-test@%h", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"),
    )  # fmt: skip
    broker = celery_on_broker(redis_url)
    broker.__enter__()
    try:
        deadline = time.monotonic() + 60
        body = {}
        while time.monotonic() < deadline:
            body = client.get("/healthz").json()
            if body["workers"]["status"] == "up":
                break
            assert worker.poll() is None, log.read_text()[-2000:]
            time.sleep(0.5)
        assert body["workers"]["status"] == "up", (body, log.read_text()[-2000:])
        assert body["workers"]["count"] >= 1
    finally:
        broker.__exit__(None, None, None)
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()


def test_the_site_icon_is_served_so_no_page_visit_logs_a_missing_file(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert b'rel="icon"' in client.get("/accounts/login/").content


@pytest.mark.parametrize(
    "path",
    ["/static/battles/hexmap.js", "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css"],
)
def test_static_files_are_served_by_the_app_itself_with_debug_off(client, settings, path):
    """The play page and the battle report load their hex maths from /static/, the API docs
    their Swagger UI: served by the app in every setting, with no web server in front."""
    assert settings.DEBUG is False
    response = client.get(path)
    assert response.status_code == 200
    assert b"".join(response.streaming_content if response.streaming else [response.content])

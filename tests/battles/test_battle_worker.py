"""With Redis and a real worker (not eager mode), a battle created through the API finishes."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from battles.models import Battle
from tests.conftest import celery_on_broker

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_a_battle_created_through_the_api_is_flown_by_a_real_worker(
    client, catalog, redis_url, tmp_path
):
    if connection.vendor != "postgresql":
        pytest.skip(
            "the worker process needs a shared server database: set DATABASE_URL to PostgreSQL"
        )
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "angels.settings.base",
        "REDIS_URL": redis_url,
        "DATABASE_URL": database_url,
    }
    log = tmp_path / "worker.log"
    log.touch()
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "angels", "worker", "--pool=solo", "--loglevel=WARNING",
         "--hostname=battle-test@%h", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"),
    )  # fmt: skip
    broker = celery_on_broker(redis_url)
    broker.__enter__()
    try:
        user = get_user_model().objects.create_user("organiser", password="pw-123456")
        client.force_login(user)
        response = client.post(
            "/api/battles/create/",
            {"scenario": "dogfight", "seed": 21},
            content_type="application/json",
        )
        assert response.status_code == 202
        pk = response.json()["id"]
        deadline = time.monotonic() + 60
        status = None
        while time.monotonic() < deadline:
            status = Battle.objects.get(pk=pk).status
            if status in ("finished", "failed"):
                break
            assert worker.poll() is None, log.read_text()[-2000:]
            time.sleep(0.3)
        battle = Battle.objects.get(pk=pk)
        assert status == "finished", (status, battle.error)
        assert battle.attempts == 1 and battle.result["turns_played"] >= 1
    finally:
        broker.__exit__(None, None, None)
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()

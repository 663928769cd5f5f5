"""``/healthz``: is the database up, does the broker answer, does a worker answer?

Every probe is bounded in time and never raises: a stopped broker is reported
as ``down``, not as a server error.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.http import HttpRequest, JsonResponse

from .celery import app as celery_app

PROBE_TIMEOUT_SECONDS = 1.0


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - a health probe reports every failure
        return {"status": "down", "error": str(exc)[:200]}
    return {"status": "up", "vendor": connection.vendor}


def check_broker() -> dict[str, Any]:
    if celery_app.conf.task_always_eager:
        return {"status": "up", "mode": "eager (tasks run in-process)"}
    try:
        with celery_app.connection_for_write() as conn:
            # kombu adds the timeout to time() (any number of seconds); the stubs say int.
            conn.ensure_connection(max_retries=0, timeout=PROBE_TIMEOUT_SECONDS)  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001
        return {"status": "down", "error": str(exc)[:200]}
    return {"status": "up", "mode": "broker"}


def check_workers(broker_up: bool) -> dict[str, Any]:
    if celery_app.conf.task_always_eager:
        return {"status": "up", "mode": "eager", "count": 0}
    if not broker_up:
        return {"status": "down", "error": "broker unreachable", "count": 0}
    try:
        replies = celery_app.control.ping(timeout=PROBE_TIMEOUT_SECONDS) or []
    except Exception as exc:  # noqa: BLE001
        return {"status": "down", "error": str(exc)[:200], "count": 0}
    return {"status": "up" if replies else "down", "count": len(replies)}


def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    broker = check_broker()
    workers = check_workers(broker["status"] == "up")
    healthy = all(part["status"] == "up" for part in (database, broker, workers))
    body = {
        "status": "ok" if healthy else "degraded",
        "database": database,
        "broker": broker,
        "workers": workers,
    }
    return JsonResponse(body, status=200 if healthy else 503)

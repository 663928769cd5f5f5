"""``/healthz``: is the database up, does the broker answer, does a worker answer?

Answers within ``OVERALL_SECONDS`` (under 2 s) whatever the database and the
broker do. Library timeouts alone do not promise that: a frozen broker (its
process stopped, its socket open) or a frozen database server can hold a
client call far past its own timeout. So each part is probed in its own
daemon thread and waited for with a deadline; a part that has not answered
by then is reported ``down`` ("no answer within …"), and the page answers
503 naming it. A probe still stuck from an earlier request is not started
again (one thread per part at most), so a long outage does not pile threads
up. On PostgreSQL the probe's query also carries a statement timeout.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connection, connections
from django.http import HttpRequest, JsonResponse

from .celery import app as celery_app

PROBE_TIMEOUT_SECONDS = 0.6  # the broker connection and the workers' ping
OVERALL_SECONDS = 1.5  # every part answers, or is reported down, within this
_busy = {part: threading.Lock() for part in ("database", "broker")}


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET statement_timeout = %s", [int(OVERALL_SECONDS * 1000)])
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
            conn.default_channel  # noqa: B018 - opens a channel: a frozen broker stops here
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


def _database_probe() -> dict[str, Any]:
    try:
        return {"database": check_database()}
    finally:
        connections.close_all()  # this thread's own connection


def _broker_probe() -> dict[str, Any]:
    broker = check_broker()
    return {"broker": broker, "workers": check_workers(broker["status"] == "up")}


def _start(
    part: str, probe: Callable[[], dict[str, Any]], out: dict[str, Any]
) -> threading.Thread | None:
    """Run ``probe`` in a daemon thread unless the last one for ``part`` is still stuck."""
    lock = _busy[part]
    if not lock.acquire(blocking=False):
        return None

    def run() -> None:
        try:
            out.update(probe())
        finally:
            lock.release()

    thread = threading.Thread(target=run, name=f"healthz-{part}", daemon=True)
    thread.start()
    return thread


def probe_all(overall: float = OVERALL_SECONDS) -> dict[str, dict[str, Any]]:
    """Every part's state within ``overall`` seconds; a part that did not answer is down."""
    out: dict[str, Any] = {}
    threads = {
        "database": _start("database", _database_probe, out),
        "broker": _start("broker", _broker_probe, out),
    }
    deadline = time.monotonic() + overall
    for thread in threads.values():
        if thread is not None:
            thread.join(max(0.0, deadline - time.monotonic()))
    late = {"status": "down", "error": f"no answer within {overall:g} s"}
    result = dict(out)  # a late thread may still write into ``out``
    for part in ("database", "broker", "workers"):
        if part not in result:
            result[part] = dict(late) if part != "workers" else {**late, "count": 0}
    return result


def healthz(request: HttpRequest) -> JsonResponse:
    parts = probe_all()
    healthy = all(part["status"] == "up" for part in parts.values())
    down = [name for name, part in parts.items() if part["status"] != "up"]
    body: dict[str, Any] = {"status": "ok" if healthy else "degraded", **parts}
    if down:
        body["down"] = down
    return JsonResponse(body, status=200 if healthy else 503)

"""Soak: kill Celery workers with SIGKILL while they fly battles; count what is lost.

Needs PostgreSQL and the ``redis-server`` binary. Uses its own database
(``angels_soak`` unless DATABASE_URL says otherwise) and starts a private
redis-server on a free port, ``--workers`` solo workers, one beat (the
sweep every 10 s) and ``manage.py dispatch_queued --loop 10`` (the same sweep
from its own process), none of these two killed. It creates ``--battles`` tactical Dogfights
at ``--rate`` a second and meanwhile kills a random live worker every
``--kill-every`` seconds (``--kills`` times), choosing among the workers
whose log shows a battle received and not yet done for a random 0-1 s (so
every kill catches a battle, mostly mid-flight, sometimes before its claim),
and starts a fresh worker at once.
At the end it prints:

- lost: battles not finished (still pending/running, or failed) ``--grace``
  seconds after the last one was created;
- doubled: battles whose result was applied more than once (the hook in
  bench/soak_app.py inserts a row in the apply step's transaction);
- recovery: for every battle a kill caught mid-flight (claimed again after
  the kill), the time from the kill to its result, p50 / p95 / max.

    .venv/bin/python bench/soak_workers.py --battles 300 --kills 100
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ensure_database(url: str) -> None:
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def _flying(log: Path) -> str | None:
    """The task id of the battle this worker (by its INFO log) is flying, if any."""
    tail = log.read_bytes()[-4000:].decode(errors="replace")
    at = tail.rfind("battles.run_battle[")
    if at == -1 or "received" not in tail[at:] or "succeeded" in tail[at:]:
        return None
    return tail[at : tail.find("]", at)]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:  # noqa: PLR0915 - one script, read top to bottom
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--battles", type=int, default=300)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--rate", type=float, default=1.5, help="battles created a second")
    parser.add_argument("--kill-every", type=float, default=2.0, help="seconds between kills")
    parser.add_argument("--grace", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--policy",
        default="tactical",
        help="computer pilots of both sides (random: faster battles)",
    )
    parser.add_argument(
        "--max-seconds", type=float, default=1200, help="stop creating and killing after this"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)

    redis_binary = shutil.which("redis-server")
    if redis_binary is None:
        sys.exit("redis-server is not installed")
    port = _free_port()
    broker = f"redis://127.0.0.1:{port}/0"
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/angels_soak")
    os.environ.update(
        REDIS_URL=broker, CELERY_BROKER_URL=broker, CELERY_TASK_ALWAYS_EAGER="false",
        DJANGO_SETTINGS_MODULE="angels.settings.base",
    )  # fmt: skip
    _ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from battles import services
    from battles.models import Battle

    call_command("migrate", verbosity=0)
    call_command("load_catalog", verbosity=0)
    Battle.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS soak_applied (battle_id bigint NOT NULL)")
        cursor.execute("TRUNCATE soak_applied")

    tmp = Path(tempfile.mkdtemp(prefix="soak-"))
    redis = subprocess.Popen(
        [redis_binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    env = os.environ.copy()
    celery = [sys.executable, "-m", "celery", "-A", "bench.soak_app"]
    serial = iter(range(10**6))

    def worker() -> tuple[subprocess.Popen, int]:
        n = next(serial)
        return subprocess.Popen(
            [*celery, "worker", "--pool=solo", "--loglevel=INFO", f"--hostname=soak{n}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=(tmp / f"worker{n}.log").open("w"),
        ), n  # fmt: skip

    beat = subprocess.Popen(
        [*celery, "beat", "--loglevel=WARNING", f"--schedule={tmp / 'beat-schedule'}"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=(tmp / "beat.log").open("w"),
    )  # fmt: skip
    # the sweep also from a process of its own (README: beside beat, so that sweeping
    # never waits for a free worker; with workers killed this often, it would)
    sweeper = subprocess.Popen(
        [sys.executable, "manage.py", "dispatch_queued", "--loop", "10"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=(tmp / "sweeper.log").open("w"),
    )  # fmt: skip
    workers, names = (list(t) for t in zip(*(worker() for _ in range(args.workers)), strict=True))
    seen: dict[int, tuple[str, float]] = {}  # worker -> (battle task it flies, kill it after)
    kills: list[tuple[float, dict[int, int]]] = []  # (when, {running battle: attempts then})
    created: list[int] = []
    try:
        time.sleep(5)  # let the workers connect
        start = time.monotonic()
        next_battle, next_kill, next_idle_check = start, start + args.kill_every, start
        while len(created) < args.battles or len(kills) < args.kills:
            now = time.monotonic()
            if now - start > args.max_seconds:
                break
            if len(created) < args.battles and now >= next_battle:
                battle = services.battle_create(
                    scenario="dogfight", seed=rng.randrange(2**40),
                    settings={"policies": {"axis": args.policy, "allied": args.policy}},
                )  # fmt: skip
                created.append(battle.pk)
                next_battle += 1 / args.rate
            if len(kills) < args.kills and now >= next_kill:
                running = dict(
                    Battle.objects.filter(status="running").values_list("pk", "attempts")
                )
                # a worker seen flying the same battle for a random 0-1 s (so some kills land
                # before the claim, most during the flight); else try again shortly
                for n in names:
                    task = _flying(tmp / f"worker{n}.log")
                    if task is None or seen.get(n, ("",))[0] != task:
                        seen[n] = (task or "", now + rng.uniform(0, 1.0))
                busy = [i for i, n in enumerate(names) if seen[n][0] and now >= seen[n][1]]
                if busy:
                    victim = rng.choice(busy)
                    workers[victim].send_signal(signal.SIGKILL)
                    workers[victim].wait()
                    kills.append((time.time(), running))
                    workers[victim], names[victim] = worker()
                    next_kill += args.kill_every
            if len(created) == args.battles and now >= next_idle_check:
                next_idle_check = now + 1
                if not Battle.objects.filter(status__in=["pending", "running"]).exists():
                    break  # nothing left to catch mid-flight
            time.sleep(0.02)
        print(f"created {len(created)} battles and killed {len(kills)} workers in "
              f"{time.monotonic() - start:.0f} s; waiting up to {args.grace:.0f} s for the rest")  # fmt: skip
        deadline = time.monotonic() + args.grace
        while time.monotonic() < deadline:
            if not Battle.objects.exclude(status__in=["finished", "failed"]).exists() and not (
                Battle.objects.filter(status="finished", applied_at__isnull=True).exists()
            ):
                break
            time.sleep(0.5)
    finally:
        for proc in [*workers, beat, sweeper]:
            proc.send_signal(signal.SIGTERM)
        for proc in [*workers, beat, sweeper]:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        redis.terminate()
        redis.wait(timeout=10)

    rows = {
        pk: (status, attempts, finished_at, applied_at)
        for pk, status, attempts, finished_at, applied_at in Battle.objects.values_list(
            "pk", "status", "attempts", "finished_at", "applied_at"
        )
    }
    lost = [pk for pk in created if rows[pk][0] != "finished" or rows[pk][3] is None]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT battle_id, count(*) FROM soak_applied GROUP BY battle_id HAVING count(*) > 1"
        )
        doubled = cursor.fetchall()
    recoveries = []
    caught = set()
    for pk in created:
        status, final_attempts, finished_at, _ = rows[pk]
        # the last kill that found it running one claim before its final one: the
        # killed worker held it, and the sweep gave it to the worker that finished it
        when = max(
            (when for when, running in kills if running.get(pk) == final_attempts - 1),
            default=None,
        )
        if when is not None and finished_at is not None and final_attempts > 1:
            caught.add(pk)
            recoveries.append((finished_at - datetime.fromtimestamp(when, tz=UTC)).total_seconds())
    print(
        f"battles {len(created)}, kills {len(kills)} ({sum(1 for _, r in kills if r)} found a "
        f"battle running), battles caught mid-flight {len(caught)}, claims "
        f"{sum(rows[pk][1] for pk in created)}"
    )
    print(f"lost {len(lost)} {lost[:10]}")
    print(f"doubled {len(doubled)} {doubled[:10]}")
    if recoveries:
        print(
            f"recovery after a kill: p50 {_percentile(recoveries, 0.5):.1f} s, "
            f"p95 {_percentile(recoveries, 0.95):.1f} s, max {max(recoveries):.1f} s, "
            f"mean {statistics.mean(recoveries):.1f} s (n={len(recoveries)})"
        )
    print(f"logs in {tmp}")


if __name__ == "__main__":
    main()

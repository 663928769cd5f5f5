"""Batch throughput with real workers: N tactical Dogfights fanned out over Celery.

Needs PostgreSQL and Redis (defaults: the local servers; override with
DATABASE_URL / REDIS_URL). Creates and migrates its own database
``angels_bench``, starts ``--workers`` Celery worker processes (one process
each, ``--pool=solo``), creates one batch and times it until its summary is
written.

    .venv/bin/python bench/bench_batch.py --runs 200 --workers 2
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenario", default="dogfight")
    args = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/angels_bench")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
    os.environ["DJANGO_SETTINGS_MODULE"] = "angels.settings.base"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
    _ensure_database(os.environ["DATABASE_URL"])

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_catalog", verbosity=0)
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()

    from battles import services

    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "angels",
                "worker",
                "--pool=solo",
                "--loglevel=WARNING",
                f"--hostname=bench{i}@%h",
                "--without-gossip",
                "--without-mingle",
                "--prefetch-multiplier=1",
            ],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for i in range(args.workers)
    ]
    try:
        time.sleep(4)  # let the workers connect
        start = time.perf_counter()
        batch = services.batch_create(
            scenario=args.scenario,
            runs=args.runs,
            seed=1,
            settings={"policies": {"axis": "tactical", "allied": "tactical"}},
        )
        while True:
            batch.refresh_from_db()
            if batch.summary is not None:
                break
            time.sleep(0.2)
        elapsed = time.perf_counter() - start
    finally:
        for w in workers:
            w.send_signal(signal.SIGTERM)
        for w in workers:
            w.wait(timeout=30)
    print(
        f"{args.runs} tactical {args.scenario} battles over {args.workers} workers: {elapsed:.1f} s, {args.runs / elapsed:.1f} battles/s"
    )
    print(
        f"summary: axis {batch.summary['axis']['wins']} wins, allied {batch.summary['allied']['wins']}, draws {batch.summary['draws']}"
    )


def _ensure_database(url: str) -> None:
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


if __name__ == "__main__":
    main()

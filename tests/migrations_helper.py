"""Tests' shorthand for migrations, shared by every migration test (registered as a plugin
in tests/conftest.py, so its fixtures need no import).

In the test database: ``migrated(targets)`` moves the apps to those migrations and answers
their models as they were there; after the test every app is back at its latest migration
(going back to one app's old migration also unapplies the apps that depend on it).

On a copy of an old database (a gzipped SQLite fixture): ``unzipped`` writes the copy,
``manage`` runs ``manage.py`` on it in a subprocess, whatever database the suite itself runs
on, and ``columns_of`` / ``table_hash`` read a table as its manifest was computed."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def migrate_to(targets: list[tuple[str, str]] | None = None) -> Apps:
    """The test database migrated to ``targets`` (every app's latest when None); the apps
    (historical models) as they are there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets if targets is not None else executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def migrated() -> Iterator[Callable[[list[tuple[str, str]]], Apps]]:
    """``migrate_to`` for one test; every app back to its latest migration after it."""
    yield migrate_to
    migrate_to()


def unzipped(dump: Path, directory: Path) -> Path:
    """A copy of the gzipped database ``dump`` in ``directory``, to be migrated."""
    path = directory / dump.name.removesuffix(".gz")
    with gzip.open(dump, "rb") as src, path.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return path


def manage(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py <args>`` on the SQLite database ``db``, with no broker, beat or
    background worker; the test fails with its output unless it succeeds."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "DJANGO_SETTINGS_MODULE": "angels.settings.local",
        "ANGELS_EMBEDDED_BEAT": "0",
        "ANGELS_BACKGROUND_WORK": "inline",
    }
    for name in ("REDIS_URL", "CELERY_BROKER_URL", "DJANGO_ALLOWED_HOSTS", "DJANGO_DEBUG"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def columns_of(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f'pragma table_info("{table}")')]


def table_hash(conn: sqlite3.Connection, table: str, cols: list[str]) -> tuple[int, str]:
    """Row count and sha256 of ``table`` over ``cols``, computed as the manifests were."""
    quoted = ", ".join(f'"{c}"' for c in cols)
    rows = sorted(
        json.dumps(dict(zip(cols, r, strict=True)), sort_keys=True, default=str)
        for r in conn.execute(f'select {quoted} from "{table}"')
    )
    return len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest()

"""A backup is only as good as its restore (README "Deploying"): a PostgreSQL database
with the catalog, the demo roster and a user, dumped with ``pg_dump --format=custom`` as
the README says, restored with ``pg_restore`` into a fresh database, has every row.

The databases are the test's own, uniquely named on the PostgreSQL at ``DATABASE_URL``
when that is PostgreSQL, else at 127.0.0.1:5432 (user postgres), and dropped after. Their
tables are made from the models directly (no migrations: the schema is the same, in
seconds instead of a minute); the rows by the project's own loaders. The test skips,
saying why, without pg_dump/pg_restore/psql or a PostgreSQL that answers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
TOOLS = ("pg_dump", "pg_restore", "psql")

# Run in a subprocess on the new database: tables straight from the models, then the rows.
_FILL = """
import json
from django.conf import settings


class _NoMigrations(dict):
    def __contains__(self, label):
        return True

    def __getitem__(self, label):
        return None


settings.MIGRATION_MODULES = _NoMigrations()
import django

django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command

call_command("migrate", run_syncdb=True, verbosity=0)
from demo.roster import demo_roster_create
from roster.catalog import catalog_load

catalog_load()
demo_roster_create()
get_user_model().objects.create_user("quartermaster", password="pw-backup-check-1")
print("filled")
"""

# What must come back: the counts of these tables, and these names.
_COUNTS = (
    "roster_aircrafttype",
    "roster_squadron",
    "roster_pilot",
    "roster_airframe",
    "roster_historicalpilot",
    "auth_user",
)
_NAMES = "select string_agg(name, '|' order by name) from roster_squadron"


def _server() -> dict[str, str]:
    url = os.environ.get("DATABASE_URL", "")
    parts = urlsplit(url) if url.startswith(("postgres://", "postgresql://")) else None
    return {
        "host": (parts.hostname if parts else None) or "127.0.0.1",
        "port": str((parts.port if parts else None) or 5432),
        "user": (parts.username if parts else None) or "postgres",
        "password": (parts.password if parts else None) or "",
    }


def _tool(server: dict[str, str], name: str, *args: str, timeout: int = 120):
    env = {**os.environ, "PGPASSWORD": server["password"], "PGCONNECT_TIMEOUT": "5"}
    return subprocess.run(
        [name, "-h", server["host"], "-p", server["port"], "-U", server["user"], *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _sql(server: dict[str, str], database: str, query: str) -> str:
    result = _tool(server, "psql", "-d", database, "-tA", "-v", "ON_ERROR_STOP=1", "-c", query)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def _snapshot(server: dict[str, str], database: str) -> dict:
    counts = " union all ".join(f"select '{t}', count(*) from {t}" for t in _COUNTS)
    rows = dict(line.split("|") for line in _sql(server, database, counts).splitlines())
    return {
        "counts": {table: int(n) for table, n in rows.items()},
        "squadrons": _sql(server, database, _NAMES).split("|"),
        "user": _sql(server, database, "select username from auth_user"),
    }


@pytest.fixture
def postgres() -> dict[str, str]:
    missing = [name for name in TOOLS if not shutil.which(name)]
    if missing:
        pytest.skip(f"no {', '.join(missing)} on this machine (Debian: postgresql-client)")
    server = _server()
    answer = _tool(server, "psql", "-d", "postgres", "-tA", "-c", "select 1", timeout=15)
    if answer.returncode != 0:
        pytest.skip(
            f"PostgreSQL does not answer at {server['host']}:{server['port']} as "
            f"{server['user']}: {answer.stderr.strip()}"
        )
    return server


def test_a_pg_dump_backup_restores_into_a_fresh_database_with_every_row(
    postgres: dict[str, str], tmp_path: Path
):
    source = f"angels_backup_{uuid.uuid4().hex[:12]}"
    restored = f"{source}_restored"
    backup = tmp_path / "angels.dump"
    try:
        _sql(postgres, "postgres", f"create database {source}")

        auth = (
            f"{postgres['user']}:{postgres['password']}"
            if postgres["password"]
            else postgres["user"]
        )
        env = {
            **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")},
            "DJANGO_SETTINGS_MODULE": "angels.settings.local",
            "DATABASE_URL": f"postgres://{auth}@{postgres['host']}:{postgres['port']}/{source}",
            "ANGELS_EMBEDDED_BEAT": "0",
        }
        filled = subprocess.run(
            [sys.executable, "-c", _FILL],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert filled.stdout.strip().endswith("filled"), filled.stdout + filled.stderr
        before = _snapshot(postgres, source)
        assert before["counts"]["roster_aircrafttype"] > 50
        assert before["counts"]["roster_pilot"] > 20 and len(before["squadrons"]) == 6
        assert before["user"] == "quartermaster"

        # the README's backup and restore, as written there
        dump = _tool(
            postgres, "pg_dump", "--format=custom", "--no-owner", "-f", str(backup), source
        )
        assert dump.returncode == 0, dump.stderr
        _sql(postgres, "postgres", f"create database {restored}")
        load = _tool(
            postgres, "pg_restore", "--no-owner", "--exit-on-error", "-d", restored, str(backup)
        )
        assert load.returncode == 0, load.stderr

        assert _snapshot(postgres, restored) == before
        # the sequences come back too: the next row gets a new id, not a taken one
        next_id = _sql(
            postgres, restored, "select nextval(pg_get_serial_sequence('roster_pilot', 'id'))"
        )
        assert int(next_id) > int(_sql(postgres, restored, "select max(id) from roster_pilot"))
    finally:
        for database in (restored, source):
            _tool(
                postgres,
                "psql",
                "-d",
                "postgres",
                "-c",
                f"drop database if exists {database} with (force)",
            )

"""Upgrading keeps everything: a database made by the previous release (the demo at
9bccada, the last landed release) migrates to this code with every row and page intact.

``manage.py migrate`` runs in a subprocess on a SQLite copy of the fixture, whatever
database the suite itself runs on. Every table of the manifest is hashed again over the
columns it had (migrations may add columns) and compared with the fixture's, the rows
the migrations change on purpose (``INTENDED``) changed by hand on a copy; Django's own
bookkeeping tables (applied migrations, content types, permissions) gain rows for new
models, so there every old row must still be there as it was. Then the main pages are
asked for, on the migrated copy, by Django's test client in a second subprocess: each
answers 200 and shows the demo's names.

The fixture was made by ``manage.py migrate && manage.py demo`` in a checkout of 9bccada
with ``DATABASE_URL=sqlite:///…`` (then VACUUMed and gzipped);
``demo_db_9bccada.manifest.json`` holds the row count and sha256 of every table, computed
as ``table_hash`` (tests/migrations_helper.py) does.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.migrations_helper import FIXTURES, columns_of, manage, table_hash, unzipped

DUMP = FIXTURES / "demo_db_9bccada.sqlite3.gz"
MANIFEST = json.loads((FIXTURES / "demo_db_9bccada.manifest.json").read_text())
# Django's bookkeeping: new migrations and models add rows (with higher ids) beside the old.
GROWING = ("django_migrations", "django_content_type", "auth_permission")
# The rows the migrations since 9bccada change on purpose, said here by hand; every other
# row must come through exactly as it was.
INTENDED = (
    # roster 0008 (issue 24): the P-40 airframe flies 2-4 / 5, as the Example of Play flies it
    "update roster_aircrafttype set speed_max = 4, high_speed_min = 5 where name in "
    "('P-40B Rookie', 'P-40C Flying Tiger', 'Lend-Lease Tomahawk Mk. II', 'Curtis P-40 Warhawk')",
)


def _snapshot(conn: sqlite3.Connection, columns: dict[str, list[str]], last_ids: dict) -> dict:
    """Row count and hash of every manifest table (bookkeeping ones up to their old last id)."""
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
    seen: dict[str, object] = {}
    for table in MANIFEST:
        if table not in tables:
            seen[table] = "missing"
        elif table in GROWING:
            conn.execute(
                f'create temp view "old_{table}" as select * from "{table}" '
                f"where id <= {int(last_ids[table])}"
            )
            count, sha = table_hash(conn, f"old_{table}", columns[table])
            seen[table] = {"rows": count, "sha256": sha}
        else:
            count, sha = table_hash(conn, table, columns[table])
            seen[table] = {"rows": count, "sha256": sha}
    return seen


# Run by `manage.py shell` on the migrated copy: the main pages through Django's test client.
_PAGES = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from battles.models import Battle
from campaign.models import Campaign
from roster.models import Pilot, Squadron

client = Client()
client.force_login(get_user_model().objects.get(username="organiser"))
campaign = Campaign.objects.get()
ace = Pilot.objects.order_by("-air_kills", "id").first()
squadron = ace.squadron
battle = Battle.objects.order_by("id").last()
pages = {
    "campaign": (f"/campaigns/{campaign.pk}/", [campaign.name]),
    "battle report": (f"/battles/{battle.pk}/", [f"Battle {battle.pk}"]),
    "pilot": (f"/pilots/{ace.pk}/", [ace.name, squadron.name]),
    "squadron": (f"/squadrons/{squadron.pk}/", [squadron.name, ace.name]),
    "aces": ("/aces/", [ace.name, squadron.name]),
}
seen = {}
for page, (url, names) in pages.items():
    response = client.get(url)
    text = response.content.decode()
    seen[page] = [url, response.status_code, [n for n in names if n not in text]]
print(json.dumps(seen))
"""


@pytest.fixture
def previous_release_database(tmp_path: Path) -> Path:
    return unzipped(DUMP, tmp_path)


def test_previous_release_database_migrates_keeping_every_row_and_page(
    previous_release_database: Path, tmp_path: Path
):
    db = previous_release_database
    with sqlite3.connect(db) as conn:
        columns = {table: columns_of(conn, table) for table in MANIFEST}
        last_ids = {
            table: conn.execute(f'select coalesce(max(id), 0) from "{table}"').fetchone()[0]
            for table in GROWING
        }
        assert _snapshot(conn, columns, last_ids) == MANIFEST  # the fixture is what it says
        names = {
            "campaign": conn.execute("select name from campaign_campaign").fetchone()[0],
            "squadrons": {r[0] for r in conn.execute("select name from roster_squadron")},
        }
    conn.close()
    assert names["campaign"] == "Channel Front 1941 (demo)" and len(names["squadrons"]) == 6
    # what the migrated copy must hold: the fixture with the intended changes made by hand
    shutil.copy(db, tmp_path / "expected.sqlite3")
    with sqlite3.connect(tmp_path / "expected.sqlite3") as conn:
        assert all(conn.execute(sql).rowcount > 0 for sql in INTENDED)
        expected = _snapshot(conn, columns, last_ids)
    conn.close()

    manage(db, "migrate", "--noinput")

    with sqlite3.connect(db) as conn:
        after = _snapshot(conn, columns, last_ids)
        changed = {t: (expected[t], after[t]) for t in MANIFEST if after[t] != expected[t]}
        assert not changed, changed
        assert conn.execute("pragma foreign_key_check").fetchall() == []
    conn.close()

    out = manage(db, "shell", "-c", _PAGES)
    pages = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(pages) == {"campaign", "battle report", "pilot", "squadron", "aces"}
    for page, (url, status, missing) in pages.items():
        assert (page, status, missing) == (page, 200, []), url
    assert pages["campaign"][0] != "/campaigns/0/"


def test_the_row_check_notices_a_changed_row(previous_release_database: Path):
    with sqlite3.connect(previous_release_database) as conn:
        columns = {table: columns_of(conn, table) for table in MANIFEST}
        last_ids = {
            table: conn.execute(f'select max(id) from "{table}"').fetchone()[0] for table in GROWING
        }
        conn.execute("update roster_pilot set air_kills = air_kills + 1 where id = 10")
        conn.execute("delete from django_migrations where id = 1")
        seen = _snapshot(conn, columns, last_ids)
    conn.close()
    assert seen["roster_pilot"]["rows"] == MANIFEST["roster_pilot"]["rows"]
    assert seen["roster_pilot"]["sha256"] != MANIFEST["roster_pilot"]["sha256"]
    assert seen["django_migrations"]["rows"] == MANIFEST["django_migrations"]["rows"] - 1

"""An old database (made by the demo at 86c9620, before the careers app split off
the roster) migrates to the new layout without losing a row.

``manage.py migrate`` runs in a subprocess on a SQLite copy of the fixture,
whatever database the suite itself runs on. Every table of the manifest is then
hashed again (under its new name when renamed, over the manifest's columns only,
since migrations may add columns) and compared with the manifest; the careers
models must read the moved rows through the ORM, and the moved models' content
types (so admin history and permissions) must follow them to the careers app.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.migrations_helper import FIXTURES, columns_of, manage, table_hash, unzipped

DUMP = FIXTURES / "demo_db_86c9620.sqlite3.gz"
MANIFEST = json.loads((FIXTURES / "demo_db_86c9620.manifest.json").read_text())

MOVED = {
    "roster_appliedresult": ("careers_appliedresult", "AppliedResult"),
    "roster_awarddefinition": ("careers_awarddefinition", "AwardDefinition"),
    "roster_careersettings": ("careers_careersettings", "CareerSettings"),
    "roster_claim": ("careers_claim", "Claim"),
    "roster_pilotaward": ("careers_pilotaward", "PilotAward"),
    "roster_pilotevent": ("careers_pilotevent", "PilotEvent"),
    "roster_tablebattle": ("careers_tablebattle", "TableBattle"),
}


# The rows the migrations since 86c9620 change on purpose, said here by hand; every other
# row must come through exactly as it was.
INTENDED = {
    # roster 0008 (issue 24): the P-40 airframe flies 2-4 / 5, as the Example of Play flies it
    "roster_aircrafttype": "update roster_aircrafttype set speed_max = 4, high_speed_min = 5 "
    "where name in ('P-40B Rookie', 'P-40C Flying Tiger', 'Lend-Lease Tomahawk Mk. II', "
    "'Curtis P-40 Warhawk')",
}


def _intended(database: Path, old_columns: dict[str, list[str]]) -> dict[str, dict]:
    """The manifest with the intended changes made by hand on a copy of the fixture."""
    copy = database.with_name("intended.sqlite3")
    shutil.copy(database, copy)
    expected = dict(MANIFEST)
    with sqlite3.connect(copy) as conn:
        for table, statement in INTENDED.items():
            conn.execute(statement)
            rows, sha = table_hash(conn, table, old_columns[table])
            expected[table] = {**MANIFEST[table], "rows": rows, "sha256": sha}
    conn.close()
    return expected


def _mismatches(
    conn: sqlite3.Connection,
    old_columns: dict[str, list[str]],
    renamed: dict[str, str],
    manifest: dict[str, dict] = MANIFEST,
) -> list[str]:
    """Every manifest table whose rows differ (or that is gone), by its old name."""
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
    problems = []
    for old, expected in manifest.items():
        table = renamed.get(old, old)
        if table not in tables:
            problems.append(f"{old}: table {table} is missing")
            continue
        count, sha = table_hash(conn, table, old_columns[old])
        if (count, sha) != (expected["rows"], expected["sha256"]):
            problems.append(
                f"{old} as {table}: {count} rows (was {expected['rows']}), hash differs"
            )
    return problems


@pytest.fixture
def old_database(tmp_path: Path) -> Path:
    return unzipped(DUMP, tmp_path)


_READ_THROUGH_THE_ORM = """
import json
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from careers import models as careers
from careers.selectors import pilot_career
from roster.models import Pilot

counts = {name: getattr(careers, name).objects.count() for name in %(names)r}
event = careers.PilotEvent.objects.select_related("pilot", "campaign", "applied_result").order_by("id").first()
ace = Pilot.objects.order_by("-air_kills", "id").first()
print(json.dumps({
    "counts": counts,
    "event": [event.pilot.name, event.campaign.name if event.campaign else None],
    "claims_of_battles": sum(b.claims.count() for b in careers.TableBattle.objects.all()),
    "career_events": len(pilot_career(pilot_id=ace.pk)["events"]),
    "careers_types": sorted(ContentType.objects.filter(app_label="careers").values_list("model", flat=True)),
    "roster_types": sorted(ContentType.objects.filter(app_label="roster").values_list("model", flat=True)),
    "careers_permissions": Permission.objects.filter(content_type__app_label="careers").exclude(content_type__model__startswith="historical").exclude(content_type__model__endswith="tally").count(),
    "log_entries": LogEntry.objects.count(),
}))
"""


def test_old_database_migrates_to_the_careers_layout_keeping_every_row(old_database: Path):
    with sqlite3.connect(old_database) as conn:
        old_columns = {table: columns_of(conn, table) for table in MANIFEST}
        assert _mismatches(conn, old_columns, {}) == []  # the fixture is what the manifest says
        moved_types = dict(
            conn.execute(
                "select model, id from django_content_type where app_label='roster' and model in "
                f"({', '.join('?' * len(MOVED))})",
                [name.removeprefix("roster_") for name in MOVED],
            ).fetchall()
        )
        permissions = conn.execute(
            "select count(*) from auth_permission where content_type_id in "
            f"({', '.join('?' * len(moved_types))})",
            list(moved_types.values()),
        ).fetchone()[0]
    conn.close()
    intended = _intended(old_database, old_columns)

    manage(old_database, "migrate", "--noinput")

    renamed = {old: new for old, (new, _model) in MOVED.items()}
    with sqlite3.connect(old_database) as conn:
        assert _mismatches(conn, old_columns, renamed, intended) == []
        tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
        assert not tables & set(MOVED), "the old career tables are renamed, not copied"
        # The moved models' content types keep their ids (so admin history and
        # permissions follow) under the careers app label.
        after = dict(
            conn.execute(
                "select model, id from django_content_type where app_label='careers'"
            ).fetchall()
        )
        assert {m: after.get(m) for m in moved_types} == moved_types
        assert conn.execute("pragma foreign_key_check").fetchall() == []
    conn.close()

    names = [model for _new, model in MOVED.values()]
    out = manage(old_database, "shell", "-c", _READ_THROUGH_THE_ORM % {"names": names})
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["counts"] == {model: MANIFEST[old]["rows"] for old, (_new, model) in MOVED.items()}
    assert seen["claims_of_battles"] == MANIFEST["roster_claim"]["rows"]
    assert seen["event"][0] and seen["career_events"] > 0
    # the moved models, and (issue 16) the history kept of the career settings and awards
    moved = {name.removeprefix("roster_") for name in MOVED}
    history = {"historicalcareersettings", "historicalawarddefinition"}
    tallies = {"campaigntally", "pilottally"}  # (issue 17) counts kept for the pages, added later
    assert set(seen["careers_types"]) == moved | history | tallies
    assert not set(seen["roster_types"]) & set(seen["careers_types"])
    assert seen["careers_permissions"] == permissions


def test_the_row_check_notices_a_lost_row(old_database: Path):
    with sqlite3.connect(old_database) as conn:
        old_columns = {table: columns_of(conn, table) for table in MANIFEST}
        conn.execute("delete from roster_claim where id = (select max(id) from roster_claim)")
        assert _mismatches(conn, old_columns, {}) == [
            "roster_claim as roster_claim: 13 rows (was 14), hash differs"
        ]
    conn.close()

"""Names an import must find free on this server (issue 24 §5): a campaign, its squadrons
and its airframes' serials are unique here. A *restore* keeps the file's names and is
refused naming each clash; a *copy* gives each clashing name a suffix, " (copy)", then
" (copy 2)", ... -- the first one free here and among the file's own names."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.apps import apps

COPY = "copy"
RESTORE = "restore"
MODES = (COPY, RESTORE)

# (table, column, what to call it): every column that must be unique on this server.
UNIQUE_NAMES = (
    ("campaign.campaign", "name", "a campaign named"),
    ("roster.squadron", "name", "a squadron named"),
    ("roster.airframe", "serial", "an airframe with serial"),
)


@dataclass(frozen=True)
class Rename:
    table: str
    ref: int
    what: str
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.what} {self.old!r} becomes {self.new!r}"


def _rows(document: dict[str, Any], table: str) -> list[dict[str, Any]]:
    rows = document.get("tables", {}).get(table, [])
    return [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []


def clashes(document: dict[str, Any]) -> list[str]:
    """Each name of the file already taken here, in words ("a squadron named 'No. 1'")."""
    taken = []
    for table, column, what in UNIQUE_NAMES:
        model = apps.get_model(table)
        wanted = [row[column] for row in _rows(document, table) if isinstance(row.get(column), str)]
        for name in model._default_manager.filter(**{f"{column}__in": wanted}).values_list(
            column, flat=True
        ):
            taken.append(f"{what} {name!r}")
    return sorted(taken)


def _suffixed(name: str, n: int, limit: int) -> str:
    suffix = " (copy)" if n == 1 else f" (copy {n})"
    return name[: max(limit - len(suffix), 1)].rstrip() + suffix


def renames(document: dict[str, Any]) -> list[Rename]:
    """What a copy renames: each name already taken here gets the first free suffix."""
    out = []
    for table, column, what in UNIQUE_NAMES:
        model = apps.get_model(table)
        limit = model._meta.get_field(column).max_length or 120
        rows = [r for r in _rows(document, table) if isinstance(r.get(column), str)]
        names = {r[column] for r in rows}
        manager = model._default_manager
        taken = set(manager.filter(**{f"{column}__in": list(names)}).values_list(column, flat=True))
        used = set(names)
        for row in rows:
            old = row[column]
            if old not in taken:
                continue
            n = 1
            new = _suffixed(old, n, limit)
            while new in used or manager.filter(**{column: new}).exists():
                n += 1
                new = _suffixed(old, n, limit)
            used.add(new)
            out.append(Rename(table, row.get("ref", 0), what, old, new))
    return out


def renamed(document: dict[str, Any], changes: list[Rename]) -> dict[str, Any]:
    """A copy of ``document`` with ``changes`` made to its rows (its history keeps the
    names it had). Its checksum no longer matches: check the file before renaming."""
    if not changes:
        return document
    out = {**document, "tables": copy.deepcopy(document["tables"])}
    columns = {table: column for table, column, _ in UNIQUE_NAMES}
    by_row = {(c.table, c.ref): c.new for c in changes}
    for table, column in columns.items():
        for row in _rows(out, table):
            new = by_row.get((table, row.get("ref", 0)))
            if new is not None:
                row[column] = new
    return out

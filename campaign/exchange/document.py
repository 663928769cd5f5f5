"""The shape of a campaign export (issue 16, "Export and import"), shared by both directions.

A document is one JSON object::

    {"format": 1, "kind": "angels.campaign", "checksum": "<sha256>",
     "users": [{"username", "first_name", "last_name"}],
     "tables": {"roster.aircrafttype": [{"ref": 1, <field>: <value>, ...}], ...},
     "history": {"roster.pilot": [{<historical row>}], ...}}

Every row of ``tables`` has a file-local ``ref`` (1, 2, ... in the order of the
source database's ids), and every key to another row names that row's ``ref``
(users by username), never a database id, so export -> import -> export gives
the same bytes. The fields are the models' own, read off ``_meta``: a column a
later migration adds is exported and imported without a change here.

Ids the product keeps inside JSON columns and keys (``pilot_id`` in a result's
record, ``victim_pilot_id`` in a career entry, ``campaign:<id>:...`` source keys,
``battle:<id>`` references) are rewritten the same way by :func:`rewrite_json`
and :func:`rewrite_text`. An id that names a row outside the export becomes
``null`` (an integer) or ``0`` (inside a text key); free text (an explanation
naming "19, 20 fired together") is kept as written. Readings: docs/rulings.md,
"Export and import".
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

FORMAT = 1
KIND = "angels.campaign"

# The tables of a document, in the order an import writes them (keys point backwards,
# except a table battle's applied result, which is written once both exist).
TABLES = (
    "roster.aircrafttype",
    "roster.squadron",
    "campaign.campaign",
    "roster.pilot",
    "roster.airframe",
    "campaign.campaignmember",
    "campaign.campaignaction",
    "campaign.campaignplane",
    "careers.careersettings",
    "careers.awarddefinition",
    "battles.battle",
    "careers.tablebattle",
    "careers.appliedresult",
    "careers.claim",
    "careers.pilotevent",
    "careers.pilotaward",
)
# Tables whose history (django-simple-history) travels with them.
HISTORY_TABLES = (
    "roster.aircrafttype",
    "roster.squadron",
    "campaign.campaign",
    "roster.pilot",
    "roster.airframe",
    "careers.careersettings",
    "careers.awarddefinition",
)
# Keys to rows that are never exported: the import leaves them empty.
NOT_EXPORTED = ("battles.battlebatch",)

PILOT = "roster.pilot"
AIRFRAME = "roster.airframe"
CAMPAIGN = "campaign.campaign"
BATTLE = "battles.battle"
TABLE_BATTLE = "careers.tablebattle"
CLAIM = "careers.claim"

# A mapper: (table, id or ref) -> the other side's id or ref, None when not in the export.
Mapper = Callable[[str, int], int | None]

_ID_KEYS = {
    "pilot_id": PILOT,
    "victim_pilot_id": PILOT,
    "shooter_pilot_id": PILOT,
    "target_pilot_id": PILOT,
    "enrolled_in_id": CAMPAIGN,
    "airframe_id": AIRFRAME,
}
_TEXT_KEYS = (
    (re.compile(r"^(campaign|card|carry|replacements):(\d+)(?=:|$)"), CAMPAIGN),
    (re.compile(r"^(battle):(\d+)$"), BATTLE),
    (re.compile(r"^(table):(\d+)$"), TABLE_BATTLE),
)
# (table, column) holding text keys with ids (source keys, battle references).
TEXT_COLUMNS = {
    ("battles.battle", "source_key"),
    ("careers.appliedresult", "source_key"),
    ("careers.appliedresult", "battle_ref"),
    ("careers.pilotevent", "battle_ref"),
}


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _one(table: str, value: Any, m: Mapper) -> Any:
    return m(table, value) if _is_id(value) else value


def rewrite_text(value: str, m: Mapper) -> str:
    """``campaign:12:turn4:m08`` -> ``campaign:1:turn4:m08`` (and back): the id in a text key."""
    if not isinstance(value, str):
        return value
    for pattern, table in _TEXT_KEYS:
        match = pattern.match(value)
        if match:
            mapped = m(table, int(match.group(2)))
            return f"{match.group(1)}:{mapped or 0}{value[match.end() :]}"
    return value


def _walk(value: Any, m: Mapper) -> Any:
    """Ids under the product's id-naming keys, anywhere in a JSON value."""
    if isinstance(value, list):
        return [_walk(item, m) for item in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key in _ID_KEYS and _is_id(item):
            out[key] = m(_ID_KEYS[key], item)
        elif key == "battle_ref":
            out[key] = rewrite_text(item, m)
        elif key == "attacks" and isinstance(item, list):
            # a table kill's attacks: [[shooter pilot id, turn], ...] (careers.services.claims)
            out[key] = [
                [_one(PILOT, a[0], m), *a[1:]] if isinstance(a, list) and a else a for a in item
            ]
        elif key == "contenders" and isinstance(item, list):
            out[key] = [_one(PILOT, p, m) for p in item]  # a kill credit's pilot ids
        else:
            out[key] = _walk(item, m)
    return out


def _pilot_key(key: str, m: Mapper) -> str:
    if key.isdigit():
        mapped = m(PILOT, int(key))
        return str(mapped) if mapped is not None else f"x{key}"
    return key


def _summary(value: Any, m: Mapper) -> Any:
    """A result's summary: {pilot id: {...}} or, for replacements, {squadron: [pilot ids]}."""
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, list):
            item = [_one(PILOT, p, m) for p in item]
        out[_pilot_key(key, m)] = _walk(item, m)
    return out


def _undo(value: Any, m: Mapper) -> Any:
    """A result's undo record: {"pilots": {pilot id: before/after}, "airframes": [[id, pilot, state]]}."""
    if not isinstance(value, dict):
        return value
    out = dict(value)
    if isinstance(value.get("pilots"), dict):
        out["pilots"] = {_pilot_key(k, m): _walk(v, m) for k, v in value["pilots"].items()}
    if isinstance(value.get("airframes"), list):
        out["airframes"] = [
            [_one(AIRFRAME, row[0], m), _one(PILOT, row[1], m), *row[2:]]
            if isinstance(row, list) and len(row) >= 2
            else row
            for row in value["airframes"]
        ]
    return {k: (v if k in ("pilots", "airframes") else _walk(v, m)) for k, v in out.items()}


def rewrite_json(table: str, column: str, value: Any, m: Mapper) -> Any:
    """A JSON column's value with the ids it holds mapped by ``m``."""
    if table == "careers.appliedresult" and column == "summary":
        return _summary(value, m)
    if table == "careers.appliedresult" and column == "undo":
        return _undo(value, m)
    if table == "battles.battle" and column == "settings" and isinstance(value, dict):
        value = {k: (_one(CAMPAIGN, v, m) if k == "campaign" else v) for k, v in value.items()}
    if table == "careers.pilotevent" and column == "details" and isinstance(value, dict):
        value = {k: (_one(CLAIM, v, m) if k == "claim" else v) for k, v in value.items()}
    return _walk(value, m)


def map_seat_users(table: str, column: str, value: Any, to: Callable[[Any], Any]) -> Any:
    """A battle's ``settings.seats.<side>.user`` mapped by ``to``: a user id to a username on
    export, a username back to this server's user id on import (users travel by name)."""
    if table != BATTLE or column != "settings" or not isinstance(value, dict):
        return value
    seats = value.get("seats")
    if not isinstance(seats, dict):
        return value
    mapped = {
        side: (
            {**seat, "user": to(seat["user"])}
            if isinstance(seat, dict) and "user" in seat
            else seat
        )
        for side, seat in seats.items()
    }
    return {**value, "seats": mapped}


def checksum(document: dict[str, Any]) -> str:
    """SHA-256 of the document without its checksum, in a canonical form."""
    body = {k: v for k, v in document.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def seal(document: dict[str, Any]) -> dict[str, Any]:
    """The document with its checksum (re)computed, ``checksum`` third after format and kind."""
    body = {k: v for k, v in document.items() if k not in ("format", "kind", "checksum")}
    head = {"format": document.get("format"), "kind": document.get("kind")}
    return {**head, "checksum": checksum({**head, **body}), **body}


def dumps(document: dict[str, Any]) -> str:
    """The file's text: stable key order, one value per line, UTF-8 names as written."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"

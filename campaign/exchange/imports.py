"""Loading a campaign document into this database (issue 16, "Export and import").

All or nothing: one transaction, and any problem (a newer format, a damaged or
inconsistent file, a name already taken here) raises :class:`ImportRefused`
naming what is wrong, with nothing stored. Every row gets a new id; the file's
refs are only used to join its rows. Aircraft types already here with the same
name are used as they are (the file's values differing are listed in the
report); users are found by username, and created, inactive and without a
password, where missing. Readings: docs/rulings.md, "Export and import".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, models, transaction
from django.db.models import Case, Value, When
from django.utils.dateparse import parse_datetime

from angels.errors import RuleViolation
from careers.tallies import campaign_tallies_rebuild, pilot_tallies_rebuild

from ..models import Campaign
from .document import (
    FORMAT,
    HISTORY_TABLES,
    KIND,
    NOT_EXPORTED,
    TABLES,
    TEXT_COLUMNS,
    checksum,
    map_seat_users,
    rewrite_json,
    rewrite_text,
)
from .exports import USER_FIELDS, label, row_fields, user_model_label

# Natural keys that must be free on this server: (table, column, what to call it).
UNIQUE_NAMES = (
    ("campaign.campaign", "name", "a campaign named"),
    ("roster.squadron", "name", "a squadron named"),
    ("roster.airframe", "serial", "an airframe with serial"),
)


class ImportRefused(RuleViolation):
    """The file cannot be loaded; nothing was stored."""


@dataclass
class ImportReport:
    campaign: Campaign
    rows: dict[str, int] = field(default_factory=dict)
    users_created: list[str] = field(default_factory=list)
    types_reused: list[str] = field(default_factory=list)
    type_differences: list[str] = field(default_factory=list)


@dataclass
class _Ids:
    """File ref -> new database id, per table; which refs the file holds at all."""

    ids: dict[str, dict[int, int]] = field(default_factory=dict)
    declared: dict[str, set[int]] = field(default_factory=dict)
    users: dict[str, int] = field(default_factory=dict)

    def __call__(self, table: str, ref: int) -> int | None:
        return self.ids.get(table, {}).get(ref)


def _is_ref(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse(message: str, where: str, code: str = "format") -> ImportRefused:
    return ImportRefused(message, field=where, code=code)


def _check_head(document: Any) -> None:
    if not isinstance(document, dict):
        raise _refuse("the file is not a campaign export (not a JSON object)", "document")
    fmt = document.get("format")
    if document.get("kind") != KIND:
        raise _refuse(f"the file is not a campaign export (kind must be {KIND!r})", "kind")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1:
        raise _refuse("the file has no format number", "format")
    if fmt > FORMAT:
        raise _refuse(
            f"the file is format {fmt}, newer than this server reads (up to {FORMAT}): "
            "import it into a server with a newer Angels",
            "format",
            "version",
        )
    if document.get("checksum") != checksum(document):
        raise _refuse(
            "the file is damaged: its checksum does not match its content "
            "(changed or cut short after it was exported)",
            "checksum",
        )
    for key, kind in (("users", list), ("tables", dict), ("history", dict)):
        if not isinstance(document.get(key), kind):
            raise _refuse(f"{key} must be a JSON {kind.__name__}", key)
    unknown = set(document["tables"]) - set(TABLES)
    if unknown:
        raise _refuse(f"unknown tables {sorted(unknown)}", "tables")


def _declare(document: dict[str, Any], ids: _Ids) -> None:
    """Every table's refs: whole numbers from 1, each once."""
    for table in TABLES:
        rows = document["tables"].get(table, [])
        if not isinstance(rows, list):
            raise _refuse("must be a list of rows", f"tables.{table}")
        seen: set[int] = set()
        for i, row in enumerate(rows):
            ref = row.get("ref") if isinstance(row, dict) else None
            if not isinstance(ref, int) or isinstance(ref, bool) or ref < 1 or ref in seen:
                raise _refuse("each row needs its own ref (1, 2, ...)", f"tables.{table}[{i}].ref")
            seen.add(ref)
        ids.declared[table] = seen
    if len(ids.declared["campaign.campaign"]) != 1:
        raise _refuse("the file must hold exactly one campaign", "tables.campaign.campaign")


def _users(document: dict[str, Any], ids: _Ids, report: ImportReport) -> None:
    User = get_user_model()
    for i, person in enumerate(document["users"]):
        name = person.get("username") if isinstance(person, dict) else None
        if not isinstance(name, str) or not name:
            raise _refuse("a user needs a username", f"users[{i}].username")
        user = User.objects.filter(**{User.USERNAME_FIELD: name}).first()
        if user is None:
            extra = {k: str(person.get(k) or "") for k in USER_FIELDS if k != "username"}
            user = User(**{User.USERNAME_FIELD: name}, is_active=False, **extra)
            user.set_unusable_password()
            user.save()
            report.users_created.append(name)
        ids.users[name] = user.pk


@dataclass
class _Deferred:
    model: type[models.Model]
    pk_of: Any  # the new object (its pk once written)
    attname: str
    table: str
    ref: int


def _key(
    f: Any, value: Any, where: str, ids: _Ids, table_order: int, deferred: list, obj: Any
) -> Any:
    if value is None:
        if not f.null:
            raise _refuse("may not be empty", where)
        return None
    target = label(f.related_model)
    if target == user_model_label():
        if not isinstance(value, str) or value not in ids.users:
            raise _refuse(f"names user {value!r}, who is not in the file's users", where)
        return ids.users[value]
    if target in NOT_EXPORTED or target not in TABLES:
        raise _refuse(f"a key to {target} is never exported; it must be null", where)
    if not _is_ref(value) or value not in ids.declared[target]:
        raise _refuse(f"names {target} ref {value!r}, which is not in the file", where)
    if TABLES.index(target) >= table_order:  # written later: set once it exists
        deferred.append(_Deferred(type(obj), obj, f.attname, target, value))
        return None
    return ids(target, value)


def _seat_user(ids: _Ids, where: str) -> Any:
    def user_id(name: Any) -> int:
        if not isinstance(name, str) or name not in ids.users:
            raise _refuse(f"a seat names user {name!r}, who is not in the file's users", where)
        return ids.users[name]

    return user_id


def _decode(
    table: str,
    model: type[models.Model],
    row: dict[str, Any],
    where: str,
    ids: _Ids,
    deferred: list,
    *,
    order: int | None = None,
) -> models.Model:
    columns = row_fields(model)
    names = {f.name for f in columns} | {f.name for f in model._meta.many_to_many} | {"ref"}
    unknown = set(row) - names
    if unknown:
        raise _refuse(f"unknown fields {sorted(unknown)}", where)
    obj = model()
    if order is None:
        order = TABLES.index(table)
    for f in columns:
        at = f"{where}.{f.name}"
        if f.name not in row:
            if f.has_default() or f.null or getattr(f, "auto_now_add", False):
                continue
            raise _refuse("missing", at)
        value = row[f.name]
        if f.is_relation:
            value = _key(f, value, at, ids, order, deferred, obj)
        elif isinstance(f, models.JSONField):
            value = map_seat_users(
                table, f.name, rewrite_json(table, f.name, value, ids), _seat_user(ids, at)
            )
        elif (table, f.name) in TEXT_COLUMNS:
            value = rewrite_text(value, ids)
        elif isinstance(f, models.DateTimeField) and value is not None:
            try:
                parsed = parse_datetime(value) if isinstance(value, str) else None
            except ValueError:
                parsed = None
            if parsed is None:
                raise _refuse(f"{value!r} is not a date and time", at)
            value = parsed
        setattr(obj, f.attname, value)
    try:
        obj.full_clean(
            exclude=[f.name for f in columns if f.is_relation],
            validate_unique=False,
            validate_constraints=False,
        )
    except ValidationError as error:
        # An empty value the product itself stores (a replacements result's record) is kept.
        problems = "; ".join(
            f"{name}: {' '.join(m for e in errors if e.code != 'blank' for m in e.messages)}"
            for name, errors in error.error_dict.items()
            if any(e.code != "blank" for e in errors)
        )
        if problems:
            raise _refuse(problems, where) from error
    return obj


def _stamp(model: type[models.Model], objs: list[models.Model], stamps: list[dict]) -> None:
    """Put back the file's auto_now(_add) times, which bulk_create overwrote."""
    columns = [
        f.attname
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    for name in columns:
        for start in range(0, len(objs), 500):
            chunk = [(o.pk, s[name]) for o, s in zip(objs, stamps, strict=True)][
                start : start + 500
            ]
            chunk = [(pk, v) for pk, v in chunk if v is not None]
            if chunk:
                model._default_manager.filter(pk__in=[pk for pk, _ in chunk]).update(
                    **{name: Case(*(When(pk=pk, then=Value(v)) for pk, v in chunk))}
                )


def _check_names(document: dict[str, Any]) -> None:
    taken = []
    for table, column, what in UNIQUE_NAMES:
        model = apps.get_model(table)
        wanted = [
            row.get(column)
            for row in document["tables"].get(table, [])
            if isinstance(row.get(column), str)
        ]
        for name in model._default_manager.filter(**{f"{column}__in": wanted}).values_list(
            column, flat=True
        ):
            taken.append(f"{what} {name!r}")
    if taken:
        raise ImportRefused(
            f"already on this server: {', '.join(sorted(taken))}; rename or remove them first "
            "(nothing was loaded)",
            field="tables",
            code="exists",
        )


def _types(rows: list[dict], ids: _Ids, report: ImportReport, deferred: list) -> list[tuple]:
    """Aircraft types here by name are used as they are; the others are written."""
    from roster.models import AircraftType

    fresh = []
    for i, row in enumerate(rows):
        where = f"tables.roster.aircrafttype[{i}]"
        obj = _decode("roster.aircrafttype", AircraftType, row, where, ids, deferred)
        existing = AircraftType.objects.filter(name=getattr(obj, "name")).first()  # noqa: B009
        if existing is None:
            fresh.append((row, obj))
            continue
        ids.ids.setdefault("roster.aircrafttype", {})[row["ref"]] = existing.pk
        report.types_reused.append(existing.name)
        differ = [
            f.name
            for f in row_fields(AircraftType)
            if getattr(existing, f.attname) != getattr(obj, f.attname)
        ]
        if differ:
            report.type_differences.append(f"{existing.name}: {', '.join(differ)}")
    return fresh


def _write(table: str, pairs: list[tuple], ids: _Ids) -> None:
    if not pairs:
        return
    model = type(pairs[0][1])
    objs = model._default_manager.bulk_create([obj for _, obj in pairs])
    for (row, _), obj in zip(pairs, objs, strict=True):
        ids.ids.setdefault(table, {})[row["ref"]] = obj.pk
    _stamp(model, objs, [_file_stamps(model, row) for row, _ in pairs])


def _file_stamps(model: type[models.Model], row: dict[str, Any]) -> dict[str, Any]:
    return {
        f.attname: parse_datetime(row[f.name]) if isinstance(row.get(f.name), str) else None
        for f in model._meta.concrete_fields
        if isinstance(f, models.DateTimeField)
    }  # (each was parsed once already by _decode)


def _many(table: str, rows: list[dict], ids: _Ids) -> None:
    model = apps.get_model(table)
    for f in model._meta.many_to_many:
        through: Any = f.remote_field.through
        target = label(f.related_model)
        links = []
        for i, row in enumerate(rows):
            refs = row.get(f.name, [])
            if not isinstance(refs, list) or not all(
                _is_ref(r) and r in ids.declared[target] for r in refs
            ):
                raise _refuse(
                    f"must list {target} refs that are in the file", f"tables.{table}[{i}].{f.name}"
                )
            for ref in refs:
                links.append(
                    through(
                        **{
                            f.m2m_field_name() + "_id": ids(table, row["ref"]),
                            f.m2m_reverse_field_name() + "_id": ids(target, ref),
                        }
                    )
                )
        through.objects.bulk_create(links)


def _history(document: dict[str, Any], ids: _Ids, report: ImportReport) -> None:
    reused = set(report.types_reused)
    for table, rows in document["history"].items():
        if table not in HISTORY_TABLES or not isinstance(rows, list):
            raise _refuse("unknown history table, or not a list", f"history.{table}")
        model = apps.get_model(table)
        history: Any = getattr(model, "history").model  # noqa: B009 (added by simple_history)
        pairs = []
        for i, row in enumerate(rows):
            where = f"history.{table}[{i}]"
            if not isinstance(row, dict) or not _is_ref(row.get("id")):
                raise _refuse("a history row needs the ref of its object", where)
            if row["id"] not in ids.declared[table]:
                raise _refuse(f"names {table} ref {row['id']!r}, not in the file", where)
            if table == "roster.aircrafttype" and row.get("name") in reused:
                continue  # a type of this server: its own history stays
            data = {**row, "id": ids(table, row["id"]), "ref": 0}
            obj = _decode(table, history, data, where, ids, [], order=len(TABLES))
            pairs.append(({"ref": i + 1}, obj))
        _write(f"history:{table}", pairs, _Ids())


def campaign_import(document: Any) -> ImportReport:
    """Load an exported campaign; returns what was written, or raises :class:`ImportRefused`."""
    _check_head(document)
    ids = _Ids()
    _declare(document, ids)
    try:
        with transaction.atomic():
            _check_names(document)
            report = ImportReport(campaign=Campaign())
            _users(document, ids, report)
            deferred: list[_Deferred] = []
            tables = document["tables"]
            for table in TABLES:
                rows = tables.get(table, [])
                if table == "roster.aircrafttype":
                    pairs = _types(rows, ids, report, deferred)
                else:
                    model = apps.get_model(table)
                    pairs = [
                        (row, _decode(table, model, row, f"tables.{table}[{i}]", ids, deferred))
                        for i, row in enumerate(rows)
                    ]
                _write(table, pairs, ids)
                _many(table, rows, ids)
                report.rows[table] = len(rows)
            for d in deferred:
                d.model._default_manager.filter(pk=d.pk_of.pk).update(
                    **{d.attname: ids(d.table, d.ref)}
                )
            _history(document, ids, report)
            (ref,) = ids.declared["campaign.campaign"]
            report.campaign = Campaign.objects.get(pk=ids.ids["campaign.campaign"][ref])
            # rows were bulk-written (no signals): count the statistics' tallies (issue 17)
            campaign_tallies_rebuild(report.campaign)
            pilot_tallies_rebuild(ids.ids.get("roster.pilot", {}).values())
    except (IntegrityError, DatabaseError) as error:
        raise ImportRefused(
            f"the file breaks a rule of this database, nothing was loaded: {error}",
            field="tables",
            code="conflict",
        ) from error
    return report


def report_lines(report: ImportReport) -> list[str]:
    """What an import did, in sentences (the command prints them, the API returns them)."""
    rows = sum(report.rows.values())
    lines = [f"Imported campaign {report.campaign.name!r} as #{report.campaign.pk}: {rows} rows."]
    if report.users_created:
        lines.append(
            "Users created, inactive and without a password (activate them in the admin): "
            + ", ".join(report.users_created)
        )
    if report.types_reused:
        lines.append(f"Aircraft types already here, used as they are: {len(report.types_reused)}.")
    for line in report.type_differences:
        lines.append(f"Aircraft type kept as this server has it, the file differs in {line}")
    return lines

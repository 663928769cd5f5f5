"""Loading a campaign document into this database (issue 16, "Export and import").

All or nothing: one transaction, and any problem (a newer format, a damaged or
inconsistent file, a name already taken here, a value the product would not
have written) raises :class:`ImportRefused` naming the path of what is wrong,
with nothing stored. Every row gets a new id; the file's refs are only used to
join its rows.

An import creates only what its importer will own (issue 23): the campaign (the
importer its organiser, its only member), its squadrons, pilots and airframes
as new rows, its battles and career entries. Aircraft types are this server's
catalog's, matched by name; a type the catalog lacks is refused unless the
importer may add to the catalog (``catalog=True``: staff). Nobody else is
created, matched, seated or enrolled: the file's members and the people its
rows name are listed in the report as text, to invite; its history keeps who
did what and when as text. Battles still to be flown get a fresh secret seed; a
battle still being flown by people is refused. The card game's state must be the
replay of its set-up, seed and actions (:mod:`.vetting`). Readings:
docs/rulings.md, "Export and import".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, models, transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from angels.errors import RuleViolation
from angels.history import REASON_MAX
from careers.tallies import campaign_tallies_rebuild, pilot_tallies_rebuild

from ..models import Campaign, CampaignMember, PersonToInvite, Role
from .document import (
    BATTLE,
    CAMPAIGN,
    FORMAT,
    HISTORY_TABLES,
    KIND,
    NOT_EXPORTED,
    TABLES,
    TEXT_COLUMNS,
    checksum,
    rewrite_json,
    rewrite_text,
)
from .exports import label, row_fields, user_model_label
from .naming import COPY, MODES, RESTORE, Rename, clashes, renamed, renames
from .vetting import (
    battle_vet,
    campaign_check,
    history_reason,
    member_words,
    numbers_check,
    usernames_check,
)

MEMBER = "campaign.campaignmember"


class ImportRefused(RuleViolation):
    """The file cannot be loaded; nothing was stored."""


@dataclass
class ImportReport:
    """What an import wrote (or, in a preview, would write); ``rows`` counts the file's
    rows by table, its aircraft types included (:meth:`created` counts only new rows)."""

    campaign: Campaign
    rows: dict[str, int] = field(default_factory=dict)
    people: list[str] = field(default_factory=list)  # the file's members, to invite
    invite: list[PersonToInvite] = field(default_factory=list)  # the same, as rows
    renamed: list[Rename] = field(default_factory=list)  # a copy's new names
    preview: bool = False  # nothing was stored

    def created(self) -> dict[str, int]:
        """New rows by table: the file's, less the aircraft types this server had."""
        out = {**self.rows, "roster.aircrafttype": len(self.types_created)}
        return {table: n for table, n in out.items() if n}

    types_created: list[str] = field(default_factory=list)
    types_reused: list[str] = field(default_factory=list)
    type_differences: list[str] = field(default_factory=list)


@dataclass
class _Ids:
    """File ref -> new database id, per table; which refs the file holds at all; the
    file's usernames (text only) and the importer's id."""

    ids: dict[str, dict[int, int]] = field(default_factory=dict)
    declared: dict[str, set[int]] = field(default_factory=dict)
    people: set[str] = field(default_factory=set)
    organiser: int | None = None

    def __call__(self, table: str, ref: int) -> int | None:
        return self.ids.get(table, {}).get(ref)


class _Dangling(Exception):
    """An id inside a JSON value names a row the file does not hold."""


def _strict(ids: _Ids) -> Any:
    """``ids`` for the ids inside JSON and text keys: ``0`` is the exporter's "outside the
    file"; any other number must be a ref the file declares."""

    def mapped(table: str, ref: int) -> int | None:
        if ref == 0:
            return None
        if ref not in ids.declared.get(table, set()):
            raise _Dangling(f"names {table} ref {ref!r}, which is not in the file")
        return ids(table, ref)

    return mapped


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


def _people(document: dict[str, Any], ids: _Ids) -> None:
    """The file's usernames, checked as this server checks a username, kept as text."""
    User = get_user_model()
    name_field: Any = User._meta.get_field(User.USERNAME_FIELD)
    validator = getattr(User, "username_validator", None) or (lambda name: None)
    limit = getattr(name_field, "max_length", None) or 150
    ids.people = set(usernames_check(document["users"], validator, limit))


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
        # a person of the file is text here: the campaign's maker is its importer, every
        # other key to a user (who acted, who asked for a battle) names nobody
        if not isinstance(value, str) or value not in ids.people:
            raise _refuse(f"names user {value!r}, who is not in the file's users", where)
        if f.name == "created_by":
            return ids.organiser
        if not f.null:
            raise _refuse("names a user of another server", where)
        return None
    if target in NOT_EXPORTED or target not in TABLES:
        raise _refuse(f"a key to {target} is never exported; it must be null", where)
    if not _is_ref(value) or value not in ids.declared[target]:
        raise _refuse(f"names {target} ref {value!r}, which is not in the file", where)
    if TABLES.index(target) >= table_order:  # written later: set once it exists
        deferred.append(_Deferred(type(obj), obj, f.attname, target, value))
        return None
    return ids(target, value)


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
            numbers_check(value, at)
            try:
                value = rewrite_json(table, f.name, value, _strict(ids))
            except _Dangling as error:
                raise _refuse(str(error), at) from error
        elif (table, f.name) in TEXT_COLUMNS:
            try:
                value = rewrite_text(value, _strict(ids))
            except _Dangling as error:
                raise _refuse(str(error), at) from error
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
    taken = clashes(document)
    if taken:
        raise ImportRefused(
            f"already on this server: {', '.join(taken)}; rename or remove them first, or "
            "import it as a copy (nothing was loaded)",
            field="tables",
            code="exists",
        )


def _types(
    rows: list[dict], ids: _Ids, report: ImportReport, deferred: list, *, catalog: bool
) -> list[tuple]:
    """Aircraft types here by name are used as they are. The catalog is every campaign's
    (its plane decks are drawn from it), so a type it lacks is refused, unless the
    importer may add to the catalog (``catalog``: staff, asked for explicitly)."""
    from roster.models import AircraftType

    fresh = []
    for i, row in enumerate(rows):
        where = f"tables.roster.aircrafttype[{i}]"
        obj = _decode("roster.aircrafttype", AircraftType, row, where, ids, deferred)
        existing = AircraftType.objects.filter(name=getattr(obj, "name")).first()  # noqa: B009
        if existing is None:
            if not catalog:
                raise _refuse(
                    f"aircraft type {obj.name!r} is not in this server's catalog; only staff "  # type: ignore[attr-defined]
                    "may add it (import with the catalog option), or rename it to a type "
                    "the catalog has",
                    f"{where}.name",
                    "exists",
                )
            fresh.append((row, obj))
            report.types_created.append(obj.name)  # type: ignore[attr-defined]
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


def _history(document: dict[str, Any], ids: _Ids, report: ImportReport, importer: str) -> None:
    """The file's history, each row recorded now, by nobody of this server: who did what
    and when, as the file says, is its reason's text."""
    reused = set(report.types_reused)
    now = timezone.now()
    today = now.date().isoformat()
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
            obj: Any = _decode(table, history, data, where, ids, [], order=len(TABLES))
            obj.history_user_id = None
            obj.history_date = now
            obj.history_change_reason = history_reason(row, importer, today, REASON_MAX)
            pairs.append(({"ref": i + 1}, obj))
        _write(f"history:{table}", pairs, _Ids())


def campaign_import(
    document: Any,
    *,
    by: Any,
    catalog: bool = False,
    mode: str = RESTORE,
    preview: bool = False,
) -> ImportReport:
    """Load an exported campaign for ``by``, its organiser from now on; returns what was
    written, or raises :class:`ImportRefused`. ``catalog``: aircraft types the catalog
    lacks are added to it (staff only: the catalog is every campaign's). ``mode``:
    ``restore`` keeps the file's names (a name taken here is refused), ``copy`` renames
    each taken one (:mod:`.naming`). ``preview``: everything is loaded and checked as it
    would be, the report made, then all of it rolled back: nothing is stored."""
    if mode not in MODES:
        raise _refuse(f"must be one of {list(MODES)}", "mode", "invalid")
    _check_head(document)
    ids = _Ids(organiser=by.pk)
    _declare(document, ids)
    _people(document, ids)
    try:
        with transaction.atomic():
            changes: list[Rename] = []
            if mode == COPY:
                changes = renames(document)
                document = renamed(document, changes)  # its checksum was checked above
            _check_names(document)
            report = ImportReport(campaign=Campaign(), renamed=changes, preview=preview)
            deferred: list[_Deferred] = []
            tables = document["tables"]
            for table in TABLES:
                rows = tables.get(table, [])
                if table == "roster.aircrafttype":
                    pairs = _types(rows, ids, report, deferred, catalog=catalog)
                elif table == MEMBER:
                    report.people, report.invite = _members(rows, ids, by.get_username())
                    pairs = []
                else:
                    model = apps.get_model(table)
                    pairs = [
                        (row, _decode(table, model, row, where, ids, deferred))
                        for row, where in _rows(table, rows, ids)
                    ]
                _write(table, pairs, ids)
                _many(table, rows, ids)
                report.rows[table] = len(pairs) if table == MEMBER else len(rows)
            for d in deferred:
                d.model._default_manager.filter(pk=d.pk_of.pk).update(
                    **{d.attname: ids(d.table, d.ref)}
                )
            _history(document, ids, report, by.get_username())
            (ref,) = ids.declared["campaign.campaign"]
            campaign_check(
                tables[CAMPAIGN][0], tables.get("campaign.campaignaction", []),
                "tables.campaign.campaign[0]",
            )  # fmt: skip
            report.campaign = Campaign.objects.get(pk=ids.ids["campaign.campaign"][ref])
            CampaignMember.objects.create(campaign=report.campaign, user=by, role=Role.ORGANISER)
            for person in report.invite:
                person.campaign = report.campaign
            PersonToInvite.objects.bulk_create(report.invite)
            _imported(report.campaign, by)
            # rows were bulk-written (no signals): count the statistics' tallies (issue 17)
            campaign_tallies_rebuild(report.campaign)
            pilot_tallies_rebuild(ids.ids.get("roster.pilot", {}).values())
            if preview:
                transaction.set_rollback(True)
    except (IntegrityError, DatabaseError) as error:
        raise ImportRefused(
            f"the file breaks a rule of this database, nothing was loaded: {error}",
            field="tables",
            code="conflict",
        ) from error
    return report


def _rows(table: str, rows: list[dict], ids: _Ids) -> list[tuple[dict, str]]:
    """Each row with its path; a battle as :func:`.vetting.battle_vet` stores it."""
    out = []
    for i, row in enumerate(rows):
        where = f"tables.{table}[{i}]"
        out.append((battle_vet(row, where, ids.people) if table == BATTLE else row, where))
    return out


def _members(rows: list[dict], ids: _Ids, importer: str) -> tuple[list[str], list[PersonToInvite]]:
    """The file's members, in words and as people to invite: nobody is made a member here
    (the importer invites whom he wants; himself he need not); each must still name one of
    the file's users in a part the game has."""
    people = []
    invite = []
    for i, row in enumerate(rows):
        where = f"tables.{MEMBER}[{i}]"
        if row.get("user") not in ids.people:
            raise _refuse(
                f"names user {row.get('user')!r}, who is not in the file's users", f"{where}.user"
            )
        if row.get("role") not in Role.values:
            raise _refuse(f"must be one of {Role.values}", f"{where}.role")
        if row.get("campaign") not in ids.declared[CAMPAIGN]:
            raise _refuse("names a campaign not in the file", f"{where}.campaign")
        if row.get("role") == Role.COMMANDER and row.get("side") not in ("allied", "axis"):
            raise _refuse("a commander commands the allied or the axis side", f"{where}.side")
        if row["user"] != importer:
            people.append(member_words(row))
            side = str(row.get("side")) if row["role"] == Role.COMMANDER else ""
            invite.append(PersonToInvite(username=row["user"], role=row["role"], side=side))
    return people, invite


def _imported(campaign: Campaign, by: Any) -> None:
    """One history row of this server's own: the campaign, imported by ``by``."""
    campaign._change_reason = f"imported from a file by {by.get_username()}"[:REASON_MAX]  # type: ignore[attr-defined]
    campaign._history_user = by  # type: ignore[attr-defined]
    campaign.save(update_fields=["created_by"])


def report_lines(report: ImportReport) -> list[str]:
    """What an import did, in sentences (the command prints them, the API returns them)."""
    rows = sum(report.rows.values())
    if report.preview:
        lines = [f"Would import campaign {report.campaign.name!r}: {rows} rows (nothing stored)."]
    else:
        lines = [
            f"Imported campaign {report.campaign.name!r} as #{report.campaign.pk}: {rows} rows."
        ]
    lines += [f"Renamed (the name is taken here): {change}." for change in report.renamed]
    if report.people:
        lines.append(
            "The file's members were not brought here (you are the campaign's only member); "
            "invite whom you want from the campaign page's Invitations: " + ", ".join(report.people)
        )
    if report.types_created:
        lines.append(f"Aircraft types added to the catalog: {', '.join(report.types_created)}.")
    if report.types_reused:
        lines.append(f"Aircraft types already here, used as they are: {len(report.types_reused)}.")
    for line in report.type_differences:
        lines.append(f"Aircraft type kept as this server has it, the file differs in {line}")
    return lines

"""The history of every change (issue 16, "Records that last"), kept by django-simple-history.

Who: the signed-in user, attached by simple_history's ``HistoryRequestMiddleware``
(None in a background task). When: the record's date. Why: the change reason,
taken from the instance's ``_change_reason`` when the code sets one, else from
the innermost :func:`history_reason` block (views, the admin, tasks), else from
the request (``"PATCH /api/roster/pilots/3/"``), else the management command
(``"manage.py demo"``).

Bulk writes (``QuerySet.update``, ``bulk_create``) leave no record; the ones on
tracked models are listed in docs/rulings.md, "History of every change".
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models, transaction
from simple_history.admin import SimpleHistoryAdmin
from simple_history.models import HistoricalRecords

from angels.errors import RuleViolation

_REASON: ContextVar[str | None] = ContextVar("history_reason", default=None)
REASON_MAX = 100  # simple_history's change-reason column

# The models whose history is kept and shown: "app_label.model_name".
TRACKED = (
    "roster.aircrafttype",
    "roster.squadron",
    "roster.pilot",
    "roster.airframe",
    "campaign.campaign",
    "careers.careersettings",
    "careers.awarddefinition",
)


@contextmanager
def history_reason(reason: str) -> Iterator[None]:
    """Every tracked save inside the block records ``reason`` unless it sets its own."""
    token = _REASON.set(reason[:REASON_MAX])
    try:
        yield
    finally:
        _REASON.reset(token)


@contextmanager
def history_task(reason: str) -> Iterator[None]:
    """A background task's writes: recorded with no user (even when run eagerly inside a
    request) and ``reason`` naming the task."""
    context = HistoricalRecords.context
    request = getattr(context, "request", None)
    if request is not None:
        del context.request
    try:
        with history_reason(reason):
            yield
    finally:
        if request is not None:
            context.request = request


class ReasonedHistoricalRecords(HistoricalRecords):
    """HistoricalRecords whose change reason falls back to :func:`history_reason` or the request."""

    def get_change_reason_for_object(self, instance: Any, history_type: str, using: Any) -> Any:
        reason = super().get_change_reason_for_object(instance, history_type, using)
        if reason:
            return str(reason)[:REASON_MAX]
        if _REASON.get():
            return _REASON.get()
        request = getattr(HistoricalRecords.context, "request", None)
        if request is not None:
            return f"{request.method} {request.path}"[:REASON_MAX]
        if len(sys.argv) > 1 and Path(sys.argv[0]).name in ("manage.py", "django-admin"):
            return f"manage.py {sys.argv[1]}"  # a management command (demo, load_catalog, ...)
        return None


def tracked_model(app_label: str, model_name: str) -> type[models.Model]:
    """The tracked model named so, or a 404-worthy RuleViolation."""
    label = f"{app_label}.{model_name}".lower()
    if label not in TRACKED:
        raise RuleViolation(f"No history is kept for {label}.", code="not_found")
    return apps.get_model(app_label, model_name)


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: str
    new: str


@dataclass(frozen=True)
class HistoryEntry:
    history_id: int
    date: Any
    user: str
    kind: str
    reason: str
    changes: list[FieldChange]


_KINDS = {"+": "created", "~": "changed", "-": "deleted"}


def _shown(record: Any, field: str) -> str:
    value = getattr(record, field, None)
    if value is None or value == "":
        return "—"
    return str(value)


def history_of(obj: models.Model) -> list[HistoryEntry]:
    """Every record of ``obj``, newest first, each with its changes field by field."""
    manager: Any = obj.history  # type: ignore[attr-defined]  # added by HistoricalRecords
    records = list(manager.select_related("history_user").order_by("-history_date", "-history_id"))
    entries = []
    for index, record in enumerate(records):
        older = records[index + 1] if index + 1 < len(records) else None
        changes: list[FieldChange] = []
        if older is not None:
            delta = record.diff_against(older)
            for change in delta.changes:
                field = obj._meta.get_field(change.field)
                name = str(getattr(field, "verbose_name", change.field))
                attname = getattr(field, "attname", change.field)
                old_shown = (
                    _shown(older, attname) if field.is_relation else _shown(older, change.field)
                )
                new_shown = (
                    _shown(record, attname) if field.is_relation else _shown(record, change.field)
                )
                changes.append(FieldChange(name, old_shown, new_shown))
        user = record.history_user
        entries.append(
            HistoryEntry(
                history_id=record.history_id,
                date=record.history_date,
                user=user.get_username() if user is not None else "— (no user: a task or command)",
                kind=_KINDS.get(record.history_type, record.history_type),
                reason=record.history_change_reason or "",
                changes=changes,
            )
        )
    return entries


def revert_to(
    *, model: type[models.Model], history_id: int, user: Any, reason: str
) -> models.Model:
    """Put the object back as the history record ``history_id`` left it.

    The revert is itself a change: it leaves a record with ``user`` and
    ``reason`` (prefixed "revert to #<id>"). Locks the object's row while it
    writes, so a concurrent edit cannot interleave.
    """
    history = model.history  # type: ignore[attr-defined]
    record = history.filter(history_id=history_id).first()
    if record is None:
        raise RuleViolation(f"No history record #{history_id}.", code="not_found")
    with transaction.atomic():
        current = model._default_manager.select_for_update().filter(pk=record.instance.pk).first()
        if current is None:
            raise RuleViolation(
                "The object no longer exists; it cannot be reverted here.", code="state"
            )
        restored = record.instance
        restored._history_user = user
        restored._change_reason = f"revert to #{history_id}: {reason}".strip().rstrip(":")[
            :REASON_MAX
        ]
        try:
            restored.full_clean(validate_unique=False)
        except ValidationError as error:
            raise RuleViolation(
                f"Record #{history_id} cannot be restored: {'; '.join(error.messages)}",
                code="state",
            ) from error
        restored.save()
    return restored


class HistoryAdmin(SimpleHistoryAdmin):
    """SimpleHistoryAdmin whose saves record a reason: the form's ``_change_reason`` or "admin edit".

    Reverting from the admin's history page saves through here too, as "admin revert".
    """

    change_form_template = "admin/history_change_form.html"
    object_history_form_template = "admin/history_revert_form.html"

    def _reason(self, request: Any, change: bool) -> str:
        typed = str(request.POST.get("_change_reason", "")).strip()
        default = "admin revert" if "/history/" in request.path else "admin edit"
        if not change:
            default = "admin add"
        return (typed or default)[:REASON_MAX]

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        obj._change_reason = self._reason(request, change)
        super().save_model(request, obj, form, change)

    def save_formset(self, request: Any, form: Any, formset: Any, change: bool) -> None:
        """Inline rows (a squadron's pilots and airframes) saved with the same reason."""
        with history_reason(self._reason(request, change)):
            super().save_formset(request, form, formset, change)

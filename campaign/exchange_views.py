"""Export and import from the pages (issue 24 §5): the campaign page's Export button
downloads the file the API gives; the campaigns list's import form uploads one, whose
preview page lists what would be created and renamed, and Confirm creates it.

Between the two steps the file waits in an :class:`~campaign.models.ImportUpload` row
of its uploader (an hour at most), named by a signed token holding its SHA-256; on
Confirm the row must be the asker's, the token fresh and the text the one hashed, and
the import checks the whole file again (its checksum and every value) before storing
anything. The work is ``campaign.exchange``'s; these views only read the request."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from angels.errors import RuleViolation
from angels.parsers import body_limit

from .access import may_create_campaign
from .exchange import ImportRefused, campaign_export, campaign_import, dumps
from .exchange.imports import ImportReport, report_lines
from .exchange.naming import COPY, MODES
from .models import Campaign, ImportUpload
from .services import is_organiser

SALT = "campaign.import-upload"
KEPT = timedelta(hours=1)  # how long an uploaded file waits for its Confirm


@login_required
@require_GET
def campaign_export_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's file, as ``GET /api/campaigns/<id>/export/`` gives it (organiser, staff)."""
    campaign = get_object_or_404(Campaign, pk=pk)
    if not (request.user.is_staff or is_organiser(campaign, request.user)):
        raise PermissionDenied("only the campaign's organiser or staff may export it")
    text = dumps(campaign_export(campaign, viewer=request.user))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}.json"'
    return response


def _signed_in(request: HttpRequest) -> Any:
    """The user of a ``@login_required`` view (the decorator turned the anonymous away)."""
    assert request.user.is_authenticated
    return request.user


def _may_import(request: HttpRequest) -> None:
    if not (request.user.is_staff or may_create_campaign(request.user)):
        raise PermissionDenied("only staff may import a campaign here")


def _read(upload: Any) -> tuple[str, Any]:
    """The uploaded file's text and JSON, or a refusal naming the problem."""
    if upload is None:
        raise ImportRefused("choose the exported file to import", field="file", code="required")
    limit = body_limit()
    if limit is not None and upload.size > limit:
        raise ImportRefused(
            f"the file is larger than this server reads: at most {limit:,} bytes",
            field="file",
            code="too_large",
        )
    try:
        text = upload.read().decode("utf-8")
        return text, json.loads(text)
    except UnicodeDecodeError as exc:
        raise ImportRefused("the file is not UTF-8 text", field="file", code="format") from exc
    except (ValueError, RecursionError) as exc:
        raise ImportRefused(
            f"the file is not a campaign export: broken JSON ({exc})", field="file", code="format"
        ) from exc


def _page(request: HttpRequest, status: int = 200, **context: Any) -> HttpResponse:
    return render(request, "campaign/import_preview.html", context, status=status)


def _refused(request: HttpRequest, exc: RuleViolation) -> HttpResponse:
    if exc.code == "permission":
        raise PermissionDenied(exc.message) from exc
    return _page(request, 400, refused=exc)


def _one(table: str) -> str:
    return str(apps.get_model(table)._meta.verbose_name)


def _preview_context(report: ImportReport) -> dict[str, Any]:
    created = [
        (n, apps.get_model(table)._meta.verbose_name_plural if n > 1 else _one(table))
        for table, n in report.created().items()
    ]
    return {
        "name": report.campaign.name,
        "created": created,
        "renamed": report.renamed,
        "people": report.people,
        "types_created": report.types_created,
        "lines": [line for line in report_lines(report) if line.startswith("Aircraft")],
    }


@login_required
@require_POST
def campaign_import_preview(request: HttpRequest) -> HttpResponse:
    """Upload -> the preview: everything checked, nothing stored but the file, kept for
    its Confirm."""
    _may_import(request)
    mode = request.POST.get("mode", COPY)
    catalog = request.POST.get("catalog") == "on"
    try:
        if mode not in MODES:
            raise ImportRefused(f"must be one of {list(MODES)}", field="mode", code="invalid")
        if catalog and not request.user.is_staff:
            raise ImportRefused(
                "only staff may add aircraft types to the catalog", field="catalog",
                code="permission",
            )  # fmt: skip
        text, document = _read(request.FILES.get("file"))
        report = campaign_import(
            document, by=request.user, catalog=catalog, mode=mode, preview=True
        )
    except RuleViolation as exc:
        return _refused(request, exc)
    ImportUpload.objects.filter(created_at__lt=timezone.now() - KEPT).delete()
    sha = hashlib.sha256(text.encode()).hexdigest()
    upload = ImportUpload.objects.create(
        user=_signed_in(request), text=text, sha256=sha, mode=mode, catalog=catalog
    )
    token = signing.dumps({"id": upload.pk, "sha": sha}, salt=SALT)
    return _page(request, token=token, mode=mode, **_preview_context(report))


def _kept(request: HttpRequest) -> ImportUpload:
    """The asker's file, as it was when he saw its preview, else a refusal."""
    try:
        signed = signing.loads(request.POST.get("token", ""), salt=SALT, max_age=KEPT)
    except signing.SignatureExpired as exc:
        raise ImportRefused(
            "the preview is more than an hour old: upload the file again",
            field="token",
            code="expired",
        ) from exc
    except signing.BadSignature as exc:
        raise ImportRefused(
            "this confirmation was not made by this server's preview: upload the file again",
            field="token",
            code="invalid",
        ) from exc
    upload = ImportUpload.objects.filter(pk=signed.get("id"), user=_signed_in(request)).first()
    if upload is None:
        raise ImportRefused(
            "no file of yours waits for this confirmation (already imported, or over an "
            "hour old): upload it again",
            field="token",
            code="exists",
        )
    sha = signed.get("sha")
    if hashlib.sha256(upload.text.encode()).hexdigest() != sha or upload.sha256 != sha:
        upload.delete()
        raise ImportRefused(
            "the kept file changed after its preview: upload it again (nothing was loaded)",
            field="file",
            code="format",
        )
    return upload


@login_required
@require_POST
def campaign_import_confirm(request: HttpRequest) -> HttpResponse:
    """Confirm -> the campaign created as its preview said, the file checked again whole."""
    _may_import(request)
    try:
        upload = _kept(request)
        try:
            report = campaign_import(
                json.loads(upload.text),
                by=request.user,
                catalog=upload.catalog and request.user.is_staff,
                mode=upload.mode,
            )
        finally:
            upload.delete()
    except (ValueError, RecursionError):
        return _refused(request, ImportRefused("the kept file is not JSON", field="file"))
    except RuleViolation as exc:
        return _refused(request, exc)
    lines = report_lines(report)
    invite = " Invite its people from the Invitations below." if report.people else ""
    messages.success(request, lines[0] + invite)
    return redirect("campaign-detail", pk=report.campaign.pk)

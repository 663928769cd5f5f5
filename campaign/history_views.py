"""The history page of a tracked object (issue 16): who, when, what changed, why; and revert.

``/history/<app>/<model>/<pk>/`` lists every record, newest first, with the
changes field by field; staff and the organiser concerned
(:mod:`campaign.history_access`) see it. Whoever may edit the object
(``may_revert``: shared rows are staff's) may put it back as a record left it
(``POST .../revert/``, with a reason), which is itself recorded; anyone else
is answered 403 and nothing is stored.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from angels.errors import RuleViolation
from angels.history import history_of, revert_to, tracked_model

from .history_access import may_revert, may_see_history


def _object(request: HttpRequest, app: str, model: str, pk: int):
    try:
        model_class = tracked_model(app, model)
    except (RuleViolation, LookupError):
        raise Http404("no history is kept for that") from None
    obj = model_class._default_manager.filter(pk=pk).first()
    if obj is None:
        raise Http404("no such object")
    if not may_see_history(request.user, obj):
        raise PermissionDenied("Only staff and the organiser concerned see this history.")
    return model_class, obj


@login_required
def object_history(request: HttpRequest, app: str, model: str, pk: int) -> HttpResponse:
    model_class, obj = _object(request, app, model, pk)
    return render(
        request,
        "history.html",
        {
            "object": obj,
            "kind": model_class._meta.verbose_name,
            "entries": history_of(obj),
            "app": app,
            "model": model,
            "may_revert": may_revert(request.user, obj),
        },
    )


@login_required
@require_POST
def object_revert(request: HttpRequest, app: str, model: str, pk: int) -> HttpResponse:
    model_class, obj = _object(request, app, model, pk)
    if not may_revert(request.user, obj):
        raise PermissionDenied(
            "Only staff revert this: it is shared by more than one campaign, or by none of yours."
        )
    reason = request.POST.get("reason", "").strip() or "reverted from the history page"
    try:
        history_id = int(request.POST.get("history_id", ""))
        if not obj.history.filter(history_id=history_id).exists():
            raise RuleViolation(f"#{history_id} is not a record of this object.", code="not_found")
        revert_to(model=model_class, history_id=history_id, user=request.user, reason=reason)
        messages.success(request, f"Put back as record #{history_id} left it.")
    except ValueError:
        messages.error(request, "Not reverted: choose a record.")
    except RuleViolation as exc:
        messages.error(request, f"Not reverted: {exc.message}")
    return redirect("object-history", app=app, model=model, pk=pk)

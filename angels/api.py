"""API plumbing shared by every app: the one error shape and its schema.

Every error the API answers has the same body::

    {"detail": "plain words", "field": "flights.axis[0].pilot" | null,
     "rule": "000 'BUILDING FLIGHTS'" | null, "code": "invalid" | "range" | ...,
     "errors": [{"detail", "field", "rule", "code"}, ...]}

The top-level fields repeat the first of ``errors``; ``errors`` lists every
problem found (a serializer may find several at once).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.authentication import BasicScheme
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import SAFE_METHODS, AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import RuleViolation
from .parsers import BodyTooLarge, too_large_detail


class ErrorItemSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What is wrong, in plain words.")
    field = serializers.CharField(
        allow_null=True, help_text="The input field at fault (dotted path), if one is."
    )
    rule = serializers.CharField(
        allow_null=True,
        help_text="The rulebook citation broken, as \"000 'TAILING'\", if a rulebook rule is.",
    )
    code = serializers.CharField(
        help_text="Kind of problem: invalid, format, range, required, exists, permission, state, "
        "conflict, or the HTTP error's own code (not_authenticated, not_found, ...)."
    )


class ErrorSerializer(ErrorItemSerializer):
    # DRF's metaclass moves declared fields into _declared_fields, so this field does not
    # shadow Serializer.errors at run time; the stubs see only the class attribute.
    errors = ErrorItemSerializer(  # type: ignore[assignment]
        many=True, help_text="Every problem found; the first is repeated above."
    )


def _item(
    detail: Any, field: str | None = None, rule: str | None = None, code: Any = "invalid"
) -> dict[str, Any]:
    return {"detail": str(detail), "field": field, "rule": rule, "code": str(code)}


def _flatten(detail: Any, path: str = "") -> list[dict[str, Any]]:
    """DRF's nested error detail as a flat list of items with dotted field paths."""
    if isinstance(detail, dict):
        items = []
        for key, value in detail.items():
            name = path if key == "non_field_errors" else (f"{path}.{key}" if path else str(key))
            items += _flatten(value, name)
        return items
    if isinstance(detail, list):
        if all(isinstance(d, str) for d in detail):
            return [_item(d, path or None, code=getattr(d, "code", "invalid")) for d in detail]
        items = []
        for i, value in enumerate(detail):
            items += _flatten(value, f"{path}[{i}]")
        return items
    return [_item(detail, path or None, code=getattr(detail, "code", "invalid"))]


def error_body(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The one error shape from a non-empty list of items."""
    return {**items[0], "errors": items}


def too_large_body() -> dict[str, Any]:
    """The error body of a request too large to read (middleware answers it directly)."""
    return error_body([_item(too_large_detail(), "body", code=BodyTooLarge.default_code)])


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every error in the one shape: a RuleViolation is a 400 naming the field and the rule
    (a 403 when its code is ``permission``)."""
    if isinstance(exc, RuleViolation):
        # a refusal by who is asking (code "permission") is a 403, every other rule broken a 400
        forbidden = exc.code == "permission"
        answer = status.HTTP_403_FORBIDDEN if forbidden else status.HTTP_400_BAD_REQUEST
        return Response(error_body([exc.as_dict()]), status=answer)
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            items = [_item(m, k) for k, v in exc.error_dict.items() for e in v for m in e.messages]
        else:
            items = [_item(m) for m in exc.messages]
        return Response(
            error_body(items or [_item("invalid input")]), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, RequestDataTooBig):  # a form body read by DRF's form parsers
        exc = BodyTooLarge()
    if isinstance(exc, BodyTooLarge):
        return Response(too_large_body(), status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        items = _flatten(exc.detail)
    else:
        detail = getattr(exc, "detail", str(exc))
        items = [_item(detail, code=getattr(detail, "code", getattr(exc, "default_code", "error")))]
    response.data = error_body(items or [_item("invalid input")])
    return response


def not_found(request: Any, exception: Exception | None = None) -> Any:
    """The project's 404 handler: under ``/api/`` the one error shape as JSON (a path the
    URLs do not match, such as a non-numeric id, is still an API answer), elsewhere
    Django's page."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        body = error_body([_item(exceptions.NotFound.default_detail, code="not_found")])
        return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)
    return page_not_found(request, exception)


@csrf_exempt
def unknown_api_path(request: Any, rest: str = "") -> Any:
    """An address under ``/api/`` that no endpoint has: the one error shape as JSON, 404,
    whatever the method and whatever ``DEBUG`` says (with ``DEBUG`` on, Django shows its
    own HTML page for an unmatched URL and never calls :func:`not_found`).

    The last URL pattern, so every address resolves and CommonMiddleware no longer adds
    a missing slash: done here, as it did (``/api/roster/pilots`` -> ``.../pilots/``)."""
    from django.conf import settings
    from django.http import HttpResponsePermanentRedirect
    from django.urls import Resolver404, resolve

    path = request.path_info
    if settings.APPEND_SLASH and not path.endswith("/"):
        try:
            match = resolve(path + "/", getattr(request, "urlconf", None))
        except Resolver404:
            match = None
        if match is not None and match.func is not unknown_api_path:
            return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
    return not_found(request)


class AngelsAutoSchema(AutoSchema):
    """drf-spectacular's schema plus the error responses every operation can give."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        errors = {"400": "Bad input: the body names the field and, where one applies, the rule."}
        if not self._anyone_may():
            errors["401"] = "Not signed in."
            errors["403"] = "Signed in, but not allowed to do this."
        if "{" in self.path:
            errors["404"] = "No such object."
        if self.method in ("POST", "PUT", "PATCH"):
            errors["413"] = "The body is larger than the server reads (the detail names the limit)."
            errors["415"] = "The body's media type is not one the operation reads."
        if getattr(self.view, "throttle_classes", ()):
            errors["429"] = "Too many requests: wait the Retry-After header's seconds."
        for code, description in errors.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, description=description),
                    code,
                    direction=direction,
                )
        return responses

    def _anyone_may(self) -> bool:
        perms = getattr(self.view, "permission_classes", ())
        read_only = self.method in SAFE_METHODS
        return all(p is AllowAny or (read_only and p is IsAuthenticatedOrReadOnly) for p in perms)


class LimitedBasicScheme(BasicScheme):
    """The schema documents angels.authentication's HTTP Basic (password guessing limited)
    as the HTTP Basic it is: drf-spectacular knows DRF's own class only, and warned about
    this one once per operation (a warning ``manage.py check --deploy`` reports)."""

    target_class = "angels.authentication.BasicAuthentication"

"""Refuse NUL characters at the edge.

PostgreSQL text cannot hold ``\\x00`` (``DataError: text fields cannot contain
NUL``), so a NUL anywhere a value may reach the database (a query parameter, a
form field, a JSON string, the credentials of a Basic ``Authorization``
header) is answered here with a 400 naming where it was: the API's one error
shape under ``/api/``, a plain 400 page elsewhere.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

from .api import error_body, too_large_body

NUL = "\x00"


def _in_json(value: Any, path: str = "") -> str | None:
    """Dotted path of the first key or string holding a NUL in a JSON value, else None."""
    if isinstance(value, str):
        return (path or "body") if NUL in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            name = f"{path}.{key}" if path else str(key)
            if NUL in str(key):
                return path or "body"
            found = _in_json(item, name)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _in_json(item, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def _in_params(params: Any) -> str | None:
    for key, values in params.lists():
        if NUL in key or any(NUL in str(v) for v in values):
            return key.replace(NUL, "") or "query"
    return None


def _in_authorization(request: HttpRequest) -> bool:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if NUL in header:
        return True
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() != "basic":
        return False
    try:
        return b"\x00" in base64.b64decode(credentials.strip(), validate=True)
    except (binascii.Error, ValueError):
        return False  # not Basic credentials at all: the authentication refuses them


def nul_field(request: HttpRequest) -> str | None:
    """Where the request carries a NUL (parameter, form field, JSON path), else None."""
    found = _in_params(request.GET)
    if found is not None:
        return found
    if _in_authorization(request):
        return "Authorization"
    content_type = request.content_type or ""
    if request.method == "POST" and content_type in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        try:
            return _in_params(request.POST)
        except Exception:  # a broken form body: the view refuses it in its own way
            return None
    if content_type == "application/json" or content_type.endswith("+json"):
        body = request.body
        if b"\x00" not in body and b"\\u0000" not in body:
            return None
        try:
            return _in_json(json.loads(body))  # None for an escaped backslash, "\\u0000"
        except (ValueError, RecursionError):  # nested too deep: the API's parser refuses it
            return "body" if b"\x00" in body else None  # else the parser says what is wrong
    return None


class RefuseNulMiddleware:
    """A NUL in the input is a 400 naming its field, before any view sees it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            field = nul_field(request)
        except RequestDataTooBig:  # request.body refuses it; Django answered an HTML 400
            if request.path.startswith("/api/"):
                return JsonResponse(too_large_body(), status=413)
            raise
        if field is None:
            return self.get_response(request)
        detail = f"{field} cannot contain a NUL character"
        if request.path.startswith("/api/"):
            item = {"detail": detail, "field": field, "rule": None, "code": "invalid"}
            return JsonResponse(error_body([item]), status=400)
        return HttpResponseBadRequest(detail, content_type="text/plain; charset=utf-8")

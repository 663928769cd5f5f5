"""The product's error pages for what no view answered itself: a 500 under ``/api/`` is
the API's one error shape as JSON, elsewhere templates/500.html (rendered without a
request or the database, as Django's ``server_error`` does). 400, 403 and 404 pages are
templates/400.html, 403.html and 404.html (angels.api.not_found for 404)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import server_error as page_server_error

from .api import error_body


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    if request.path.startswith("/api/"):
        item = {
            "detail": "The server could not finish this request; please try again later.",
            "field": None,
            "rule": None,
            "code": "server_error",
        }
        return JsonResponse(error_body([item]), status=500)
    return page_server_error(request)

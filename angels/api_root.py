"""``GET /api/``: where the API's parts are (the README names /api/ as its home)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET


@require_GET
def api_root(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {
            "schema": reverse("api-schema"),
            "docs": reverse("api-docs"),
            "redoc": reverse("api-redoc"),
            "battles": "/api/battles/",
            "campaigns": "/api/campaigns/",
            "roster": "/api/roster/",
        }
    )

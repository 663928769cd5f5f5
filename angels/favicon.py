"""``/favicon.ico``: the site's icon, a small SVG (browsers ask for it on every page,
the admin's and the API docs' included; without it each visit logs a 404)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# a white aircraft silhouette on the header's navy
ICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect width="32" height="32" rx="6" fill="#26324a"/>'
    '<path fill="#fff" d="M16 3c1.2 0 1.8 1.6 1.8 3.4V12l10.2 5.6v2.6l-10.2-3v6.6l3.4 2.6V28'
    'L16 26.6 10.8 28v-1.6l3.4-2.6v-6.6L4 20.2v-2.6L14.2 12V6.4C14.2 4.6 14.8 3 16 3z"/></svg>'
)


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ICON_SVG, content_type="image/svg+xml")

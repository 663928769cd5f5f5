"""``{% history_link obj %}``: a link to the object's history page, for staff and the organiser concerned."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html

from campaign.history_access import may_see_history

register = template.Library()


@register.simple_tag(takes_context=True)
def history_link(context: Any, obj: Any) -> str:
    request = context.get("request")
    if obj is None or request is None or not may_see_history(request.user, obj):
        return ""
    url = reverse(
        "object-history",
        kwargs={"app": obj._meta.app_label, "model": obj._meta.model_name, "pk": obj.pk},
    )
    return format_html('<a class="history-link" href="{}">History of changes</a>', url)

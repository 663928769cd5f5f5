"""``{% web_battles campaign as web %}``: the campaign's battles flown by people, for the
campaign page's ``_web_battles.html`` (:func:`campaign.web_engagements.web_battles_view`)."""

from __future__ import annotations

from typing import Any

from django import template

from campaign.web_engagements import web_battles_view

register = template.Library()


@register.simple_tag(takes_context=True)
def web_battles(context: Any, campaign: Any) -> dict[str, Any]:
    request = context.get("request")
    return web_battles_view(campaign, getattr(request, "user", None))

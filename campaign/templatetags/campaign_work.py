"""``{% campaign_work campaign as work %}``: the campaign's slow work under way, for
``templates/campaign/_work.html`` (so the campaign view passes nothing for it)."""

from typing import Any

from django import template

from campaign.work import campaign_work as work_items

register = template.Library()


@register.simple_tag
def campaign_work(campaign: Any) -> list[Any]:
    return list(work_items(campaign_id=campaign.pk))

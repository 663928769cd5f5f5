"""``{% battles_not_applied "campaign" 7 %}``: the "finished, not applied" battles whose
``source_key`` starts ``campaign:7:``, with links to the pages that re-apply them."""

from __future__ import annotations

from typing import Any

from django import template

from battles.selectors import battles_not_applied as select_not_applied

register = template.Library()


@register.inclusion_tag("battles/_not_applied_list.html")
def battles_not_applied(*parts: Any) -> dict[str, Any]:
    prefix = "".join(f"{part}:" for part in parts)
    return {"battles": list(select_not_applied(source_key_prefix=prefix))}

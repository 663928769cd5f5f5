"""Which campaign a squadron's page, print or API answer is seen in (issue 24)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from angels.errors import RuleViolation
from angels.numbers import digits

from .models import campaign_model


def squadron_campaign(params: Mapping[str, Any]) -> Any | None:
    """The campaign of ``?campaign=<id>``, or None for the library view; a bad or
    unknown id is a RuleViolation naming ``campaign`` (a 400)."""
    raw = str(params.get("campaign", "")).strip()
    if not raw:
        return None
    number = digits(raw)
    campaign = campaign_model()._default_manager.filter(pk=number).first() if number else None
    if campaign is None:
        raise RuleViolation(f"no campaign with id {raw}", field="campaign", code="exists")
    return campaign

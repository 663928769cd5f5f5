"""A campaign's career settings: the replacement rate, rolled characteristics
and the campaign year (001 XIX table)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from angels.errors import RuleViolation
from roster.services import clean_and_save

from ..models import CareerSettings
from ..types import CampaignLike


def career_settings_for(campaign: CampaignLike) -> CareerSettings:
    settings, _ = CareerSettings.objects.get_or_create(campaign=campaign)
    return settings


@transaction.atomic
def career_settings_update(*, campaign: CampaignLike, by: str, **values: Any) -> CareerSettings:
    settings = career_settings_for(campaign)
    for name, value in values.items():
        if name not in ("replacement_rate", "characteristics", "year"):
            raise RuleViolation(f"unknown setting {name!r}", field=name, code="invalid")
        setattr(settings, name, value)
    if not 1936 <= settings.year <= 1946:
        raise RuleViolation(
            "the campaign year must be 1936-1946 (001 XIX table)", field="year", code="range"
        )
    if settings.replacement_rate > 12:
        raise RuleViolation(
            "at most 12 replacements a squadron per turn", field="replacement_rate", code="range"
        )
    clean_and_save(settings)
    return settings

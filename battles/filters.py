"""Search and filters of the battle list (issue 16 "Find things"), the same on the page
(``angels.listing.filtered_page``) and in the API (``DjangoFilterBackend``)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.apps import apps
from django.db.models import QuerySet

from angels.listing import WholeNumberFilter
from rules.tactical import tactical_systems

from .models import BattleStatus, ScenarioKind

ORIGINS = (
    ("standalone", "Flown on its own"),
    ("campaign", "A campaign's engagement"),
    ("batch", "A run of a batch"),
)


def system_choices() -> list[tuple[str, str]]:
    """The tactical games in the registry (issue 25): name and title."""
    return [(name, system.title) for name, system in tactical_systems().items()]


def _campaign_choices() -> list[tuple[str, str]]:
    """The campaigns by name, if the campaign app is installed (read by name, not
    imported: it sits above battles). A campaign's battles carry its id in their
    ``source_key`` (``campaign:<id>:...``, campaign.engagements)."""
    try:
        model = apps.get_model("campaign", "Campaign")
    except LookupError:
        return []
    return [
        (str(pk), name)
        for pk, name in model._default_manager.order_by("name").values_list("pk", "name")
    ]


class BattleFilter(django_filters.FilterSet):
    system = django_filters.ChoiceFilter(
        empty_label="any", choices=system_choices, label="Game", help_text="The tactical game."
    )
    status = django_filters.ChoiceFilter(
        empty_label="any", choices=BattleStatus.choices, label="Status"
    )
    scenario = django_filters.ChoiceFilter(
        empty_label="any", choices=ScenarioKind.choices, label="Scenario"
    )
    campaign = django_filters.ChoiceFilter(
        empty_label="any",
        choices=_campaign_choices,
        method="filter_campaign",
        label="Campaign",
        help_text="The engagements of this campaign (its id).",
    )
    origin = django_filters.ChoiceFilter(
        empty_label="any",
        choices=ORIGINS,
        method="filter_origin",
        label="Kind",
        help_text="What asked for the battle.",
    )
    batch = WholeNumberFilter(
        field_name="batch_id", label="Batch", help_text="The runs of this batch (its id)."
    )

    def filter_campaign(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return qs.filter(source_key__startswith=f"campaign:{value}:")

    def filter_origin(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        if value == "batch":
            return qs.filter(batch__isnull=False)
        own = qs.filter(batch__isnull=True)
        if value == "campaign":
            return own.filter(source_key__startswith="campaign:")
        return own.exclude(source_key__startswith="campaign:")

"""Search and filters of the campaign list (issue 16 "Find things"), the same on the page
(``angels.listing.filtered_page``) and in the API (``DjangoFilterBackend``)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet

from .models import CampaignStatus, ResolutionMode


class CampaignFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        method="search", label="Search", max_length=100, help_text="Words in the name."
    )
    status = django_filters.ChoiceFilter(
        empty_label="any", choices=CampaignStatus.choices, label="Status"
    )
    mode = django_filters.ChoiceFilter(
        empty_label="any",
        choices=ResolutionMode.choices,
        field_name="resolution_mode",
        label="Engagements",
        help_text="How the campaign's engagements are resolved.",
    )

    def search(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        for word in value.split()[:8]:
            qs = qs.filter(name__icontains=word)
        return qs

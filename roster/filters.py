"""Search and filters of the roster's lists (issue 16 "Find things"): the aircraft catalog,
squadrons and pilots, the same on the pages (``angels.listing.filtered_page``) and in
the API (``DjangoFilterBackend``; the OpenAPI schema lists the parameters)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Q, QuerySet

from angels.listing import IdChoiceFilter, WholeNumberFilter

from .models import AircraftKind, Deck, Pilot, PilotStatus, Side, Squadron

MAX_YEAR = 1945  # the catalog's aircraft flew 1936-1945; a bound, not a rule


def _words(qs: QuerySet[Any], value: str, fields: tuple[str, ...]) -> QuerySet[Any]:
    """Rows where every word of ``value`` is in one of ``fields`` (case-insensitive)."""
    for word in value.split()[:8]:
        match = Q()
        for field in fields:
            match |= Q(**{f"{field}__icontains": word})
        qs = qs.filter(match)
    return qs


def _campaigns(request: Any) -> QuerySet[Any]:
    """The campaigns a pilot may be enrolled in (read off the key: no import upward)."""
    model = Pilot._meta.get_field("enrolled_in").related_model
    return model._default_manager.order_by("name").only("id", "name")  # type: ignore[union-attr]


class AircraftTypeFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        method="search", label="Search", max_length=100, help_text="Words in the name or nation."
    )
    side = django_filters.ChoiceFilter(
        empty_label="any",
        choices=Side.choices,
        method="filter_side",
        label="Side",
        help_text="Types of this side, and those both sides fly.",
    )
    nation = django_filters.CharFilter(
        lookup_expr="iexact", label="Nation", max_length=60, help_text="e.g. Germany, Britain."
    )
    kind = django_filters.ChoiceFilter(
        empty_label="any", choices=AircraftKind.choices, label="Role"
    )
    year_from = WholeNumberFilter(
        field_name="year", lookup_expr="gte", label="From year", max_value=MAX_YEAR
    )
    year_to = WholeNumberFilter(
        field_name="year", lookup_expr="lte", label="To year", max_value=MAX_YEAR
    )
    deck = django_filters.ChoiceFilter(empty_label="any", choices=Deck.choices, label="Card deck")

    def search(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return _words(qs, value, ("name", "nation"))

    def filter_side(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return qs.filter(Q(side=value) | Q(side=""))


class SquadronFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        method="search",
        label="Search",
        max_length=100,
        help_text="Words in the name, nation or base.",
    )
    side = django_filters.ChoiceFilter(empty_label="any", choices=Side.choices, label="Side")
    campaign = IdChoiceFilter(
        empty_label="any",
        queryset=_campaigns,
        method="filter_campaign",
        label="Campaign",
        help_text="Squadrons taking part in this campaign (its id).",
    )

    def search(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return _words(qs, value, ("name", "nation", "base"))

    def filter_campaign(self, qs: QuerySet[Any], name: str, value: Any) -> QuerySet[Any]:
        # a subquery, not a join: the squadrons' pilot counts stay one row per squadron
        return qs.filter(pk__in=Squadron.objects.filter(campaigns=value).values("pk"))


class PilotFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        method="search", label="Search", max_length=100, help_text="Words in the name or rank."
    )
    squadron = IdChoiceFilter(
        empty_label="any",
        queryset=Squadron.objects.order_by("name").only("id", "name"),
        label="Squadron",
    )
    side = django_filters.ChoiceFilter(
        empty_label="any", choices=Side.choices, field_name="squadron__side", label="Side"
    )
    status = django_filters.ChoiceFilter(
        empty_label="any", choices=PilotStatus.choices, label="Status"
    )
    campaign = IdChoiceFilter(
        empty_label="any",
        queryset=_campaigns,
        field_name="enrolled_in",
        label="Campaign",
        help_text="Pilots serving in this campaign (its id).",
    )

    def search(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return _words(qs, value, ("name", "rank"))

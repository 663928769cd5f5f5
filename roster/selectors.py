"""Roster reads, each a bounded number of queries whatever the roster's size."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from .models import AircraftType, Pilot, Squadron


def aircraft_type_list(
    *, side: str | None = None, deck: str | None = None
) -> QuerySet[AircraftType]:
    qs = AircraftType.objects.all()
    if side:
        qs = qs.filter(Q(side=side) | Q(side=""))
    if deck:
        qs = qs.filter(deck=deck)
    return qs


def squadron_list(*, side: str | None = None) -> QuerySet[Squadron]:
    qs = Squadron.objects.select_related("aircraft_type").annotate(
        active_pilots=Count("pilots", filter=Q(pilots__status="active")),
        total_kills=Count("pilots__events", filter=Q(pilots__events__kind="kill")),
    )
    if side:
        qs = qs.filter(side=side)
    return qs


def pilot_list(
    *, side: str | None = None, squadron_id: int | None = None, status: str | None = None
) -> QuerySet[Pilot]:
    qs = Pilot.objects.select_related("squadron")
    if side:
        qs = qs.filter(squadron__side=side)
    if squadron_id:
        qs = qs.filter(squadron_id=squadron_id)
    if status:
        qs = qs.filter(status=status)
    return qs


def ace_list(*, limit: int = 20) -> QuerySet[Pilot]:
    """Pilots with 5 or more air kills, most kills first, ties to fewer missions."""
    return (
        pilot_list()
        .filter(air_kills__gte=5)
        .order_by("-air_kills", "experience_markers", "name")[:limit]
    )

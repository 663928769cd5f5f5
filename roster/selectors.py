"""Roster reads: aircraft types, squadrons and pilots (career reads are ``careers.selectors``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet

from rules.careers.progression import get_rule_set

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


def pilot_for_engine(pilot: Pilot) -> dict[str, Any]:
    """What the Angels 20 engine should fly this pilot with: the Angels 20 quality
    the pilot's rule set maps the quality to (``RuleSet.engine_quality``), the
    quality's effects as its rulebook states them, and the 001 XIX
    characteristics for engine rules that read them."""
    rules = get_rule_set(pilot.quality_scale)
    effects = rules.effects(pilot.quality, pilot.air_kills)
    return {
        "pilot_ref": str(pilot.pk),
        "name": str(pilot),
        "quality": rules.engine_quality(pilot.quality),
        "scale_quality": pilot.quality,
        "rule_set": rules.name,
        "effects": {"firing": effects.firing, "spotting": effects.spotting, "notes": effects.notes},
        "characteristics": {
            "vision": pilot.vision,
            "reflex": pilot.reflex,
            "training": pilot.training,
            "experience": pilot.experience,
        },
    }

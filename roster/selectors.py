"""Roster reads: aircraft types, squadrons and pilots (career reads are ``careers.selectors``)."""

from __future__ import annotations

from typing import Any

from django.db.models import (
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, RowNumber

from rules.careers.progression import get_rule_set

from .models import AircraftType, Airframe, AirframeState, Pilot, PilotStatus, Squadron

# The squadron figures, computed here only (issue 12 "every figure agrees"): the
# home page, the squadron page, the squadron API and the property test all read
# ``squadron_list`` / ``squadron_figures``. On strength = active + wounded (a
# wounded pilot is still the squadron's; the replacements of
# careers.services.turns count the same), set against the airframes on hand.
PILOT_STATES: tuple[str, ...] = (
    PilotStatus.ACTIVE, PilotStatus.WOUNDED, PilotStatus.CAPTURED, PilotStatus.KILLED,
    PilotStatus.MISSING, PilotStatus.RETIRED,
)  # fmt: skip
ON_STRENGTH: tuple[str, ...] = (PilotStatus.ACTIVE, PilotStatus.WOUNDED)
ON_HAND: tuple[str, ...] = (AirframeState.SERVICEABLE, AirframeState.DAMAGED)
SQUADRON_FIGURES: tuple[str, ...] = (
    *(f"{state}_pilots" for state in PILOT_STATES), "strength", "airframes_on_hand",
    "serviceable_airframes",
)  # fmt: skip


def _airframe_count(*states: str) -> Coalesce:
    rows = (
        Airframe.objects.filter(squadron=OuterRef("pk"), state__in=states)
        .order_by()
        .values("squadron")
        .annotate(n=Count("id"))
        .values("n")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), Value(0))


def aircraft_type_list() -> QuerySet[AircraftType]:
    """The catalog, by name (search and filters: ``roster.filters.AircraftTypeFilter``)."""
    return AircraftType.objects.order_by("name")


def squadron_list(*, pilots: QuerySet[Pilot] | None = None) -> QuerySet[Squadron]:
    """Squadrons with their figures (``SQUADRON_FIGURES``): pilots by status
    (``active_pilots``, ``wounded_pilots``, ...), ``strength`` (pilots on
    strength) and airframes on hand / serviceable. One query. Search and filters:
    ``roster.filters.SquadronFilter``. ``pilots``: count only these (a campaign's
    own, on its summary: a pilot serving, or lost, in another campaign is not its)."""
    among = Q() if pilots is None else Q(pilots__in=pilots.values("pk"))
    qs = (
        Squadron.objects.select_related("aircraft_type")
        .annotate(
            **{
                f"{state}_pilots": Count("pilots", filter=Q(pilots__status=state) & among)
                for state in PILOT_STATES
            },
            airframes_on_hand=_airframe_count(*ON_HAND),
            serviceable_airframes=_airframe_count(AirframeState.SERVICEABLE),
        )
        .annotate(strength=F("active_pilots") + F("wounded_pilots"))
        .order_by("side", "nation", "name")  # Meta.ordering is not applied to GROUP BY queries
    )
    return qs


HOME_SQUADRONS_PER_SIDE = 12


def squadron_overview(*, per_side: int = HOME_SQUADRONS_PER_SIDE) -> tuple[list[Squadron], int]:
    """The home page's squadrons: the first ``per_side`` of each side (by nation
    and name) with the figures of ``squadron_list``, and how many squadrons there
    are in all (the squadron list page searches and pages them all). Flat in the
    roster's size (issue 17): the figures are counted for these squadrons only,
    not for every squadron of a roster of 10,000 pilots. Two queries."""
    ranked = Squadron.objects.annotate(
        place=Window(RowNumber(), partition_by=[F("side")], order_by=[F("nation").asc(), F("name").asc()]),
        total=Window(Count("pk")),
    ).values_list("pk", "total", "place")  # fmt: skip
    rows = list(ranked.filter(place__lte=per_side))
    squadrons = list(squadron_list().filter(pk__in=[pk for pk, _, _ in rows])) if rows else []
    return squadrons, rows[0][1] if rows else 0


def squadron_figures(*, squadron_id: int) -> Squadron:
    """One squadron with the figures of ``squadron_list``."""
    return squadron_list().get(pk=squadron_id)


def pilot_list() -> QuerySet[Pilot]:
    """Pilots with their squadrons, by squadron and name (search and filters:
    ``roster.filters.PilotFilter``)."""
    return Pilot.objects.select_related("squadron").order_by("squadron__name", "name", "pk")


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

"""Engine stat cards from the roster's aircraft types (the organiser's catalog is the source)."""

from __future__ import annotations

from collections.abc import Iterable

from battles.engine import AircraftStats
from roster.models import AircraftType

# The engine knows four kinds; bomber tokens and the card game's bombers fly as bombers.
_ENGINE_KIND = {"heavy bomber": "bomber", "bomber token": "bomber"}


def stats_for(aircraft_type: AircraftType) -> AircraftStats:
    t = aircraft_type
    return AircraftStats(
        name=t.name,
        nation=t.nation,
        kind=_ENGINE_KIND.get(t.kind, t.kind),
        cost=t.cost,
        pilot=t.pilot_quality,
        speed_min=t.speed_min,
        speed_max=t.speed_max,
        high_speed_min=t.high_speed_min,
        high_speed_max=t.high_speed_max,
        attack=(t.attack_1, t.attack_2, t.attack_3),
        armor=t.armor,
        vital_armor=t.vital_armor,
        hits=t.hits,
        turn=t.turn,
        roll=t.roll,
        climb=t.climb,
        dive=t.dive,
        abilities=tuple(t.abilities),
        year=t.year,
    )


def catalogue(types: Iterable[AircraftType] | None = None) -> dict[str, AircraftStats]:
    rows = AircraftType.objects.all() if types is None else types
    return {t.name: stats_for(t) for t in rows}

"""Engine stat cards from the roster's aircraft types (the organiser's catalog is the source)."""

from __future__ import annotations

from collections.abc import Iterable

from roster.models import AircraftType
from rules.angels20 import AircraftStats

# The roster's kinds are the engine's, but for the bomber tokens: 000 "BOMBER STATS"
# makes the He 111 tokens medium bombers (ruling "Bomber classes").
_ENGINE_KIND = {"bomber token": "medium bomber"}


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

"""Engine stat cards from the roster's aircraft types (the organiser's catalog is the source).

The mapping from catalog values to the engine's stat card is the engine's own
(:func:`rules.angels20.aircraft.stats_from_fields`), the one that reads the
shipped CSV; the bomber tokens fly as medium bombers there (ruling "Bomber classes").
"""

from __future__ import annotations

from collections.abc import Iterable

from roster.catalog import card_columns
from roster.models import AircraftType
from rules.angels20 import AircraftStats
from rules.angels20.aircraft import stats_from_fields


def stats_for(aircraft_type: AircraftType) -> AircraftStats:
    return stats_from_fields(aircraft_type.name, card_columns(aircraft_type))


def catalogue(types: Iterable[AircraftType] | None = None) -> dict[str, AircraftStats]:
    rows = AircraftType.objects.all() if types is None else types
    return {t.name: stats_for(t) for t in rows}

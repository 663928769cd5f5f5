"""Who flew each aircraft of a scenario: the ``pilot_ref`` its entry carries (an opaque
string the campaign or roster layer gave it, e.g. "plane:allied-3" or "pilot:12"), and
what the aircraft is called (its type and its pilot's quality), by the number the game's
log and result call the aircraft by (``AircraftOutcome``'s ``id``).

Optional methods of a system; a game without them keeps its aircraft as Angels 20 does:

  pilot_refs(scenario) -> dict[int, str]   each aircraft's reference ("" for none) by its
                                           number, read from the scenario as it stores it.
  aircraft_names(scenario)                 each aircraft's (type, pilot quality) by its
    -> dict[int, tuple[str, str]]          number, as its result names them.

The default reads ``scenario["aircraft"]``, numbered by their place from 0 (000's "#0"):
each entry's ``stats["name"]``, its ``pilot`` (else its stats') quality.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class AircraftName(NamedTuple):
    """An aircraft as the pages name it: its type and its pilot's quality in a word."""

    name: str  # "Spitfire I"
    pilot: str  # "average"


def pilot_refs(system: Any, scenario: Any) -> dict[int, str]:
    """Each aircraft's pilot reference in ``scenario`` by its number: the system's own
    ``pilot_refs`` where it has one, else the default (module docstring)."""
    if not isinstance(scenario, dict):
        return {}
    own = getattr(system, "pilot_refs", None)
    if own is not None:
        return {int(number): str(ref or "") for number, ref in own(scenario).items()}
    aircraft = scenario.get("aircraft")
    if not isinstance(aircraft, list):
        return {}
    return {
        i: str(entry.get("pilot_ref") or "")
        for i, entry in enumerate(aircraft)
        if isinstance(entry, dict)
    }


def aircraft_names(system: Any, scenario: Any) -> dict[int, AircraftName]:
    """Each aircraft's type and pilot quality in ``scenario`` by its number: the system's
    own ``aircraft_names`` where it has one, else the default (module docstring); an
    entry that gives neither reads "aircraft", "unknown"."""
    if not isinstance(scenario, dict):
        return {}
    own = getattr(system, "aircraft_names", None)
    if own is not None:
        return {
            int(number): AircraftName(str(name), str(pilot))
            for number, (name, pilot) in own(scenario).items()
        }
    aircraft = scenario.get("aircraft")
    if not isinstance(aircraft, list):
        return {}
    names = {}
    for i, entry in enumerate(aircraft):
        if not isinstance(entry, dict):
            continue
        stats = entry.get("stats")
        stats = stats if isinstance(stats, dict) else {}
        quality = entry.get("pilot") or stats.get("pilot") or "unknown"
        names[i] = AircraftName(str(stats.get("name", "aircraft")), str(quality))
    return names

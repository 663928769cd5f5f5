"""Who flew each aircraft of a scenario: the ``pilot_ref`` its entry carries (an opaque
string the campaign or roster layer gave it, e.g. "plane:allied-3" or "pilot:12"), by the
number the game's log and result call the aircraft by (``AircraftOutcome``'s ``id``).

Optional method of a system; a game without it keeps its aircraft as Angels 20 does:

  pilot_refs(scenario) -> dict[int, str]   each aircraft's reference ("" for none) by its
                                           number, read from the scenario as it stores it.

The default reads ``scenario["aircraft"]``, numbered by their place from 0 (000's "#0").
"""

from __future__ import annotations

from typing import Any


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

"""Hits on a crew of two or three (002 13b2.1, MULTICREWED AIR UNITS).

"On a hit number of 3, roll the die again. On a 1 through 5, the pilot is hit. On a 6
through 9, the RG (Rear Gunner) is hit. With a 10, both pilot and RG are hit. If there are
three crew ... on a 1-3 the pilot is hit, a 4-6 the center crewman is hit, on a 7-9 the
rear gunner s hit and on a 10, all three are hit. If the rear gunner is dead, a center
crewman (RT operator, bombardier etc, may take his position during the next Change Phase.
An incapacitated or dead crewman may be hit again but with no additional effect."

6a5.5: "An aircraft must have a non-incapacitated RG or RRG to fire its rear gun".

Readings (docs/rulings.md, 'Air Pirates: multi-crew hits'): the pilot's hits are the
unit's crew hits (``damage["crew"]``: 13b3.3's altitude limit, 13b3.3.1, 6c1.8, 13c1,
13b3.1's crew boxes); a hit on the rear gunner alone silences the rear guns, one on the
centre crewman alone leaves him unable to take the gun; such a hit still counts as a hit
(13b1.3's defence factor, [8]'s point per hit). Four crew or more use the three-crew
table (the text gives no other).
"""

from __future__ import annotations

from .units import Unit

MULTICREW = "002 '13b2.1'"


def crewmen(unit: Unit) -> tuple[str, ...]:
    """The positions 13b2.1 names for the unit's crew."""
    crew = int(unit.card["crew"])
    if crew <= 1:
        return ("pilot",)
    return ("pilot", "gunner") if crew == 2 else ("pilot", "centre", "gunner")


def who_is_hit(unit: Unit, roll: int) -> list[str]:
    """13b2.1: the crewmen a crew hit strikes on the second d10 ``roll``."""
    men = crewmen(unit)
    if roll == 10:
        return list(men)
    if len(men) == 2:
        return ["pilot"] if roll <= 5 else ["gunner"]
    return ["pilot"] if roll <= 3 else ["centre"] if roll <= 6 else ["gunner"]


def mark(unit: Unit, men: list[str]) -> None:
    """The crewmen other than the pilot put out of action (again: no further effect)."""
    for man in men:
        if man != "pilot" and man not in unit.crew_out:
            unit.crew_out.append(man)
    if "pilot" not in men:
        unit.crew_other_hits += 1


def gun_silent(unit: Unit) -> bool:
    """The rear gunner is out and nobody has taken his position."""
    return "gunner" in unit.crew_out


def man_the_gun(unit: Unit) -> bool:
    """At a Change Phase the centre crewman, if fit, takes the rear gunner's position (his
    own is then empty): True if he did."""
    if not gun_silent(unit) or "centre" not in crewmen(unit) or "centre" in unit.crew_out:
        return False
    unit.crew_out.remove("gunner")
    unit.crew_out.append("centre")
    return True

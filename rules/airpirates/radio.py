"""*Air Pirates* R/T communication: 17a's air units lacking radio and 13b3.3.2's R/T damaged
by a single crew hit (option ``radio``).

17a: "Some aircraft in WW lacked R/T communications. For these air unit wingmen can share
tallies only if they are two hexes from each other and at the same altitude ... Use rule
13b3.3.2 for the same effects of one crew hit."

13b3.3.2: "When a single crew hit is scored, immediately roll the die again. The
radio/telephone (R/T) has been damaged on a die roll of ten. The effect of this is to limit
communication between wingmen as per rule 15b8.3."

:func:`has_radio` is what the spotting rules read (``spotting.py``, 15b8). Readings
(docs/rulings.md, 'Air Pirates: R/T'): the roll is made when the pilot's first crew hit is
marked (13b3.3's "single crew hit"), after 13b3.3.1's if the unit still flies; a crew hit
that strikes only another crewman (13b2.1) does not roll; the roll is an option so battles
flown before replay with the same dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import AirPiratesBattle
    from .units import Unit

RT = "002 '13b3.3.2'"
LACKING = "002 '17a'"
DAMAGED_ON = 10  # 13b3.3.2: "on a die roll of ten"


def has_radio(unit: Unit) -> bool:
    """Whether ``unit``'s R/T works: its card has one (17a) and no crew hit damaged it
    (13b3.3.2)."""
    return bool(unit.card.get("radio", True)) and not unit.radio_damaged


def crew_hit(battle: AirPiratesBattle, unit: Unit, part: str, eliminated: bool) -> bool:
    """13b3.3.2 (option ``radio``) for a hit just marked on ``part``: on the pilot's first
    crew hit, roll again; True when a ten damages a working R/T."""
    if (
        "radio" not in battle.scenario.options
        or part != "crew"
        or unit.damage["crew"] != 1
        or eliminated
    ):
        return False
    roll = battle.dice.d10(f"002 13b3.3.2 R/T: unit {unit.id}")
    if roll >= DAMAGED_ON and has_radio(unit):
        unit.radio_damaged = True
        return True
    return False


def record(battle: AirPiratesBattle, unit: Unit, damaged: bool) -> None:
    if damaged:
        battle._record("R/T damaged", RT, unit=unit.id)

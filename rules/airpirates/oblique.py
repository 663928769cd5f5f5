"""Oblique forward (OF) guns (002 6a6), the card's ``oblique_gun_factor`` and
``oblique_ammunition``.

6a6.1: "Fire from OF guns is performed the same as per rule section 6. An air unit may use
the forward guns "or" the OF gun factors during a single firing phase." 6a6.2: "OF gun
factors may not be used against targets one altitude level below the firing air unit";
"OF gun factors are half their value against other aircraft types" than fighters. Readings
(docs/rulings.md, 'Air Pirates: oblique forward guns'): the OF guns fire as the forward
guns do (a unit that just completed a maneuver, at a target of the Deflection Diagram),
with their own factor and ammunition boxes (13a3); every air unit of this engine is flown
as a fighter-type unit (bombers are [20]'s), so the factor is never halved; rear guns set
as OF positions and the card's exceptions are not in the engine.
"""

from __future__ import annotations

from dataclasses import replace

from . import fire as fr
from .units import Unit

OBLIQUE = "002 '6a6.1'"
BELOW = "002 '6a6.2'"
AMMUNITION = "002 '13a3'"


def refusal(
    firer: Unit, target: Unit, entered: dict[int, int], head_on: bool = False
) -> tuple[str, str] | None:
    """Why ``firer``'s OF guns may not fire at ``target`` now, or None."""
    if firer.card["oblique_gun_factor"] < 1:
        return OBLIQUE, f"{firer.name} has no oblique forward guns"
    if firer.card["oblique_ammunition"] - firer.oblique_ammunition_used < 1:
        return AMMUNITION, f"{firer.name}'s oblique forward guns have no ammunition box left"
    if target.side != firer.side and target.altitude == firer.altitude - 1:
        return BELOW, "oblique forward guns may not fire at a target one altitude below"
    # "the same as per rule section 6": the forward guns' rules, less their ammunition
    probe = replace(firer, card={**firer.card, "ammunition": 1}, ammunition_used=0)
    return fr.refusal(probe, target, entered, head_on)


def attack_modifier(firer: Unit, target: Unit) -> dict[str, int]:
    """6c1 with the OF guns' factor in place of the forward guns'."""
    parts = fr.attack_modifier(firer, target)
    parts["6c1.1 gun factor"] = int(firer.card["oblique_gun_factor"])
    return parts

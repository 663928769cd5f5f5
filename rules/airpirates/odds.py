"""The odds of an *Air Pirates* shot before it is fired (``rules.tactical.decision_odds``).

002 6c-6e: the firer and the target each roll a d10 and add their modifiers (6d: a total
below 1 counts as 1); the firer scores a hit when its firing number exceeds the target's
(6e). The chance to hit is counted exactly over the 100 pairs of dice. The modifiers are
those ``effects.fire`` applies: the forward guns' (6c1), the rear gunner's (6c2) or the
oblique forward guns' (6a6), the defender's (6c3), and under their options the unseen
attacker's +4 (15b9) and the bomber rules (20b, 20c, 20e's automatic miss).
A ram (13d2) is not fired: it has no odds here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import bombers as bb
from . import fire as fr
from . import oblique as ob
from . import spotting as sp
from .actions import MANEUVERS, Fire

if TYPE_CHECKING:
    from .state import AirPiratesBattle
    from .units import Unit

D10 = range(1, 11)


def shot_modifiers(
    battle: AirPiratesBattle, firer: Unit, target: Unit, gun: str
) -> tuple[dict[str, int], dict[str, int]]:
    """The attack's and the defence's modifiers by rule, as ``effects.fire`` sums them."""
    if gun == "rear":  # 6c2.2.4-5: the maneuver marked for, or just completed
        plotted = battle.completed.get(firer.id) or (
            firer.marker["maneuver"] if firer.marker else None
        )
        attack = fr.rear_modifier(firer, target, MANEUVERS[plotted][0] if plotted else None)
    elif gun == "oblique":
        attack = ob.attack_modifier(firer, target)
    else:
        attack = fr.attack_modifier(firer, target)
    attack.update(sp.surprise(battle, firer, target))  # 15b9
    big, defence = bb.modifiers(battle, firer, target, gun, fr.defence_modifier(target))
    attack.update(big)  # 20b, 20c
    return attack, defence


def hit_chance(attack: int, defence: int, gun: str = "forward") -> float:
    """6d-6e: the chance of at least one hit, counted over every pair of d10s."""
    scoring = sum(
        1
        for a in D10
        for d in D10
        if not bb.automatic_miss(gun, d)
        and fr.hits(fr.firing_number(a, attack), fr.firing_number(d, defence)) > 0
    )
    return scoring / 100


def _modifier(key: str, value: int, target: bool) -> dict[str, Any]:
    """'6c1.3 deflection' -> {"name": "deflection", "value": 0, "rule": "002 6c1.3"}."""
    rule, _, name = key.partition(" ")
    return {
        "name": f"target's {name}" if target else name,
        "value": value,
        "rule": f"002 {rule}",
    }


def decision_odds(battle: AirPiratesBattle, side: int, action: Any) -> dict[str, Any] | None:
    """For a Fire action with guns (not a ram) the chance to hit and every modifier; None
    for any other decision or a shot the battle would refuse. Nothing of a shot is hidden
    from either side in 002, so ``side`` does not change the answer."""
    if not isinstance(action, Fire) or action.gun == "ram" or battle.refusal(action):
        return None
    firer, target = battle.unit(action.unit), battle.unit(action.target)
    attack, defence = shot_modifiers(battle, firer, target, action.gun)
    chance = hit_chance(sum(attack.values()), sum(defence.values()), action.gun)
    modifiers = [_modifier(k, v, False) for k, v in attack.items()]
    modifiers += [_modifier(k, v, True) for k, v in defence.items()]
    if bb.aimed_area(action.gun):
        modifiers.append({"name": "target's unmodified 10 misses", "value": 0, "rule": "002 20e"})
    return {"chance": chance, "text": f"hits {round(chance * 100)}%", "modifiers": modifiers}

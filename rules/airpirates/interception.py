"""A card-game interception flown under *Air Pirates*: the card game's effects on the set-up.

003 "INTERCEPTION SEGMENT" changes an interception by adding to d10 rolls; 002 has no
such roll. Each effect :func:`rules.cardgame.effects.engagement_effects` gives is read as
the change of 002's set-up that gives the same side the same kind of edge, by the closest
rule of 002 (ruling "Air Pirates engagements: the card game's effects" in
docs/rulings.md): a pilot one quality better (14b), altitude levels (3d3.1), the speed in
the "1" box (2d), the gameboard's size (2f places every unit on its edge), the sequence
marker (2a, 3a2), gun factors (13a2), breaking contact ([16]), and the card game's own
flak roll, a d10 at AF 7 before the battle (:func:`card_flak`, from the battle's seed).

:func:`apply_effects` works on the scenario dict :func:`rules.airpirates.scenarios.
campaign_engagement` builds; an engagement with no effects comes back unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rules.dice import Dice, derive_seed

from . import effects as fx
from .hexes import DEFAULT_HEIGHT, DEFAULT_WIDTH
from .units import QUALITIES

if TYPE_CHECKING:
    from .state import AirPiratesBattle

FLAK = "003 'INTERCEPTION SEGMENT'"  # "the Flak roll and it has an AF = 7"
FLAK_PURPOSE = "003 flak before an Air Pirates battle"
# Dogfight: each card brings the gameboard's edges, where 2f places every unit, this many
# hexes nearer (as Angels 20's engagement brings its formations 3 rows nearer a side)
DOGFIGHT_WIDTH, DOGFIGHT_HEIGHT = 6, 4
MIN_WIDTH, MIN_HEIGHT = 16, 10
ROCKETS = 1  # Rockets played for AF: +1 to the target's forward gun factor (13a2, 6c1.1)
MAX_GUN_FACTOR = 20  # the control card's limit (card.py)


def _events(effects: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [e for e in effects.get("events", ()) if e["name"] == name]


def better(quality: str) -> str:
    """14b: one pilot quality better (green, inexperienced, average, experienced, ace)."""
    return QUALITIES[min(QUALITIES.index(quality) + 1, len(QUALITIES) - 1)]


def _climb(unit: dict[str, Any], levels: int) -> None:
    """3d3.1: the unit's set-up altitude ``levels`` higher (lower if negative), within 1
    and the card's highest level (3e3)."""
    unit["altitude"] = max(1, min(int(unit["card"]["max_altitude"]), unit["altitude"] + levels))


def flak_targets(attackers: Sequence[dict[str, Any]]) -> list[int]:
    """The attacking units (ids: scenario order from 1) in the order the flak takes them:
    fewest experience markers first, ties in mission order (the card game's default loss;
    003 lets the owner choose, and the engine has nobody to ask)."""
    order = sorted(range(len(attackers)), key=lambda i: int(attackers[i].get("experience", 0)))
    return [i + 1 for i in order]


def apply_effects(
    scenario: dict[str, Any],
    attackers: Sequence[dict[str, Any]],
    defenders: Sequence[dict[str, Any]],
    effects: dict[str, Any] | None,
) -> dict[str, Any]:
    """The campaign engagement's ``scenario`` (units: the attackers, then the defenders,
    as the entrants are given) with the card game's ``effects`` applied, changed in place
    and returned; unchanged when there are none. Each entrant's ``plane_id``, ``side`` and ``fighter`` (003's F or FB,
    which the cards' scopes name) say which units a card reaches."""
    if not effects:
        return scenario
    units = scenario["units"]
    entrants = [*attackers, *defenders]
    by_plane = {str(e.get("plane_id")): u for e, u in zip(entrants, units, strict=True)}
    attacker = str(attackers[0]["side"])
    defender = str(defenders[0]["side"]) if defenders else ""

    def fighters(side: str) -> list[dict[str, Any]]:
        return [u for e, u in zip(entrants, units, strict=True)
                if e["side"] == side and e.get("fighter", True)]  # fmt: skip

    for pid in effects.get("defending_night_fighters", ()):
        if str(pid) in by_plane:  # 003: "Defending Night Fighters get AF +1"
            unit = by_plane[str(pid)]
            unit["quality"] = better(unit["quality"])
    for ev in effects.get("events", ()):
        name, side, target = ev["name"], ev["side"], ev.get("target")
        if name == "Superior Tactics":  # "All your Fighters get AF +1": 14b
            for u in fighters(side):
                u["quality"] = better(u["quality"])
        elif name == "Radar Towers":  # "Defending Fighters get AF+1": warned, higher
            for u in fighters(defender):
                _climb(u, 1)
        elif name == "Chaff" and side != defender:  # "Defending Enemy Fighters get AF-2"
            for u in fighters(defender):
                _climb(u, -2)
        elif name == "Fighter Escort":  # "Enemy Planes get AF-1": top cover
            mine = fighters(side)
            for u in mine if side == attacker else mine[1::2]:
                _climb(u, 1)
        elif name == "Scramble" and defender:  # "Defending Fighters get AF+1": 2a, 3a2
            scenario["sequence_marker"] = defender
        elif target is not None and str(target) in by_plane:
            _targeted(by_plane[str(target)], name, ev.get("force", "af"))
    dogfights = len(_events(effects, "Dogfight"))  # "All Fighters get AF+1": 2f's edges
    if dogfights:
        scenario["width"] = max(MIN_WIDTH, DEFAULT_WIDTH - DOGFIGHT_WIDTH * dogfights)
        scenario["height"] = max(MIN_HEIGHT, DEFAULT_HEIGHT - DOGFIGHT_HEIGHT * dogfights)
    if _events(effects, "Overcast") or _events(effects, "Inclement Weather"):
        # [16]: breaking contact is "slipping into or behind clouds or mist", 002's weather
        scenario["options"] = sorted({*scenario.get("options", ()), "break_contact"})
    rolls = int(effects.get("flak_rolls", 0))
    if rolls:
        scenario["card_flak"] = {
            "rolls": rolls, "af": int(effects.get("flak_af", 7)),
            "targets": flak_targets(attackers),
        }  # fmt: skip
    return scenario


def _targeted(unit: dict[str, Any], name: str, force: str) -> None:
    if name == "Out of the Sun":  # "Fighter gets AF+2": two levels above (3d3.1)
        _climb(unit, 2)
    elif name == "Surprise":  # "Defending Enemy Fighter gets AF-3": caught climbing, slow
        unit["speed"] = int(unit["card"]["min_speed"])  # 2d's "1" box, 3e2's minimum
        _climb(unit, -2)
    elif name == "Rockets" and force == "af":  # "Plane gets AF+1": 13a2's gun factor
        card = dict(unit["card"])
        card["gun_factor"] = min(MAX_GUN_FACTOR, int(card["gun_factor"]) + ROCKETS)
        unit["card"] = card


def flak_dice(seed: int) -> Dice:
    """The flak's own dice, a child of the battle's seed (``rules.dice.derive_seed``), as
    the kill credit's roll-off (``outcome.py``): a roll that misses leaves the battle's
    dice, and so the battle, exactly as it was without the flak."""
    return Dice(derive_seed(seed, FLAK_PURPOSE))


def card_flak(battle: AirPiratesBattle) -> None:
    """The card game's flak before the battle (ruling "Air Pirates engagements: the card
    game's effects"): one d10 per roll (:func:`flak_dice`), each at AF or more
    eliminating the next target still in play, credited to nobody; its pilot tries to
    bail out as any eliminated unit's (13c1, with the option). A hit with no target left
    is logged and does nothing; a side with nothing left ends the game ([8])."""
    flak = battle.scenario.card_flak
    if not flak:
        return
    dice = flak_dice(battle.seed)
    queue = list(flak["targets"])
    for i in range(int(flak["rolls"])):
        start = len(dice.rolls)
        roll = dice.d10(f"003 flak roll {i + 1}")
        hit = roll >= int(flak["af"])
        while queue and battle.unit(queue[0]).eliminated:
            queue.pop(0)
        victim = queue.pop(0) if hit and queue else None
        battle._record("flak roll", FLAK, roll_no=i + 1, roll=roll, af=int(flak["af"]),
                       hit=hit, unit=victim,
                       rolls=[r.to_json() for r in dice.rolls[start:]])  # fmt: skip
        if victim is not None:
            fx.eliminate(battle, battle.unit(victim), None, FLAK, flak=True)
    if battle._side_gone():
        battle._end(battle._side_gone())

"""The cards of the strategic card game (rules file ``003_93ec40e0c2d0344c.txt``).

Pure data: the mission deck and the event deck exactly as listed, the plane
card spec (read from ``rules/catalog/card_game_planes.csv`` or passed in as
plain dicts), and the plane categories the event texts refer to.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rules.sides import ALLIED, ALLIED_FIRST, AXIS

SIDES = ALLIED_FIRST  # 003 "SETUP": the Allied deck and hand first (rules.sides)


def other(side: str) -> str:
    """The opposing side (003 "SETUP": "Determine which player gets which Plane Deck")."""
    return AXIS if side == ALLIED else ALLIED


CATALOG_PATH = Path(__file__).resolve().parents[1] / "catalog" / "card_game_planes.csv"

# 003 "PLANE DECK CARD NOTATION": F, FB, HB, LB, DB (+ B used by the lists).
# Rulings (docs/rulings.md): a Fighter is F or FB; a Bomber is FB, B, LB, DB or
# HB (a fighter-bomber is both); a Heavy Bomber is HB; a Non-Heavy Bomber is a
# bomber that is not HB.
FIGHTER_TYPES = frozenset({"F", "FB"})
BOMBER_TYPES = frozenset({"FB", "B", "LB", "DB", "HB"})
HEAVY_TYPES = frozenset({"HB"})
PLANE_TYPES = frozenset({"F", "FB", "B", "LB", "DB", "HB"})


@dataclass(frozen=True, slots=True)
class PlaneSpec:
    """One plane card design (a row of the catalog): ``copies`` cards of it."""

    name: str
    side: str  # "allied" or "axis"
    card_type: str
    copies: int
    af: int
    sf: int | None
    gf: int | None
    night_fighter: bool
    deck: str = ""

    @property
    def is_fighter(self) -> bool:
        return self.card_type in FIGHTER_TYPES

    @property
    def is_bomber(self) -> bool:
        return self.card_type in BOMBER_TYPES

    @property
    def is_heavy(self) -> bool:
        return self.card_type in HEAVY_TYPES

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, row: Mapping[str, Any]) -> PlaneSpec:
        """Build from a catalog row or a plain dict (strings or typed values)."""

        def opt_int(value: Any) -> int | None:
            if value is None or value == "" or value == "-":
                return None
            return int(value)

        nf = row.get("night_fighter", False)
        if isinstance(nf, str):
            nf = nf.strip().lower() in {"yes", "y", "true", "1", "nf"}
        side = str(row["side"]).strip().lower()
        if side in {"luftwaffe", "axis"}:
            side = AXIS
        elif side in {"allies", "allied"}:
            side = ALLIED
        if side not in SIDES:
            raise ValueError(f"unknown side {row['side']!r} for plane {row.get('name')!r}")
        card_type = str(row["card_type"]).strip().upper()
        if card_type not in PLANE_TYPES:
            raise ValueError(f"unknown card type {card_type!r} for plane {row.get('name')!r}")
        spec = cls(
            name=str(row["name"]).strip(),
            side=side,
            card_type=card_type,
            copies=int(row.get("copies", 1) or 0),
            af=int(row["af"]),
            sf=opt_int(row.get("sf")),
            gf=opt_int(row.get("gf")),
            night_fighter=bool(nf),
            deck=str(row.get("deck", "") or ""),
        )
        if spec.copies < 0:
            raise ValueError(f"negative copies for plane {spec.name!r}")
        return spec


def load_plane_catalog(path: str | Path | None = None) -> tuple[PlaneSpec, ...]:
    """Read the plane decks from the catalog CSV (003 "ALLIED/LUFTWAFFEN PLANE DECK CARD LIST")."""
    with open(path or CATALOG_PATH, newline="", encoding="utf-8") as fh:
        return tuple(PlaneSpec.from_dict(row) for row in csv.DictReader(fh))


def plane_specs(rows: Iterable[PlaneSpec | Mapping[str, Any]]) -> tuple[PlaneSpec, ...]:
    """Accept plane specs as PlaneSpec objects or plain dicts (organiser-edited catalog)."""
    return tuple(r if isinstance(r, PlaneSpec) else PlaneSpec.from_dict(r) for r in rows)


# -- missions ----------------------------------------------------------------
GROUND = "G"  # Ground Support Mission (GSM)
STRATEGIC = "S"  # Strategic Bombing Mission (SBM)
ESPIONAGE = "E"


@dataclass(frozen=True, slots=True)
class MissionSpec:
    name: str
    kind: str  # "G", "S" or "E"
    level: int  # 0 for espionage ("-")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# 003 "MISSION DECK CARD LIST" -- every card, in the order listed (one copy each).
MISSION_LIST: tuple[tuple[str, str, int], ...] = (
    ("Major Operation", GROUND, 3),
    ("Support Amphibious Landing", GROUND, 2),
    ("Disrupt Amphibious Landing", GROUND, 1),
    ("Attack Ground Convoy", GROUND, 1),
    ("Attack Forward Elements", GROUND, 1),
    ("Support Para-drop", GROUND, 1),
    ("Soften Up Enemy Positions", GROUND, 1),
    ("Attack Merchant Shipping", GROUND, 1),
    ("Attack Sub in Coastal Waters", GROUND, 1),
    ("Attack Vehicle Column", GROUND, 1),
    ("Attack Troop Train", GROUND, 1),
    ("Support Infantry Advance", GROUND, 1),
    ("Attack Troop Concentration", GROUND, 1),
    ("Tank Busting Mission", GROUND, 1),
    ("Support Armored Column", GROUND, 1),
    ("Attack City", STRATEGIC, 3),
    ("Major Raid", STRATEGIC, 2),
    ("Attack Shipyard", STRATEGIC, 1),
    ("Attack Oilfield", STRATEGIC, 1),
    ("Attack Ball Bearing Factory", STRATEGIC, 1),
    ("Attack Electric Dam", STRATEGIC, 1),
    ("Attack Strategic Bridge", STRATEGIC, 1),
    ("Attack Railyard", STRATEGIC, 1),
    ("Attack Shipyard", STRATEGIC, 1),
    ("Attack Port", STRATEGIC, 1),
    ("Attack Petroleum Plant", STRATEGIC, 1),
    ("Attack Refinery", STRATEGIC, 1),
    ("Attack Headquarters", STRATEGIC, 1),
    ("Attack Airfield", STRATEGIC, 1),
    ("Attack Bunker", STRATEGIC, 1),
    ("Attack Radar Towers", STRATEGIC, 1),
    ("Deploy Commandos", ESPIONAGE, 0),
    ("Drop Off Saboteurs", ESPIONAGE, 0),
    ("Pick Up Spy", ESPIONAGE, 0),
    ("Photo Reconnaissance", ESPIONAGE, 0),
    ("Deliver Message", ESPIONAGE, 0),
    ("Decoy Mission", ESPIONAGE, 0),
    ("Retrieve High Ranking Prisoner", ESPIONAGE, 0),
    ("Transport Top Secret Plans", ESPIONAGE, 0),
    ("Retrieve Stolen Blueprints", ESPIONAGE, 0),
    ("Resupply Paratroopers", ESPIONAGE, 0),
    ("Transport General", ESPIONAGE, 0),
)

MISSIONS: tuple[MissionSpec, ...] = tuple(MissionSpec(n, k, lv) for n, k, lv in MISSION_LIST)

# 003 "EVENT DECK CARD LIST" -- every card, in the order listed (one copy each),
# with the card's own note. Effects, timing and targets: EVENT_RULES below.
EVENT_LIST: tuple[tuple[str, str], ...] = (
    ("Fighter Escort", "Enemy Planes get AF-1"),
    ("Daring Low Level Raid", "Non-Heavy Bomber gets SF+1"),
    ("Inclement Weather", "All Force Rolls by all Planes at -1"),
    ("Overcast", "All Force Rolls by all Planes at -1"),
    ("Saturation Bombing", "Heavy Bombers get SF+2"),
    ("Carpet Bombing", "Heavy Bombers get SF+2"),
    ("Incendiary Bombs", "Bomber gets SF+2"),
    ("High Explosive Bombs", "Bomber gets GF+2"),
    ("Exceed Quotas", "Draw and put in play 1 Plane card"),
    ("Increase Tempo", "Draw and put in play 1 Mission card"),
    ("Industrialization", "Gain 1 PP"),
    ("Pilot Training", "Give 3 planes 1 XP each"),
    ("Superior Tactics", "All your Fighters get AF +1"),
    ("Chaff", "Defending Enemy Fighters get AF-2"),
    ("Storm", "Discard target Mission"),
    ("Navigation Error", "Target Plane cannot go on a Mission this turn"),
    ("Out of the Sun", "Fighter gets AF+2"),
    ("Surprise", "Defending Enemy Fighter gets AF-3"),
    ("Precision Bombsights", "Bomber gets SF or GF +1"),
    ("Decoy Target", "Discard target Mission"),
    ("Rockets", "Plane gets AF+1 or GF+1"),
    ("Radar Towers", "Defending Fighters get AF+1"),
    ("Night Raid", "All your Bombers get SF+1"),
    ("Daylight Raid", "All your Bombers get GF+1"),
    ("Heavy Flak", "Get an extra Flak Roll"),
    ("Air Defense", "Get an extra Flak Roll"),
    ("Dogfight", "All Fighters get AF+1"),
    ("Set Piece Attack", "All your Bombers get SF+1"),
    ("Pathfinder", "All your Bombers get SF+1"),
    ("Strafing Runs", "Plane gets GF+2"),
    ("Round the Clock Sorties", "Draw and put in play 1 Mission card"),
    ("Boost Production", "Gain 1 PP"),
    ("Series of Blunders", "Discard target Mission"),
    ("Scramble", "Defending Fighters get AF+1"),
)

# Effect, timing and target of every event card (003 "EVENT DECK CARD LIST").
#
# Each card's printed note is turned into an :class:`EventRule`. The rulings
# behind each line are recorded in ``docs/rulings.md`` (section "Strategic card
# game"). Vocabulary:
#
# * ``player`` -- who may play it: ``own_turn`` (the side whose turn it is, in a
#   phase step, not during a mission), ``attacker`` / ``defender`` (in a window of
#   the mission being resolved), ``either`` (either side, in a mission window).
# * ``effect`` -- ``modifier`` (a roll modifier for the rest of the current
#   mission), ``draw_plane``, ``draw_mission``, ``gain_pp``, ``pilot_training``,
#   ``discard_mission``, ``ground_plane``, ``extra_flak``.
# * ``force`` -- the roll it changes: ``af`` (air attack), ``sf``, ``gf``,
#   ``payload`` (SF on a strategic mission, GF on a ground support mission),
#   ``all`` (every force roll), ``af_or_gf`` (the player chooses).
# * ``scope`` -- which planes, relative to the side playing it: ``target`` (one
#   plane, the action's target), ``own_fighters``, ``own_bombers``,
#   ``own_heavy``, ``enemy_planes``, ``enemy_fighters``, ``all_fighters``,
#   ``all_planes``.
# * ``target`` -- what the action must name: ``own_plane``, ``enemy_plane``,
#   ``mission`` or nothing; ``target_filter`` narrows a plane target to
#   ``fighter``, ``bomber`` or ``non_heavy_bomber``.


@dataclass(frozen=True, slots=True)
class EventRule:
    """What playing an event card does, when and at what (see below)."""

    name: str
    effect: str
    player: str
    force: str = ""
    amount: int = 0
    scope: str = ""
    target: str = ""
    target_filter: str = ""


def _mod(
    name: str,
    player: str,
    force: str,
    amount: int,
    scope: str,
    target: str = "",
    target_filter: str = "",
) -> EventRule:
    return EventRule(name, "modifier", player, force, amount, scope, target, target_filter)


EVENT_RULES: dict[str, EventRule] = {
    r.name: r
    for r in (
        # "Enemy Planes get AF-1": the escorting side (either side may play it)
        # gives every opposing plane on the mission -1 to its air attack roll.
        _mod("Fighter Escort", "either", "af", -1, "enemy_planes"),
        _mod(
            "Daring Low Level Raid", "attacker", "sf", +1, "target", "own_plane", "non_heavy_bomber"
        ),
        _mod("Inclement Weather", "either", "all", -1, "all_planes"),
        _mod("Overcast", "either", "all", -1, "all_planes"),
        _mod("Saturation Bombing", "attacker", "sf", +2, "own_heavy"),
        _mod("Carpet Bombing", "attacker", "sf", +2, "own_heavy"),
        _mod("Incendiary Bombs", "attacker", "sf", +2, "target", "own_plane", "bomber"),
        _mod("High Explosive Bombs", "attacker", "gf", +2, "target", "own_plane", "bomber"),
        EventRule("Exceed Quotas", "draw_plane", "own_turn"),
        EventRule("Increase Tempo", "draw_mission", "own_turn"),
        EventRule("Industrialization", "gain_pp", "own_turn", amount=1),
        EventRule("Pilot Training", "pilot_training", "own_turn", amount=3),
        _mod("Superior Tactics", "either", "af", +1, "own_fighters"),
        _mod("Chaff", "attacker", "af", -2, "enemy_fighters"),
        EventRule("Storm", "discard_mission", "defender", target="mission"),
        EventRule("Navigation Error", "ground_plane", "defender", target="enemy_plane"),
        _mod("Out of the Sun", "either", "af", +2, "target", "own_plane", "fighter"),
        _mod("Surprise", "attacker", "af", -3, "target", "enemy_plane", "fighter"),
        _mod("Precision Bombsights", "attacker", "payload", +1, "target", "own_plane", "bomber"),
        EventRule("Decoy Target", "discard_mission", "defender", target="mission"),
        _mod("Rockets", "either", "af_or_gf", +1, "target", "own_plane"),
        _mod("Radar Towers", "defender", "af", +1, "own_fighters"),
        _mod("Night Raid", "attacker", "sf", +1, "own_bombers"),
        _mod("Daylight Raid", "attacker", "gf", +1, "own_bombers"),
        EventRule("Heavy Flak", "extra_flak", "defender", amount=1),
        EventRule("Air Defense", "extra_flak", "defender", amount=1),
        _mod("Dogfight", "either", "af", +1, "all_fighters"),
        _mod("Set Piece Attack", "attacker", "sf", +1, "own_bombers"),
        _mod("Pathfinder", "attacker", "sf", +1, "own_bombers"),
        _mod("Strafing Runs", "attacker", "gf", +2, "target", "own_plane"),
        EventRule("Round the Clock Sorties", "draw_mission", "own_turn"),
        EventRule("Boost Production", "gain_pp", "own_turn", amount=1),
        EventRule("Series of Blunders", "discard_mission", "defender", target="mission"),
        _mod("Scramble", "defender", "af", +1, "own_fighters"),
    )
}


# 003 "PRODUCTION PHASE": PP score -> plane cards drawn.
PRODUCTION_TABLE: tuple[tuple[int, int], ...] = ((21, 6), (15, 5), (10, 4), (6, 3), (3, 2), (1, 1))


def production_draws(pp: int) -> int:
    """003 "PRODUCTION PHASE" table: PP 1/3/6/10/15/21+ -> 1..6 cards (0 below 1 PP)."""
    for threshold, cards in PRODUCTION_TABLE:
        if pp >= threshold:
            return cards
    return 0


# 003 "EXPERIENCE PHASE": XM 0 Green, 2 +1 Flier, 5 +2 Veteran, 9+ +3 Ace.
def experience_bonus(xm: int) -> int:
    if xm >= 9:
        return 3
    if xm >= 5:
        return 2
    if xm >= 2:
        return 1
    return 0


def experience_rank(xm: int) -> str:
    return ("Green", "Flier", "Veteran", "Ace")[experience_bonus(xm)]

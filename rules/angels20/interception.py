"""A card-game interception flown by the engine: placement and the card game's effects.

003 "INTERCEPTION SEGMENT" hands the engine the planes of one mission: the
attackers (bombers and escorts) against the scrambled defenders. This module
builds the engine's :class:`~rules.angels20.scenario.Scenario` for them, pure
data in, pure data out:

* **Formation** (ruling "Engine engagements: formation and map size"): each
  side flies in ranks of up to :data:`RANK_SIZE` aircraft two hexes apart,
  ranks two rows apart and staggered by one column; the attackers' front rank
  at row 19 heading north at altitude 3, the defenders' at row 2 heading south
  at altitude 4, further ranks behind each. The map (000 "THE BATTLE MAP",
  16 x 22) grows two rows per extra rank, so one rank a side -- every
  engagement of up to seven planes a side -- is placed exactly as before.
  003 sets no cap on a mission's size; fifteen a side is three ranks.
* **The card game's effects** (the ``effects`` of
  :func:`rules.cardgame.effects.engagement_effects`), each read as the closest
  rule of 000 (rulings "Engine engagements: the card game's effects" in
  docs/rulings.md): the flak roll as a d10 at AF 7 before the battle
  (:class:`~rules.angels20.scenario.CardFlak`), defending night fighters and
  every event card that changes an interception as a change of the set-up,
  and the NF mark as the Night Fighter ability.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .scenario import DEFAULT_HEIGHT, DEFAULT_WIDTH, AircraftSetup, CardFlak, Scenario, custom
from .stats import PILOT_QUALITIES, PILOT_RANK, AircraftStats, Rules

RANK_SIZE = (DEFAULT_WIDTH - 2) // 2  # columns 2, 4, ..., 14: seven a rank
RANK_GAP = 2  # rows between ranks
ATTACKER_ROW, DEFENDER_ROW = DEFAULT_HEIGHT - 3, 2
ATTACKER_ALT, DEFENDER_ALT = 3, 4
NORTH, SOUTH = 0, 3
CLOSE_IN = 3  # rows a formation moves forward for Dogfight / Scramble
MIN_SEPARATION = 5  # rows between the front ranks, whatever the cards
# Overcast: the cloudiest sky of 000 "RANDOM CLOUD ARRANGEMENT" (a roll of 1).
OVERCAST_BANDS = ("light", "solid", "heavy", "heavy", "light", "clear")
WEATHER_TURNS = 2  # Inclement Weather: the fight is this many game turns shorter
NIGHT_FIGHTER = "Night Fighter"


@dataclass(frozen=True, slots=True)
class Entrant:
    """One plane of the mission as the engine flies it.

    ``fighter`` is the card game's class (003 "PLANE DECK CARD NOTATION":
    F or FB), which the event cards' scopes name; ``experience`` (experience
    markers) orders the flak's victims as the card game's default loss does.
    """

    plane_id: str
    side: str
    stats: AircraftStats
    pilot: str = "average"
    fighter: bool = True
    experience: int = 0


@dataclass(slots=True)
class _Place:
    """A plane's set-up while the effects are applied (mutable, then frozen)."""

    entrant: Entrant
    col: int
    row: int
    facing: int
    alt: int
    pilot: str
    stats: AircraftStats

    def setup(self) -> AircraftSetup:
        stats = self.stats
        return AircraftSetup(
            stats=stats, side=self.entrant.side, col=self.col, row=self.row,
            facing=self.facing, altitude=max(1, min(6, self.alt)), pilot=self.pilot,
            pilot_ref=f"plane:{self.entrant.plane_id}", role="bomber" if stats.is_bomber else "",
        )  # fmt: skip


def _events(effects: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [e for e in effects.get("events", ()) if e["name"] == name]


def _ranks(groups: Sequence[Sequence[Entrant]]) -> list[list[Entrant]]:
    out: list[list[Entrant]] = []
    for group in groups:
        out.extend(list(group[i : i + RANK_SIZE]) for i in range(0, len(group), RANK_SIZE))
    return out


def _formations(
    attackers: Sequence[Entrant], defenders: Sequence[Entrant], effects: dict[str, Any]
) -> tuple[dict[str, _Place], int]:
    """Every plane's slot (ruling "Engine engagements: formation and map size"), and the map height.

    Fighter Escort played by the attacker puts the attacking fighters in the
    front rank(s), ahead of the bombers (000 "BOMBER ESCORT SCENARIO" 'SETUP'
    sets the escorts ahead of the bombers). Dogfight brings both formations
    and Scramble the defenders' forward by :data:`CLOSE_IN` rows.
    """
    attacker = attackers[0].side
    escorted = any(e["side"] == attacker for e in _events(effects, "Fighter Escort"))
    groups = [[a for a in attackers if a.fighter], [a for a in attackers if not a.fighter]]
    a_ranks = _ranks([g for g in groups if g] if escorted else [attackers])
    d_ranks = _ranks([defenders])
    extra_d, extra_a = len(d_ranks) - 1, len(a_ranks) - 1
    height = DEFAULT_HEIGHT + RANK_GAP * (extra_d + extra_a)
    a_front = ATTACKER_ROW + RANK_GAP * extra_d
    d_front = DEFENDER_ROW + RANK_GAP * extra_d
    dogfight = len(_events(effects, "Dogfight"))
    scramble = len(_events(effects, "Scramble"))
    a_shift = CLOSE_IN * dogfight
    d_shift = CLOSE_IN * (dogfight + scramble)
    while a_front - a_shift - (d_front + d_shift) < MIN_SEPARATION and (a_shift or d_shift):
        if d_shift >= a_shift:
            d_shift -= 1
        else:
            a_shift -= 1
    places: dict[str, _Place] = {}
    for front, ranks, step, facing, alt in (
        (a_front - a_shift, a_ranks, RANK_GAP, NORTH, ATTACKER_ALT),
        (d_front + d_shift, d_ranks, -RANK_GAP, SOUTH, DEFENDER_ALT),
    ):
        for k, rank in enumerate(ranks):
            for i, e in enumerate(rank):
                col = 2 + 2 * i + (k % 2)
                places[e.plane_id] = _Place(e, col, front + k * step, facing, alt, e.pilot, e.stats)
    if escorted:  # the escorts fly top cover, level with the interceptors
        for a in attackers:
            if a.fighter:
                places[a.plane_id].alt += 1
    return places, height


def _better(pilot: str) -> str:
    """One pilot quality better (000 "AIRCRAFT STATS": Poor, Average, Veteran, Ace)."""
    return PILOT_QUALITIES[min(PILOT_RANK[pilot] + 1, len(PILOT_QUALITIES) - 1)]


def _apply_events(places: dict[str, _Place], effects: dict[str, Any], defender: str) -> None:
    """Each interception event card and the defending night fighters, as the rulings read them."""
    for pid in effects.get("defending_night_fighters", ()):
        if pid in places:  # 003: "Defending Night Fighters get AF +1"
            places[pid].pilot = _better(places[pid].pilot)
    for pid in effects.get("night_fighters", ()):
        p = places.get(pid)
        if p is not None and NIGHT_FIGHTER not in p.stats.abilities:
            p.stats = replace(p.stats, abilities=(*p.stats.abilities, NIGHT_FIGHTER))
    for ev in effects.get("events", ()):
        name, side, target = ev["name"], ev["side"], ev.get("target")
        planes = list(places.values())
        if name == "Superior Tactics":  # "All your Fighters get AF +1"
            for p in planes:
                if p.entrant.side == side and p.entrant.fighter:
                    p.pilot = _better(p.pilot)
        elif name == "Radar Towers":  # "Defending Fighters get AF+1"
            for p in planes:
                if p.entrant.side == defender and p.entrant.fighter:
                    p.alt += 1
        elif name == "Chaff":  # "Defending Enemy Fighters get AF-2"
            for p in planes:
                if p.entrant.side == defender and p.entrant.side != side and p.entrant.fighter:
                    p.alt -= 2
        elif name == "Fighter Escort" and side == defender:  # top cover
            fighters = [p for p in planes if p.entrant.side == side and p.entrant.fighter]
            for p in fighters[1::2]:
                p.alt += 1
        elif target in places:
            _apply_targeted(places[target], name, ev.get("force", "af"))


def _apply_targeted(p: _Place, name: str, force: str) -> None:
    if name == "Out of the Sun":  # "Fighter gets AF+2": two bands above its formation
        p.alt += 2
    elif name == "Surprise":  # "Defending Enemy Fighter gets AF-3": caught facing away
        p.facing = (p.facing + 3) % 6
    elif name == "Rockets" and force == "af":  # "Plane gets AF+1": one more die at range 1
        a1, a2, a3 = p.stats.attack
        p.stats = replace(p.stats, attack=(a1 + 1, a2, a3))


def _weather(rules: Rules, effects: dict[str, Any]) -> Rules:
    """Overcast: the overcast sky's cloud bands; Inclement Weather: the chart rolled, 2 turns fewer."""
    overcast = bool(_events(effects, "Overcast"))
    inclement = bool(_events(effects, "Inclement Weather"))
    if overcast:
        rules = replace(rules, clouds=OVERCAST_BANDS, random_clouds=False)
    elif inclement:
        rules = replace(rules, clouds=(), random_clouds=True)
    if inclement:
        rules = replace(rules, max_turns=max(1, rules.max_turns - WEATHER_TURNS))
    return rules


def flak_targets(attackers: Sequence[Entrant]) -> tuple[int, ...]:
    """The attackers in the order the flak takes them: fewest experience markers
    first, ties in mission order (the card game's default loss, 003 "INTERCEPTION
    SEGMENT": the owner chooses; the engine has nobody to ask)."""
    order = sorted(range(len(attackers)), key=lambda i: attackers[i].experience)
    return tuple(order)


def interception_scenario(
    attackers: Sequence[Entrant],
    defenders: Sequence[Entrant],
    *,
    effects: dict[str, Any] | None = None,
    rules: Rules | None = None,
    name: str = "Interception",
    territory: tuple[str, str] = ("neutral", "neutral"),
) -> Scenario:
    """The engine's scenario of one interception, with the card game's effects applied."""
    if not attackers or not defenders:
        raise ValueError("an interception needs attackers and defenders")
    effects = effects or {}
    places, height = _formations(attackers, defenders, effects)
    _apply_events(places, effects, defenders[0].side)
    rules = _weather(rules or Rules(), effects)
    rolls = int(effects.get("flak_rolls", 0))
    flak = (
        CardFlak(rolls=rolls, af=int(effects.get("flak_af", 7)), targets=flak_targets(attackers))
        if rolls
        else None
    )
    order = [*attackers, *defenders]
    return custom(
        [places[e.plane_id].setup() for e in order],
        rules=rules, width=DEFAULT_WIDTH, height=height, name=name,
        territory=territory, card_flak=flak,
    )  # fmt: skip

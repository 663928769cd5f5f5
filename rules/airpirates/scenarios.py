"""*Air Pirates* scenarios the product offers, and a campaign's engagement as a scenario.

The new-battle page and ``POST /api/battles/create/`` list :data:`SCENARIOS` (key to
title; ``battles/other_games.py``); :func:`scenario` builds one. A campaign flown under
*Air Pirates* has its engagements built by :func:`campaign_engagement` from the card
game's mission (its bombers and escorts against the interceptors scrambled), each plane
flying the control card of its card-game name (``rules/catalog/airpirates_cards.csv``;
ruling "Air Pirates: a campaign's engagement").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .units import QUALITIES, SIDES, catalog_card

BASIC = "002 [2]"
# the card that flies each aircraft named in the scenarios (the catalog is keyed by the
# card game's names; "Bf 109E Wingman" and "Bf 109E Ace" are one aircraft, one card)
BF_109E, SPITFIRE_I, HURRICANE_I = "Bf 109E Wingman", "Spitfire Mk I Ace", "Hurricane Mk I"

SCENARIOS: dict[str, str] = {
    "basic": "Basic game: two Bf 109E against two Spitfire Mk I (002 [2])",
    "fighters": (
        "Two against two: a Bf 109E ace and his wingman against a Spitfire Mk I and a "
        "Hurricane Mk I, with point values and bailing out (002 [14], 13c)"
    ),
}


def _unit(side: str, name: str, card: str, quality: str, *, altitude: int) -> dict[str, Any]:
    values = catalog_card(card)
    return {
        "side": side, "name": name, "card": values, "quality": quality,
        "speed": values["level_speed"], "altitude": min(altitude, values["max_altitude"]),
    }  # fmt: skip


def scenario(key: str, seed: int = 0) -> dict[str, Any]:
    """The scenario ``key`` of :data:`SCENARIOS` (``KeyError`` for another); the seed is
    not needed: 2a's competitive roll and every die come from the battle's own seed."""
    if key == "basic":
        # 2b: two identical air units a side; 2d: the speed and altitude marked in the
        # "1" boxes (level speed; altitude 3 for both, as the bench's basic games)
        units = [
            _unit(side, f"{name} #{n}", card, "average", altitude=3)
            for side, name, card in (("axis", "Bf 109E", BF_109E),
                                     ("allied", "Spitfire Mk I", SPITFIRE_I))
            for n in (1, 2)
        ]  # fmt: skip
        return {"name": SCENARIOS["basic"], "units": units}
    if key == "fighters":
        units = [
            _unit("axis", "Bf 109E (ace)", BF_109E, "ace", altitude=4),
            _unit("axis", "Bf 109E (wingman)", BF_109E, "average", altitude=4),
            _unit("allied", "Spitfire Mk I", SPITFIRE_I, "experienced", altitude=3),
            _unit("allied", "Hurricane Mk I", HURRICANE_I, "average", altitude=3),
        ]
        return {"name": SCENARIOS["fighters"], "units": units, "options": ["bailout", "points"]}
    raise KeyError(key)


# -- a campaign's engagement ----------------------------------------------------------
ENGAGEMENT = "docs/rulings.md 'Air Pirates: a campaign's engagement'"
ATTACKER_ALTITUDE, INTERCEPTOR_ALTITUDE = 3, 4  # as Angels 20's engine engagements
# the quality a campaign entrant brings: Angels 20's words (``engine_quality``) read back
# by ruling "Air Pirates: effects and Angels 20 mapping"; 002's own five kept as they are
FROM_ANGELS20 = {"poor": "green", "average": "average", "veteran": "experienced", "ace": "ace"}
# the options of a campaign's engagement: 13c1 bailing out and 14's point values, so the
# 002 bail-out and victory-point rules apply as written to the pilots' careers
CAMPAIGN_OPTIONS = ["bailout", "points"]


def entrant_quality(quality: Any) -> str:
    """002 14b's quality of a campaign entrant's pilot."""
    if quality in QUALITIES:
        return str(quality)
    return FROM_ANGELS20.get(str(quality), "average")


def ground_of(territory: dict[str, str]) -> str:
    """Whose ground the battle is fought over (13c2), from each side's territory
    ("friendly", "enemy" or "neutral", as campaign engagements give it)."""
    for side in SIDES:
        if territory.get(side) == "friendly":
            return side
    return "neutral"


def campaign_engagement(
    attackers: Sequence[dict[str, Any]],
    defenders: Sequence[dict[str, Any]],
    *,
    name: str,
    turns: int,
    territory: dict[str, str],
    effects: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The scenario of a campaign's engagement: the mission's bombers and escorts (at
    altitude 3) against the interceptors (altitude 4), each at its level speed (2d) and
    placed on an edge hex by its side in the set-up (2f); every pilot's quality (14b) and
    ``pilot_ref``. 002 [8] ends the game after the eighth turn whatever ``turns`` says;
    the card game's flak and event cards (``effects``) have no rule in 002 and are not
    flown (the ruling). A plane whose card-game name has no control card is refused
    (``KeyError`` naming it)."""
    units = []
    for entrant, altitude in [(a, ATTACKER_ALTITUDE) for a in attackers] + [
        (d, INTERCEPTOR_ALTITUDE) for d in defenders
    ]:
        unit = _unit(
            str(entrant["side"]), str(entrant["aircraft"]), str(entrant["aircraft"]),
            entrant_quality(entrant.get("quality")), altitude=altitude,
        )  # fmt: skip
        unit["pilot_ref"] = str(entrant.get("pilot_ref") or "")
        units.append(unit)
    return {
        "name": name, "units": units, "options": list(CAMPAIGN_OPTIONS),
        "ground": ground_of(territory),
    }  # fmt: skip

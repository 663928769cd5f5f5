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

from .interception import apply_effects
from .units import QUALITIES, SIDES, SetupError, card_for, catalog_names
from .victory import QUALITY_POINTS

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
    "built": (
        "Point-built flights: each side chooses its aircraft and their pilots' qualities, "
        "the qualities changing the points (002 [14])"
    ),
    "bounce": (
        "The bounce: the basic game with spotting, the sun, and each pair flying straight "
        "and level, unseen, until it makes a tally (002 15b, 9a1.7, 9f)"
    ),
}

Cards = dict[str, dict[str, Any]]


def _unit(
    side: str, name: str, card: str, quality: str, *, altitude: int, cards: Cards | None = None
) -> dict[str, Any]:
    """A unit flying the card of the aircraft ``card``: the scenario's ``cards`` (the
    roster's, as organisers edited them) over the catalog's; embedded, so a replay after a
    later edit flies the same card."""
    values = card_for(card, cards)
    return {
        "side": side, "name": name, "aircraft": card, "card": values, "quality": quality,
        "speed": values["level_speed"], "altitude": min(altitude, values["max_altitude"]),
    }  # fmt: skip


def scenario(
    key: str,
    seed: int = 0,
    *,
    cards: Cards | None = None,
    flights: Any = None,
    settings: Any = None,
) -> dict[str, Any]:
    """The scenario ``key`` of :data:`SCENARIOS` (``KeyError`` for another); the seed is
    not needed: 2a's competitive roll and every die come from the battle's own seed.
    ``cards`` (aircraft name to control card, e.g. the roster's) fly over the catalog's;
    ``flights`` and ``settings`` are the point-built scenario's (:func:`scenario_form`),
    refused by a :class:`SetupError` naming the field."""
    cards = dict(cards or {})  # each checked as it is flown (units.card_for)
    if key == "built":
        return built_flights(flights, settings, cards=cards)
    if key == "bounce":  # 9f: the basic game with spotting (15b) and the bounce
        return {**scenario("basic", seed, cards=cards), "name": SCENARIOS["bounce"],
                "options": ["bounce", "spotting"]}  # fmt: skip
    if key == "basic":
        # 2b: two identical air units a side; 2d: the speed and altitude marked in the
        # "1" boxes (level speed; altitude 3 for both, as the bench's basic games)
        units = [
            _unit(side, f"{name} #{n}", card, "average", altitude=3, cards=cards)
            for side, name, card in (("axis", "Bf 109E", BF_109E),
                                     ("allied", "Spitfire Mk I", SPITFIRE_I))
            for n in (1, 2)
        ]  # fmt: skip
        return {"name": SCENARIOS["basic"], "units": units}
    if key == "fighters":
        units = [
            _unit("axis", "Bf 109E (ace)", BF_109E, "ace", altitude=4, cards=cards),
            _unit("axis", "Bf 109E (wingman)", BF_109E, "average", altitude=4, cards=cards),
            _unit("allied", "Spitfire Mk I", SPITFIRE_I, "experienced", altitude=3, cards=cards),
            _unit("allied", "Hurricane Mk I", HURRICANE_I, "average", altitude=3, cards=cards),
        ]
        return {"name": SCENARIOS["fighters"], "units": units, "options": ["bailout", "points"]}
    raise KeyError(key)


# -- point-built flights (002 [14]) -------------------------------------------------
SELECTION = "002 '14a'"  # "a 'selection point value' ... when setting up a scenario"
QUALITY_RULE = "002 '14b'"
SLOTS = 4  # air units a side may build (ruling "Air Pirates: point-built flights")
BUILT_ALTITUDE = 3  # as the basic game's (ruling "Air Pirates: the product's scenarios")
BUDGET_MAX = 400


def selection_points(card: dict[str, Any], quality: str) -> int:
    """14a, 14b: the selection point value of an air unit with this pilot."""
    return int(card["point_value"]) + QUALITY_POINTS[quality]


def _choosable(cards: Cards) -> list[str]:
    """Every aircraft with a control card: the catalog's and 002's named ones, and the
    scenario's own (the roster's)."""
    return sorted(set(catalog_names()) | set(cards))


def _quality_label(quality: str) -> str:
    """ "ace (+2 points)", "inexperienced (-1 point)", "average" (14b)."""
    points = QUALITY_POINTS[quality]
    if not points:
        return quality
    return f"{quality} ({points:+d} point{'s' if abs(points) > 1 else ''})"


def scenario_form(key: str, cards: Cards | None = None) -> dict[str, Any] | None:
    """What the new-battle page asks for scenario ``key`` beyond its name (None: nothing):
    for the point-built flights, up to :data:`SLOTS` slots a side, each an aircraft and its
    pilot's quality, a unit's points being the aircraft's plus the quality's (14a, 14b);
    and the optional budget of points per side."""
    if key != "built":
        return None
    cards = dict(cards or {})  # checked when a battle is built (a 400 naming the field)
    aircraft = []
    for name in _choosable(cards):
        try:
            points = int(card_for(name, cards)["point_value"])
        except SetupError:
            continue  # a roster card with a problem is not offered (a battle refuses it)
        aircraft.append({"value": name, "label": f"{name} ({points} points)", "points": points})
    qualities = [
        {"value": q, "label": _quality_label(q), "points": QUALITY_POINTS[q]} for q in QUALITIES
    ]
    return {
        "flights": {
            "slots": SLOTS, "aircraft": aircraft, "qualities": qualities,
            "default_quality": "average", "rule": SELECTION,
        },
        "settings": [{
            "name": "budget", "label": "Points per side",
            "help": "empty: no limit; with a budget each side builds at most that many "
                    "points and both sides the same value (002 14a)",
            "kind": "int", "min": 1, "max": BUDGET_MAX,
        }],
    }  # fmt: skip


def _budget(settings: Any) -> int | None:
    if settings in (None, {}):
        return None
    if not isinstance(settings, dict):
        raise SetupError(
            "the scenario's settings are an object", field="settings.scenario_settings"
        )
    for key in settings:
        if key != "budget":
            raise SetupError(
                "the point-built flights take only a budget",
                field=f"settings.scenario_settings.{key}",
            )
    budget = settings.get("budget")
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= BUDGET_MAX:
        raise SetupError(
            f"the budget is a whole number of points from 1 to {BUDGET_MAX}",
            field="settings.scenario_settings.budget", rule=SELECTION,
        )  # fmt: skip
    return budget


def _slot(side: str, i: int, entry: Any, cards: Cards) -> tuple[str, str, dict[str, Any]]:
    where = f"flights.{side}[{i}]"
    if not isinstance(entry, dict):
        raise SetupError("each air unit is an object {aircraft, quality}", field=where)
    name = entry.get("aircraft")
    if not isinstance(name, str) or name not in _choosable(cards):
        raise SetupError(
            f"{name!r} has no Air Pirates control card: choose an aircraft from the list",
            field=f"{where}.aircraft",
        )
    quality = entry.get("quality", "average")
    if quality not in QUALITIES:
        raise SetupError(
            f"a pilot's quality is one of {', '.join(QUALITIES)}",
            field=f"{where}.quality", rule=QUALITY_RULE,
        )  # fmt: skip
    return name, str(quality), card_for(name, cards)


def built_flights(flights: Any, settings: Any, *, cards: Cards | None = None) -> dict[str, Any]:
    """The point-built scenario: each side's air units as chosen (aircraft and pilot
    quality) at level speed and altitude 3, with 14's point values (changed by 14b's
    qualities) and 13c's bailing out. With a budget each side's selection points are at
    most the budget and the two sides' equal (ruling "Air Pirates: point-built flights")."""
    cards = dict(cards or {})  # each checked as it is flown (units.card_for)
    budget = _budget(settings)
    if not isinstance(flights, dict) or set(flights) != set(SIDES):
        raise SetupError("give a flight for the axis and for the allied side", field="flights")
    units, totals = [], {}
    for side in SIDES:
        chosen = flights[side]
        if not isinstance(chosen, list) or not 1 <= len(chosen) <= SLOTS:
            raise SetupError(f"a side builds one to {SLOTS} air units", field=f"flights.{side}")
        totals[side] = 0
        for i, entry in enumerate(chosen):
            name, quality, card = _slot(side, i, entry, cards)
            totals[side] += selection_points(card, quality)
            label = f"{name} #{i + 1}" + ("" if quality == "average" else f" ({quality})")
            units.append(_unit(side, label, name, quality, altitude=BUILT_ALTITUDE, cards=cards))
    if budget is not None:
        for side in SIDES:
            if totals[side] > budget:
                raise SetupError(
                    f"the {side} flight is worth {totals[side]} points, over the budget of "
                    f"{budget}", field=f"flights.{side}", rule=SELECTION,
                )  # fmt: skip
        if len(set(totals.values())) > 1:
            worth = " and ".join(f"{totals[s]} ({s})" for s in SIDES)
            raise SetupError(
                f"the flights are worth {worth} points: with a budget both sides build the "
                "same value (a pilot's quality changes a unit's points)",
                field=f"flights.{SIDES[1]}", rule=SELECTION,
            )  # fmt: skip
    name = SCENARIOS["built"].split(":")[0]
    if budget is not None:
        name += f", {budget} points a side"
    out = {"name": name, "units": units, "options": ["bailout", "points"]}
    return out


# -- a campaign's engagement ----------------------------------------------------------
ENGAGEMENT = "docs/rulings.md 'Air Pirates: a campaign's engagement'"
ATTACKER_ALTITUDE, INTERCEPTOR_ALTITUDE = 3, 4  # as Angels 20's engine engagements
# the quality a campaign entrant brings: a pilot of the careers' "air_pirates" scale flies
# his own (002 14b's five); another scale's comes as Angels 20's word (``engine_quality``)
# read back by ruling "Air Pirates: effects and Angels 20 mapping"
OWN_SCALE = "air_pirates"
FROM_ANGELS20 = {"poor": "green", "average": "average", "veteran": "experienced", "ace": "ace"}
# the options of a campaign's engagement: 13c1 bailing out and 14's point values, so the
# 002 bail-out and victory-point rules apply as written to the pilots' careers
CAMPAIGN_OPTIONS = ["bailout", "points"]
BOMBER_OPTION = "bombers"  # 002 [20], when the mission has bombers


def entrant_quality(entrant: dict[str, Any]) -> str:
    """002 14b's quality of a campaign entrant's pilot: his own where his scale is 002's
    (``pilot_quality`` {"scale", "quality"}), else his ``quality`` read back from Angels
    20's word (ruling "Air Pirates: a campaign's engagement")."""
    own = entrant.get("pilot_quality")
    if isinstance(own, dict) and own.get("scale") == OWN_SCALE and own.get("quality") in QUALITIES:
        return str(own["quality"])
    quality = entrant.get("quality")
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
    cards: Cards | None = None,
) -> dict[str, Any]:
    """The scenario of a campaign's engagement: the mission's bombers and escorts (at
    altitude 3) against the interceptors (altitude 4), each at its level speed (2d) and
    placed on an edge hex by its side in the set-up (2f); every pilot's quality (14b) and
    ``pilot_ref``. 002 [8] ends the game after the eighth turn whatever ``turns`` says;
    the card game's flak and event cards (``effects``) change the set-up by the closest
    rule of 002 (``interception.py``). Each plane flies its card in ``cards`` (the
    roster's), else the catalog's; a plane with neither is refused (``KeyError`` naming
    it)."""
    cards = dict(cards or {})  # each checked as it is flown (units.card_for)
    units = []
    for entrant, altitude in [(a, ATTACKER_ALTITUDE) for a in attackers] + [
        (d, INTERCEPTOR_ALTITUDE) for d in defenders
    ]:
        unit = _unit(
            str(entrant["side"]), str(entrant["aircraft"]), str(entrant["aircraft"]),
            entrant_quality(entrant), altitude=altitude, cards=cards,
        )  # fmt: skip
        unit["pilot_ref"] = str(entrant.get("pilot_ref") or "")
        units.append(unit)
    # [20]: a mission with bombers (a card naming a bomber class) flies them under the
    # bomber rules (ruling "Air Pirates: bombers in a campaign's engagement")
    bombers = any(u["card"].get("bomber_class", "none") != "none" for u in units)
    built = {
        "name": name, "units": units, "ground": ground_of(territory),
        "options": list(CAMPAIGN_OPTIONS) + ([BOMBER_OPTION] if bombers else []),
    }  # fmt: skip
    # the card game's flak and event cards (ruling "Air Pirates engagements: the card
    # game's effects"); none: the scenario as built
    return apply_effects(built, attackers, defenders, effects)

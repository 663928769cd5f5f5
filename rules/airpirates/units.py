"""*Air Pirates* scenarios and the air units in play (002 [2], '3d3', '3e', [14]).

A scenario names the board and each air unit: its side, control card (the values of
``rules.airpirates.card``), pilot quality (14b) and the speed and altitude marked in
its "1" boxes (2d). The catalog's estimated cards (``rules/catalog/airpirates_cards.csv``)
give any aircraft type's card by name.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rules.sides import AXIS_FIRST

from .actions import IllegalAction
from .card import CARD, CONTROL_CARD, LATER_FIELDS
from .hexes import DEFAULT_HEIGHT, DEFAULT_WIDTH, Hex

# 002 15a HEAD-ON FIRING; [14] point values; 13c bailing out
# break_contact: [16]; tail_chase: 18d (printed among [17]'s optional rules); zoom_climb: 17d
OPTIONS = (
    "bailout",
    "bombers",
    "bounce",
    "break_contact",
    "break_tallies",
    "collisions",
    "crashes",
    "head_on",
    "hidden_ammunition",
    "honcho",
    "points",
    "radio",
    "ramming",
    "spotting",
    "tail_chase",
    "variable_ammunition",
    "zoom_climb",
)  # collisions: 13d1; crashes: 13e1, 13e1.2; ramming: 13d2
# variable_ammunition: 13a5; hidden_ammunition: 13a6 (rules.airpirates.ammunition);
# radio: 13b3.3.2's roll for the R/T on a single crew hit, 17a (rules.airpirates.radio)
# honcho: 17c (rules.airpirates.honcho)
# bombers: [20] BOMBER RULES (rules.airpirates.bombers)
# spotting: 15b with the sun, 9a1.7; bounce: 9f; break_tallies: 17b's alternative to 16b2.
# An option that means nothing without others, with those it needs:
NEEDS = {
    "bounce": ("spotting",),
    "break_tallies": ("spotting", "break_contact"),
    "hidden_ammunition": ("variable_ammunition",),  # 13a6 hides what 13a5 rolled
}
GROUNDS = ("axis", "allied", "neutral")  # whose ground the battle is over (13c2)
SIDES = AXIS_FIRST  # 002 2b: "the sides (Allied or Axis)", in the engine's order
QUALITIES = ("green", "inexperienced", "average", "experienced", "ace")  # 002 14b
SETUP = "002 '2d'"
PARTS = ("engine", "crew", "fuel", "wing", "fuselage", "rudder")  # 002 13b2
CATALOG_FILE = Path(__file__).resolve().parent.parent / "catalog" / "airpirates_cards.csv"
# the aircraft 002 names that are no type of the product's catalog (Nate, Claude, P-35A ...),
# by 002's names, estimated alike (rules.build_game_cards; test: test_card_coverage)
NAMED_FILE = CATALOG_FILE.with_name("airpirates_named_cards.csv")
CARDS = "cards"  # a scenario's own control cards by aircraft name (organisers' edits)


def card_problems(values: dict[str, Any]) -> list[str]:
    """Why ``values`` is not a control card (empty when it is one)."""
    problems = []
    for spec in CONTROL_CARD.fields:
        if spec.name not in values and spec.name in LATER_FIELDS:
            continue  # a card stored before the field was added: LATER_FIELDS' value
        if spec.name not in values:
            problems.append(f"{spec.name}: missing")
        elif message := spec.problem(values[spec.name]):
            problems.append(f"{spec.name}: {message}")
    if not problems:
        problems += [f"{p.path}: {p.message}" for c in CONTROL_CARD.cross_checks for p in c(values)]
    return problems


@cache
def _catalog() -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = {}
    for path in (CATALOG_FILE, NAMED_FILE):
        with path.open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                spec = CONTROL_CARD.field_named(row["field"])
                if spec is not None:
                    cards.setdefault(row["name"], {})[spec.name] = spec.parse(row["value"])
    return cards


def catalog_card(name: str) -> dict[str, Any]:
    """The control card of the catalog's aircraft type ``name`` (``KeyError`` if none)."""
    return dict(_catalog()[name])


def catalog_names() -> list[str]:
    return sorted(_catalog())


class SetupError(ValueError):
    """A scenario's value refused, ``field`` naming it as the API does (``cards.P-35A.
    gun_factor``, ``flights.axis[1].quality``), ``rule`` citing 002 where one applies."""

    def __init__(self, message: str, *, field: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.rule = rule


def cards_checked(cards: Any, *, where: str = CARDS) -> dict[str, dict[str, Any]]:
    """A scenario's ``cards`` ({aircraft name: control card}), each checked by
    :func:`card_problems`; a :class:`SetupError` naming ``cards.<name>.<field>`` otherwise."""
    if cards is None:
        return {}
    if not isinstance(cards, dict):
        raise SetupError(f"{where} must map an aircraft's name to its control card", field=where)
    for name, values in cards.items():
        if not isinstance(values, dict):
            raise SetupError(f"{where}.{name} must be a control card", field=f"{where}.{name}")
        problems = card_problems(values)
        if problems:
            field = problems[0].split(":", 1)[0]
            raise SetupError(
                f"{where}.{name}.{problems[0]}", field=f"{where}.{name}.{field}", rule=CARD
            )
    return {str(name): dict(values) for name, values in cards.items()}


def card_for(name: str, cards: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The card ``name`` flies: the scenario's own (an organiser's edit), checked (a
    :class:`SetupError` naming ``cards.<name>.<field>``), else the catalog's (``KeyError``
    if neither has it)."""
    if cards and name in cards:
        return cards_checked({name: cards[name]})[name]
    return catalog_card(name)


@dataclass
class Unit:
    """An air unit in play: its card, its place and the boxes of its control card."""

    id: int
    side: str
    name: str
    card: dict[str, Any]
    quality: str = "average"
    speed: int = 1  # 3d3.2
    altitude: int = 0  # 3d3.1
    hex: Hex | None = None  # None until placed (2f)
    facing: int = 0
    marker: dict[str, Any] | None = None  # {"maneuver", "hex", "line"} while marked
    damage: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))
    eliminated: bool = False  # off the board: shot down, or disengaged
    disengaged: bool = False  # left the battle, not eliminated (16b2; the 3b ruling)
    ammunition_used: int = 0  # boxes marked off (13a3)
    rear_ammunition_used: int = 0
    oblique_ammunition_used: int = 0  # 6a6, 13a3
    rear_fired_phase: int = -10  # the game's Fire Phase its rear gun last fired in (6a5.1)
    gunner_quality: str = "average"  # the rear gunner's (6c2.2.6)
    bailout: dict[str, Any] | None = None  # 13c1's attempt, as rules.tactical.Bailout
    fires: list[dict[str, Any]] = field(default_factory=list)  # {"part", "turn", "by"} (13b4)
    # the last Change Phase's choice: {"turn", "dived", "speed", "at_max"} ([7], for 17d)
    last_change: dict[str, Any] | None = None
    # 13b2.1: crewmen other than the pilot out of action ("gunner", "centre"), and the crew
    # hits that struck only them (hits all the same: 13b1.3's defence, [8]'s points)
    crew_out: list[str] = field(default_factory=list)
    crew_other_hits: int = 0
    # [20] (option bombers): {"crippled", "by", "must_dive", "jettisoned"} once crippled
    bomber: dict[str, Any] | None = None
    radio_damaged: bool = False  # 13b3.3.2 (option radio: rules.airpirates.radio)
    # 17c (option honcho: rules.airpirates.honcho): {"turn", "impulse", "maneuver"} once used
    honcho: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "card": dict(self.card),
            "quality": self.quality,
            "speed": self.speed,
            "altitude": self.altitude,
            "hex": None if self.hex is None else list(self.hex),
            "facing": self.facing,
            "marker": None
            if self.marker is None
            else dict(self.marker, hex=list(self.marker["hex"])),
            "damage": dict(self.damage),
            "eliminated": self.eliminated,
            "disengaged": self.disengaged,
            "ammunition_used": self.ammunition_used,
            "rear_ammunition_used": self.rear_ammunition_used,
            "oblique_ammunition_used": self.oblique_ammunition_used,
            "rear_fired_phase": self.rear_fired_phase,
            "gunner_quality": self.gunner_quality,
            "bailout": None if self.bailout is None else dict(self.bailout),
            "fires": [dict(f) for f in self.fires],
            "last_change": None if self.last_change is None else dict(self.last_change),
            "crew_out": list(self.crew_out),
            "crew_other_hits": self.crew_other_hits,
            **({} if self.bomber is None else {"bomber": dict(self.bomber)}),
            **({"radio_damaged": True} if self.radio_damaged else {}),
            **({} if self.honcho is None else {"honcho": dict(self.honcho)}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Unit:
        marker = data.get("marker")
        return cls(
            id=data["id"],
            side=data["side"],
            name=data["name"],
            card=dict(data["card"]),
            quality=data.get("quality", "average"),
            speed=data["speed"],
            altitude=data["altitude"],
            hex=None if data.get("hex") is None else (data["hex"][0], data["hex"][1]),
            facing=data.get("facing", 0),
            marker=None if marker is None else dict(marker, hex=tuple(marker["hex"])),
            damage={p: int(data.get("damage", {}).get(p, 0)) for p in PARTS},
            eliminated=bool(data.get("eliminated", False)),
            disengaged=bool(data.get("disengaged", False)),
            ammunition_used=int(data.get("ammunition_used", 0)),
            rear_ammunition_used=int(data.get("rear_ammunition_used", 0)),
            oblique_ammunition_used=int(data.get("oblique_ammunition_used", 0)),
            rear_fired_phase=int(data.get("rear_fired_phase", -10)),
            gunner_quality=data.get("gunner_quality", "average"),
            bailout=None if data.get("bailout") is None else dict(data["bailout"]),
            fires=[dict(f) for f in data.get("fires", [])],
            last_change=None if data.get("last_change") is None else dict(data["last_change"]),
            crew_out=list(data.get("crew_out", [])),
            crew_other_hits=int(data.get("crew_other_hits", 0)),
            bomber=None if data.get("bomber") is None else dict(data["bomber"]),
            radio_damaged=bool(data.get("radio_damaged", False)),
            honcho=None if data.get("honcho") is None else dict(data["honcho"]),
        )


def pairing_problem(units: list[dict[str, Any]]) -> str | None:
    """Why a scenario's ``bounced`` or ``wingman`` on its air units is refused, else None
    (docs/rulings.md, 'Air Pirates: spotting meets the bombers, the scenario's bounce'):
    ``bounced`` is true or false (9f: "except as noted by a scenario"); ``wingman`` is the
    index in ``units`` of another air unit of its side with the identical card (15b8.1),
    each unit in one pair at most."""
    mates: dict[int, int] = {}
    for i, u in enumerate(units):
        where = f"units[{i}]"
        if not isinstance(u.get("bounced", True), bool):
            return f"{where}.bounced must be true or false (002 '9f': a scenario may exempt a unit)"
        if "wingman" not in u:
            continue
        j = u["wingman"]
        if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < len(units) or j == i:
            return f"{where}.wingman must be the index in units of another air unit (002 '15b8.1')"
        other = units[j]
        if other.get("side") != u.get("side") or other.get("card") != u.get("card"):
            return f"{where}.wingman: wingmen are identical air units of one side (002 '15b8.1')"
        if mates.get(i, j) != j or mates.get(j, i) != i:
            return f"{where}.wingman: an air unit has one wingman at most (002 '15b8.1')"
        mates[i], mates[j] = j, i
    return None


def unit_from_scenario(
    data: dict[str, Any], index: int, cards: dict[str, dict[str, Any]] | None = None
) -> Unit:
    """One scenario entry checked: side, card (its own, or its ``aircraft``'s in the
    scenario's ``cards``, else the catalog's), quality, and 2d's speed and altitude within
    the card's limits (3e2-3e4)."""
    where = f"units[{index}]"
    side = data.get("side")
    if side not in SIDES:
        raise ValueError(f"{where}.side must be one of {', '.join(SIDES)}")
    card = data.get("card")
    if card is None and "aircraft" in data:
        try:
            card = card_for(str(data["aircraft"]), cards)
        except KeyError:
            raise ValueError(
                f"{where}.aircraft: {data['aircraft']!r} has no Air Pirates control card"
            ) from None
    if not isinstance(card, dict):
        raise ValueError(f"{where}.card must be a control card or aircraft a catalog type")
    problems = card_problems(card)
    if problems:
        raise ValueError(f"{where}.card: {problems[0]}")
    quality = data.get("quality", "average")
    if quality not in QUALITIES:
        raise ValueError(f"{where}.quality must be one of {', '.join(QUALITIES)}")
    speed: Any = data.get("speed", card["level_speed"])
    altitude: Any = data.get("altitude", 1)
    for key, value in (("speed", speed), ("altitude", altitude)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where}.{key} must be a whole number")
    if not card["min_speed"] <= speed <= card["level_speed"]:
        raise ValueError(
            f"{where}.speed must lie between the minimum {card['min_speed']} and the level "
            f"speed {card['level_speed']} (002 '3e2', '3e4')"
        )
    if not 0 <= altitude <= card["max_altitude"]:
        raise ValueError(
            f"{where}.altitude must lie between 0 and {card['max_altitude']} (002 '3e3')"
        )
    gunner = data.get("gunner_quality", "average")
    if gunner not in QUALITIES:
        raise ValueError(f"{where}.gunner_quality must be one of {', '.join(QUALITIES)}")
    name = unit_name(data, index)
    made = Unit(index + 1, side, name, {**LATER_FIELDS, **card}, quality, int(speed), int(altitude))
    made.gunner_quality = gunner
    return made


def unit_name(data: dict[str, Any], index: int) -> str:
    """The name of the scenario's unit ``data`` (its place ``index`` from 0): its own, else
    its aircraft type's, else "unit N" (numbered from 1)."""
    return str(data.get("name") or data.get("aircraft") or f"unit {index + 1}")


def flak_problem(flak: Any, units: int) -> str | None:
    """Why a scenario's ``card_flak`` (rules.airpirates.interception) is not one, else None."""
    if not isinstance(flak, dict) or set(flak) != {"rolls", "af", "targets"}:
        return "card_flak is {rolls, af, targets}"
    rolls, af, targets = flak["rolls"], flak["af"], flak["targets"]
    if any(isinstance(v, bool) or not isinstance(v, int) for v in (rolls, af)):
        return "card_flak's rolls and af are whole numbers"
    if rolls < 0 or not 1 <= af <= 10:
        return "003 'INTERCEPTION SEGMENT': flak is rolls >= 0 d10s at AF 1-10"
    if not isinstance(targets, list) or any(
        isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= units for t in targets
    ):
        return "card_flak's targets are air units' numbers"
    return None


@dataclass(frozen=True)
class Scenario:
    """002 [2] the basic game, or any scenario: board size and the air units."""

    name: str
    width: int
    height: int
    units: tuple[dict[str, Any], ...]
    seed_marker: str | None = None  # a side given the sequence marker; None: 2a's roll
    options: tuple[str, ...] = ()  # optional rules in play (OPTIONS)
    ground: str = "neutral"  # GROUNDS
    # a campaign engagement's flak before the battle {"rolls", "af", "targets"}
    # (rules.airpirates.interception; ruling "Air Pirates engagements: the card game's effects")
    card_flak: dict[str, Any] | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scenario:
        width = data.get("width", DEFAULT_WIDTH)
        height = data.get("height", DEFAULT_HEIGHT)
        for key, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or not 4 <= value <= 60:
                raise ValueError(f"{key} must be a whole number of hexes from 4 to 60")
        units = data.get("units")
        if not isinstance(units, list) or not units:
            raise ValueError("units must be a list of air units")
        cards = cards_checked(data.get(CARDS))
        for i, u in enumerate(units):
            if not isinstance(u, dict):
                raise ValueError(f"units[{i}] must be an object")
            unit_from_scenario(u, i, cards)
        # each unit keeps the card it flies, so a replay after a later edit flies the same
        units = [
            u if "card" in u or "aircraft" not in u
            else dict(u, card=card_for(str(u["aircraft"]), cards))
            for u in units
        ]  # fmt: skip
        if (pairing := pairing_problem(units)) is not None:
            raise ValueError(pairing)
        present = {u["side"] for u in units}
        if present != set(SIDES):
            raise ValueError("units must include both sides")
        marker = data.get("sequence_marker")
        if marker is not None and marker not in SIDES:
            raise ValueError(f"sequence_marker must be one of {', '.join(SIDES)}")
        options = data.get("options", [])
        if not isinstance(options, list) or any(o not in OPTIONS for o in options):
            raise ValueError(f"options must be a list of {', '.join(OPTIONS)}")
        for option, needed in NEEDS.items():
            if option in options and not set(needed) <= set(options):
                raise ValueError(f"option {option} needs the options {' and '.join(needed)}")
        ground = data.get("ground", "neutral")
        if ground not in GROUNDS:
            raise ValueError(f"ground must be one of {', '.join(GROUNDS)}")
        name = str(data.get("name", "Basic game"))
        chosen = tuple(sorted(set(options)))
        flak = data.get("card_flak")
        if flak is not None:
            if (problem := flak_problem(flak, len(units))) is not None:
                raise ValueError(problem)
            flak = {"rolls": flak["rolls"], "af": flak["af"], "targets": list(flak["targets"])}
        return cls(name, width, height, tuple(units), marker, chosen, ground, flak)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "units": [dict(u) for u in self.units],
        }
        if self.seed_marker is not None:
            out["sequence_marker"] = self.seed_marker
        if self.options:
            out["options"] = list(self.options)
        if self.ground != "neutral":
            out["ground"] = self.ground
        if self.card_flak is not None:
            out["card_flak"] = dict(self.card_flak, targets=list(self.card_flak["targets"]))
        return out


def basic_game(axis: str, allied: str, *, quality: str = "average") -> dict[str, Any]:
    """002 [2]: each player two identical air units (2b), at level speed (2d)."""
    units = []
    for side, name in (("axis", axis), ("allied", allied)):
        card = catalog_card(name)
        for n in (1, 2):
            units.append(
                {"side": side, "name": f"{name} #{n}", "card": card, "quality": quality,
                 "speed": card["level_speed"], "altitude": min(3, card["max_altitude"])}
            )  # fmt: skip
    return {"name": "Basic game", "units": units}


__all__ = ["IllegalAction", "Scenario", "Unit", "basic_game", "catalog_card", "unit_from_scenario"]

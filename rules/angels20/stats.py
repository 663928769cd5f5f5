"""Plain-data inputs of a battle: aircraft statistics and rules switches.

:class:`AircraftStats` is one stat card (000 "HOW TO READ A STAT CARD");
the Django side builds them from database rows. :class:`Rules` holds every
switch of the rules that is chosen per battle (000 "ADVANCED RULES", "PILOT
SURVIVAL"); optional rules of later issues add fields here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from rules.sides import AXIS_FIRST

# 000 "AIRCRAFT STATS" / Pilot: "From worst to best ... Poor, Average, Veteran, or Ace".
PILOT_QUALITIES = ("poor", "average", "veteran", "ace")
PILOT_RANK = {name: i for i, name in enumerate(PILOT_QUALITIES)}

# 000 "AIRCRAFT STATS" / Type and "ILLUMINATION": fighters, heavy and naval
# fighters, and "bombers of various sizes". A plain "bomber" is a medium
# bomber (ruling "Bomber classes").
AIRCRAFT_KINDS = (
    "fighter",
    "heavy fighter",
    "naval fighter",
    "light bomber",
    "medium bomber",
    "heavy bomber",
    "bomber",
)
BOMBER_KINDS = frozenset({"light bomber", "medium bomber", "heavy bomber", "bomber"})
FIGHTER_KINDS = frozenset({"fighter", "heavy fighter", "naval fighter"})

# 000 "CLOUDS": the four kinds of cloud band.
CLOUD_KINDS = ("clear", "light", "heavy", "solid")
# 000 "NIGHT COMBAT": daylight, or one of the two kinds of night combat.
LIGHTING = ("day", "moonlight", "darkness")

SIDES = AXIS_FIRST  # the engine's order: Axis = 0, Allied = 1 (rules.sides)
AXIS, ALLIED = 0, 1
SIDE_INDEX = {"axis": AXIS, "allied": ALLIED}

# 000 "CHOOSING SIDES".
AXIS_NATIONS = frozenset(
    {
        "Germany",
        "Italy",
        "Japan",
        "Romania",
        "Finland",
        "Vichy France",
        "Hungary",
        "Slovakia",
        "Bulgaria",
    }
)
ALLIED_NATIONS = frozenset(
    {
        "United States",
        "United Kingdom",
        "Australia",
        "Canada",
        "South Africa",
        "New Zealand",
        "Soviet Union",
        "France",
        "Poland",
        "China",
        "Netherlands",
    }
)


def nation_side(nation: str) -> int | None:
    """AXIS, ALLIED, or None for a nation the book does not place."""
    if nation in AXIS_NATIONS:
        return AXIS
    if nation in ALLIED_NATIONS:
        return ALLIED
    return None


@dataclass(frozen=True, slots=True)
class AircraftStats:
    """One aircraft's stat card (000 "HOW TO READ A STAT CARD").

    ``attack`` holds the attack dice at ranges 1, 2 and 3 (0 = cannot fire at
    that range). ``high_speed_min``/``high_speed_max`` are None for an aircraft
    without a high-speed range. ``abilities`` are names looked up in
    :mod:`rules.angels20.abilities`.
    """

    name: str
    nation: str
    kind: str
    cost: int
    pilot: str
    speed_min: int
    speed_max: int
    high_speed_min: int | None
    high_speed_max: int | None
    attack: tuple[int, int, int]
    armor: int
    vital_armor: int
    hits: int
    turn: int
    roll: int
    climb: int
    dive: int
    abilities: tuple[str, ...] = ()
    year: int | None = None

    def __post_init__(self) -> None:
        if self.pilot not in PILOT_RANK:
            raise ValueError(f"pilot quality must be one of {PILOT_QUALITIES}, not {self.pilot!r}")
        if self.kind not in AIRCRAFT_KINDS:
            raise ValueError(f"aircraft kind must be one of {AIRCRAFT_KINDS}, not {self.kind!r}")
        if not 1 <= self.speed_min <= self.speed_max:
            raise ValueError(f"{self.name}: bad speed range {self.speed_min}-{self.speed_max}")
        if (self.high_speed_min is None) != (self.high_speed_max is None):
            raise ValueError(f"{self.name}: give both ends of the high-speed range or neither")
        if self.high_speed_min is not None and not (
            self.speed_max < self.high_speed_min <= self.high_speed_max  # type: ignore[operator]
        ):
            raise ValueError(f"{self.name}: high speed must lie above normal speed")
        if len(self.attack) != 3 or any(a < 0 for a in self.attack):
            raise ValueError(f"{self.name}: attack must be three non-negative dice counts")
        if self.hits < 1 or self.armor < 1 or self.vital_armor < self.armor:
            raise ValueError(f"{self.name}: bad armor / vital armor / hits")
        object.__setattr__(self, "attack", tuple(self.attack))
        object.__setattr__(self, "abilities", tuple(self.abilities))

    @property
    def is_bomber(self) -> bool:
        """Flies by the bomber rules (000 "BOMBER STATS"): a bomber kind, or the Bomber ability."""
        return self.kind in BOMBER_KINDS or "Bomber" in self.abilities

    def with_pilot(self, pilot: str) -> AircraftStats:
        d = self.to_json()
        d["pilot"] = pilot
        return AircraftStats.from_json(d)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["attack"] = list(self.attack)
        d["abilities"] = list(self.abilities)
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AircraftStats:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in data.items() if k in known}
        kw["attack"] = tuple(kw["attack"])
        kw["abilities"] = tuple(kw.get("abilities", ()))
        return cls(**kw)


def _pairs(value: Any) -> tuple[tuple[int, ...], ...]:
    return tuple([tuple(map(int, item)) for item in value])


@dataclass(frozen=True, slots=True)
class CloudShape:
    """A cloud placed on the map (000 "CLOUDS", placed cloud markers).

    ``hexes`` are (col, row) cells; the cloud fills altitudes ``base`` to
    ``top``. An aircraft that ends its move inside it is in the clouds
    (ruling "Placed clouds").
    """

    hexes: tuple[tuple[int, int], ...]
    base: int
    top: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "hexes", _pairs(self.hexes))
        if not self.hexes or any(len(h) != 2 for h in self.hexes):
            raise ValueError("000 'CLOUDS': a placed cloud covers one or more (col, row) hexes")
        if not 1 <= self.base <= self.top <= 6:
            raise ValueError("000 'CLOUDS': a placed cloud lies between altitudes 1 and 6")

    def to_json(self) -> dict[str, Any]:
        return {"hexes": [list(h) for h in self.hexes], "base": self.base, "top": self.top}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CloudShape:
        return cls(hexes=tuple(tuple(h) for h in d["hexes"]), base=d["base"], top=d["top"])


@dataclass(frozen=True, slots=True)
class Rules:
    """Rules switches of one battle (all off = the basic game of 000).

    Advanced rules (000 "ADVANCED RULES"):

    * ``tailing`` - 000 "TAILING": +2 initiative to the side tailing more.
    * ``turn_position`` - 000 "CHOOSING TURN POSITION": the initiative
      winner chooses to be first or second player.
    * ``status`` - 000 "AIRCRAFT STATUS" and "ADVANCED ATTACK AND DEFENSE
      RULES": Diving / Climbing / Evading, their attack effects, altitude
      reach, forbidden altitudes and required maneuvers.
    * ``pilot_survival`` - 000 "PILOT SURVIVAL": roll for the pilot of each
      destroyed aircraft (the territory is the scenario's).
    * ``max_turns`` - the battle ends after this many game turns (the
      book's scenarios that have no limit get a table-time limit; ruling).

    Optional rules and special conditions (000 "OPTIONAL RULES", "SPECIAL
    CONDITIONS"), all off by default:

    * ``midair_collision`` - 000 "OPTIONAL RULE: MIDAIR COLLISION".
    * ``clouds`` - the cloud band at altitudes 1-6 (000 "CLOUDS"), six of
      ``CLOUD_KINDS``; empty = no clouds. ``random_clouds`` rolls the
      "RANDOM CLOUD ARRANGEMENT" chart at the start of the battle instead.
      ``cloud_shapes`` are clouds placed on the map (:class:`CloudShape`).
    * ``flak_fields`` - (col, row, altitude) of each field's centre hex
      (000 "FLAK FIELDS"; altitude 2, 3 or 4).
    * ``barrage_balloons`` - (col, row) of each balloon hex, at altitude 1
      (000 "BARRAGE BALLOONS").
    * ``night`` - "day", "moonlight" or "darkness" (000 "NIGHT COMBAT").
    * ``fighter_direction`` - direction capacity of (axis, allied)
      (000 "FIGHTER DIRECTION").
    * ``searchlights`` - whether (axis, allied) have searchlights, which
      roll to illuminate enemy aircraft (000 "ILLUMINATION").
    * ``later_sixes`` - the rule published with *Bandits High* (2013): where
      modifiers raise the target number to 7 or more, an unmodified 6 scores
      one hit instead of two.
    """

    tailing: bool = False
    turn_position: bool = False
    status: bool = False
    pilot_survival: bool = True
    max_turns: int = 30
    midair_collision: bool = False
    clouds: tuple[str, ...] = ()
    random_clouds: bool = False
    cloud_shapes: tuple[CloudShape, ...] = ()
    flak_fields: tuple[tuple[int, int, int], ...] = ()
    barrage_balloons: tuple[tuple[int, int], ...] = ()
    night: str = "day"
    fighter_direction: tuple[int, int] = (0, 0)
    searchlights: tuple[bool, bool] = (False, False)
    later_sixes: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "clouds", tuple(self.clouds))
        if self.cloud_shapes != ():  # the default: nothing to convert
            set_(
                self,
                "cloud_shapes",
                tuple(
                    c if isinstance(c, CloudShape) else CloudShape.from_json(c)
                    for c in self.cloud_shapes
                ),
            )
        set_(self, "flak_fields", _pairs(self.flak_fields))
        set_(self, "barrage_balloons", _pairs(self.barrage_balloons))
        set_(self, "fighter_direction", tuple(map(int, self.fighter_direction)))
        set_(self, "searchlights", tuple(map(bool, self.searchlights)))
        if not 1 <= self.max_turns <= 1000:
            raise ValueError("max_turns must be from 1 to 1000")
        if self.clouds and (
            len(self.clouds) != 6 or any(c not in CLOUD_KINDS for c in self.clouds)
        ):
            raise ValueError(
                f"000 'CLOUDS': give the cloud band of altitudes 1-6, each one of {CLOUD_KINDS}"
            )
        for f in self.flak_fields:
            if len(f) != 3 or f[2] not in (2, 3, 4):
                raise ValueError(
                    "000 'FLAK FIELDS': a flak field is (col, row, altitude 2, 3 or 4)"
                )
        for b in self.barrage_balloons:
            if len(b) != 2:
                raise ValueError("000 'BARRAGE BALLOONS': a balloon guards one (col, row) hex")
        if self.night not in LIGHTING:
            raise ValueError(f"000 'NIGHT COMBAT': night is one of {LIGHTING}")
        if len(self.fighter_direction) != 2 or any(c < 0 for c in self.fighter_direction):
            raise ValueError("000 'FIGHTER DIRECTION': capacity is a whole number >= 0 per side")
        if len(self.searchlights) != 2:
            raise ValueError("000 'ILLUMINATION': searchlights are given per side")

    @classmethod
    def advanced(cls, **kw: Any) -> Rules:
        return cls(tailing=True, turn_position=True, status=True, **kw)

    @property
    def optional_rules_on(self) -> tuple[str, ...]:
        """Names of the optional rules and special conditions in force."""
        on = []
        if self.midair_collision:
            on.append("midair collision")
        if self.random_clouds or any(c != "clear" for c in self.clouds) or self.cloud_shapes:
            on.append("clouds")
        if self.flak_fields:
            on.append("flak fields")
        if self.barrage_balloons:
            on.append("barrage balloons")
        if self.night != "day":
            on.append(self.night)
        if any(self.fighter_direction):
            on.append("fighter direction")
        if any(self.searchlights):
            on.append("illumination")
        if self.later_sixes:
            on.append("later-edition sixes")
        return tuple(on)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["clouds"] = list(self.clouds)
        d["cloud_shapes"] = [c.to_json() for c in self.cloud_shapes]
        d["flak_fields"] = [list(f) for f in self.flak_fields]
        d["barrage_balloons"] = [list(b) for b in self.barrage_balloons]
        d["fighter_direction"] = list(self.fighter_direction)
        d["searchlights"] = list(self.searchlights)
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

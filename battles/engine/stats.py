"""Plain-data inputs of a battle: aircraft statistics and rules switches.

:class:`AircraftStats` is one stat card (000 "HOW TO READ A STAT CARD");
the Django side builds them from database rows. :class:`Rules` holds every
switch of the rules that is chosen per battle (000 "ADVANCED RULES", "PILOT
SURVIVAL"); optional rules of later issues add fields here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

# 000 "AIRCRAFT STATS" / Pilot: "From worst to best ... Poor, Average, Veteran, or Ace".
PILOT_QUALITIES = ("poor", "average", "veteran", "ace")
PILOT_RANK = {name: i for i, name in enumerate(PILOT_QUALITIES)}

AIRCRAFT_KINDS = ("fighter", "heavy fighter", "naval fighter", "bomber")

SIDES = ("axis", "allied")
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
    :mod:`battles.engine.abilities`.
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
        return self.kind == "bomber"

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


@dataclass(frozen=True, slots=True)
class Rules:
    """Rules switches of one battle (all off = the basic game of 000).

    * ``tailing`` - 000 "TAILING": +2 initiative to the side tailing more.
    * ``turn_position`` - 000 "CHOOSING TURN POSITION": the initiative
      winner chooses to be first or second player.
    * ``status`` - 000 "AIRCRAFT STATUS" and "ADVANCED ATTACK AND DEFENSE
      RULES": Diving / Climbing / Evading, their attack effects, altitude
      reach, forbidden altitudes and required maneuvers.
    * ``pilot_survival`` - 000 "PILOT SURVIVAL": roll for the pilot of each
      destroyed aircraft.
    * ``max_turns`` - the battle ends after this many game turns (the
      book's scenarios that have no limit get a table-time limit; ruling).
    """

    tailing: bool = False
    turn_position: bool = False
    status: bool = False
    pilot_survival: bool = True
    max_turns: int = 30

    @classmethod
    def advanced(cls, **kw: Any) -> Rules:
        return cls(tailing=True, turn_position=True, status=True, **kw)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

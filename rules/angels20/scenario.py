"""Frozen scenarios built from plain data, and the book's scenarios.

A :class:`Scenario` is everything fixed for one battle: the map size, each
aircraft's card, side, pilot and starting position, the rules switches and
the scenario's victory condition (``kind`` plus a few parameters). It is
plain data and round-trips through :meth:`Scenario.to_json` /
:meth:`Scenario.from_json`.

Builders for the book's scenarios (000 "SCENARIOS"):
:func:`dogfight`, :func:`intercept_the_interceptors`, :func:`limited_fuel`,
:func:`schnellbomber`, :func:`standard_scenario` (with flight building,
:func:`validate_flight`) and :func:`bomber_escort`. The diagrams of set-up
areas are missing from the scan, so start positions are this project's own
(ruling "Scenario set-up positions").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.dice import Dice

from .aircraft import CATALOGUE, medium_bomber
from .stats import PILOT_RANK, SIDE_INDEX, SIDES, AircraftStats, Rules, nation_side

SCENARIO_KINDS = (
    "dogfight",
    "intercept",
    "limited_fuel",
    "schnellbomber",
    "standard",
    "bomber_escort",
    "custom",
)

DEFAULT_WIDTH = 16
_DEFAULT_RULES = Rules()
_LIMITED_FUEL_RULES = Rules(max_turns=5)
DEFAULT_HEIGHT = 22


class ScenarioError(ValueError):
    """A scenario or flight breaks a rule; the message names it."""


@dataclass(frozen=True, slots=True)
class AircraftSetup:
    """One aircraft placed for a battle.

    ``pilot`` overrides the card's pilot quality (None = the card's);
    ``pilot_ref`` is an opaque string the campaign layer uses to map kills
    back to its pilots; ``role`` tags aircraft that a scenario treats
    specially ("bomber", "fuel_limited", "strafer").
    """

    stats: AircraftStats
    side: str
    col: int
    row: int
    facing: int
    altitude: int
    pilot: str | None = None
    pilot_ref: str = ""
    role: str = ""

    def __post_init__(self) -> None:
        if self.side not in SIDE_INDEX:
            raise ScenarioError(f"side must be one of {SIDES}")
        if not 0 <= self.facing < 6:
            raise ScenarioError("facing must be 0..5")
        if not 1 <= self.altitude <= 6:
            raise ScenarioError("000 'ALTITUDE': altitude bands are 1-6")
        if self.pilot is not None and self.pilot not in PILOT_RANK:
            raise ScenarioError(f"unknown pilot quality {self.pilot!r}")

    @property
    def pilot_quality(self) -> str:
        return self.pilot or self.stats.pilot

    def to_json(self) -> dict[str, Any]:
        return {
            "stats": self.stats.to_json(),
            "side": self.side,
            "col": self.col,
            "row": self.row,
            "facing": self.facing,
            "altitude": self.altitude,
            "pilot": self.pilot,
            "pilot_ref": self.pilot_ref,
            "role": self.role,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> AircraftSetup:
        return cls(
            stats=AircraftStats.from_json(d["stats"]),
            side=d["side"],
            col=d["col"],
            row=d["row"],
            facing=d["facing"],
            altitude=d["altitude"],
            pilot=d.get("pilot"),
            pilot_ref=d.get("pilot_ref", ""),
            role=d.get("role", ""),
        )


@dataclass(frozen=True, slots=True)
class FlightMember:
    stats: AircraftStats
    pilot: str | None = None
    pilot_ref: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"stats": self.stats.to_json(), "pilot": self.pilot, "pilot_ref": self.pilot_ref}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> FlightMember:
        return cls(AircraftStats.from_json(d["stats"]), d.get("pilot"), d.get("pilot_ref", ""))


@dataclass(frozen=True, slots=True)
class Flight:
    """A side's aircraft before they are placed (000 "BUILDING FLIGHTS")."""

    side: str
    members: tuple[FlightMember, ...]

    @property
    def cost(self) -> int:
        return sum(m.stats.cost for m in self.members)

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "members": [m.to_json() for m in self.members]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Flight:
        return cls(d["side"], tuple(FlightMember.from_json(m) for m in d["members"]))


def flight(side: str, *cards: AircraftStats | str | FlightMember) -> Flight:
    """Convenience: a flight from cards, catalogue names or members."""
    members = []
    for c in cards:
        if isinstance(c, FlightMember):
            members.append(c)
        elif isinstance(c, str):
            members.append(FlightMember(CATALOGUE[c]))
        else:
            members.append(FlightMember(c))
    return Flight(side, tuple(members))


@dataclass(frozen=True, slots=True)
class CardFlak:
    """The card game's flak rolled when the battle starts (ruling "Engine engagements: flak").

    003 "INTERCEPTION SEGMENT": "The Defending player gets to make one extra
    attack due to ground fire & Flak. This is called the Flak roll and it has
    an AF = 7" (Heavy Flak and Air Defense add a roll each). Before the first
    game turn the engine rolls ``rolls`` d10s; each at ``af`` or more shoots
    down the next aircraft of ``targets`` (scenario indices, in the order
    their owner gives them up) still in play.
    """

    rolls: int
    af: int
    targets: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "targets", tuple(int(t) for t in self.targets))
        if self.rolls < 0 or not 1 <= self.af <= 10:
            raise ScenarioError("003 'INTERCEPTION SEGMENT': flak is rolls >= 0 d10s at AF 1-10")

    def to_json(self) -> dict[str, Any]:
        return {"rolls": self.rolls, "af": self.af, "targets": list(self.targets)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CardFlak:
        return cls(rolls=d["rolls"], af=d["af"], targets=tuple(d["targets"]))


@dataclass(frozen=True, slots=True)
class Scenario:
    """Everything fixed for one battle (python-chess/OpenSpiel "game")."""

    name: str
    kind: str
    aircraft: tuple[AircraftSetup, ...]
    rules: Rules = field(default_factory=Rules)
    width: int = DEFAULT_WIDTH
    height: int = DEFAULT_HEIGHT
    start_vp: tuple[float, float] = (0.0, 0.0)
    vp_target: int | None = None
    territory: tuple[str, str] = ("neutral", "neutral")
    escort_side: str | None = None
    bomber_exit_edge: str | None = None
    free_exit_edge: str | None = None
    must_exit_by_turn: int | None = None
    situation: int | None = None
    advantaged_side: str | None = None
    setup_rolls: tuple[tuple[str, int], ...] = ()
    card_flak: CardFlak | None = None

    def __post_init__(self) -> None:
        if self.kind not in SCENARIO_KINDS:
            raise ScenarioError(f"scenario kind must be one of {SCENARIO_KINDS}")
        for t in self.territory:
            if t not in ("friendly", "enemy", "neutral"):
                raise ScenarioError("territory is friendly, enemy or neutral")
        seen = set()
        sides = set()
        for a in self.aircraft:
            if not (0 <= a.col < self.width and 0 <= a.row < self.height):
                raise ScenarioError(
                    f"{a.stats.name} starts off the {self.width} x {self.height} map"
                )
            key = (a.side, a.col, a.row, a.altitude)
            if key in seen:
                raise ScenarioError(
                    f"000 'STACKING': two {a.side} aircraft start in hex ({a.col}, {a.row}) at altitude {a.altitude}"
                )
            seen.add(key)
            sides.add(a.side)
        self._check_map_features()
        for s in SIDES:
            if s not in sides:
                raise ScenarioError(f"the {s} side has no aircraft")
        object.__setattr__(self, "start_vp", tuple(map(float, self.start_vp)))
        object.__setattr__(self, "territory", tuple(self.territory))
        object.__setattr__(self, "setup_rolls", tuple(map(tuple, self.setup_rolls)))
        if self.card_flak is not None and any(
            not 0 <= t < len(self.aircraft) for t in self.card_flak.targets
        ):
            raise ScenarioError("card flak targets must be aircraft of the scenario")

    def _check_map_features(self) -> None:
        """Flak fields, balloons and placed clouds must lie on the map."""

        def on_map(col: int, row: int) -> bool:
            return 0 <= col < self.width and 0 <= row < self.height

        r = self.rules
        for col, row, _alt in r.flak_fields:
            if not on_map(col, row):
                raise ScenarioError(f"000 'FLAK FIELDS': centre hex ({col}, {row}) is off the map")
        for col, row in r.barrage_balloons:
            if not on_map(col, row):
                raise ScenarioError(f"000 'BARRAGE BALLOONS': hex ({col}, {row}) is off the map")
        for shape in r.cloud_shapes:
            for col, row in shape.hexes:
                if not on_map(col, row):
                    raise ScenarioError(f"000 'CLOUDS': cloud hex ({col}, {row}) is off the map")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "aircraft": [a.to_json() for a in self.aircraft],
            "rules": self.rules.to_json(),
            "width": self.width,
            "height": self.height,
            "start_vp": list(self.start_vp),
            "vp_target": self.vp_target,
            "territory": list(self.territory),
            "escort_side": self.escort_side,
            "bomber_exit_edge": self.bomber_exit_edge,
            "free_exit_edge": self.free_exit_edge,
            "must_exit_by_turn": self.must_exit_by_turn,
            "situation": self.situation,
            "advantaged_side": self.advantaged_side,
            "setup_rolls": [list(x) for x in self.setup_rolls],
        }
        if self.card_flak is not None:  # absent otherwise: older setups stay byte-identical
            data["card_flak"] = self.card_flak.to_json()
        return data

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Scenario:
        return cls(
            name=d["name"],
            kind=d["kind"],
            aircraft=tuple(AircraftSetup.from_json(a) for a in d["aircraft"]),
            rules=Rules.from_json(d.get("rules", {})),
            width=d.get("width", DEFAULT_WIDTH),
            height=d.get("height", DEFAULT_HEIGHT),
            start_vp=tuple(d.get("start_vp", (0.0, 0.0))),
            vp_target=d.get("vp_target"),
            territory=tuple(d.get("territory", ("neutral", "neutral"))),
            escort_side=d.get("escort_side"),
            bomber_exit_edge=d.get("bomber_exit_edge"),
            free_exit_edge=d.get("free_exit_edge"),
            must_exit_by_turn=d.get("must_exit_by_turn"),
            situation=d.get("situation"),
            advantaged_side=d.get("advantaged_side"),
            setup_rolls=tuple(tuple(x) for x in d.get("setup_rolls", ())),
            card_flak=CardFlak.from_json(d["card_flak"]) if d.get("card_flak") else None,
        )


# -- placing flights ---------------------------------------------------------


def line_up(
    members: tuple[FlightMember, ...] | list[FlightMember],
    side: str,
    col: int,
    row: int,
    facing: int,
    altitude: int,
    *,
    step: tuple[int, int] = (2, 0),
    roles: tuple[str, ...] = (),
) -> list[AircraftSetup]:
    """Place a flight in a line from (col, row), ``step`` (cols, rows) apart."""
    out = []
    for i, m in enumerate(members):
        out.append(
            AircraftSetup(
                stats=m.stats,
                side=side,
                col=col + i * step[0],
                row=row + i * step[1],
                facing=facing,
                altitude=altitude,
                pilot=m.pilot,
                pilot_ref=m.pilot_ref,
                role=roles[i] if i < len(roles) else ("bomber" if m.stats.is_bomber else ""),
            )
        )
    return out


def _cards(catalogue: dict[str, AircraftStats] | None, *names: str) -> list[FlightMember]:
    cat = {**CATALOGUE, **(catalogue or {})}
    return [FlightMember(cat[n]) for n in names]


BOB_TERRITORY = ("enemy", "friendly")  # the Battle of Britain is fought over Britain


def dogfight(
    rules: Rules = _DEFAULT_RULES, catalogue: dict[str, AircraftStats] | None = None
) -> Scenario:
    """000 "BATTLE OF BRITAIN: DOGFIGHT": first to down or drive off an enemy wins."""
    axis = _cards(catalogue, "Bf 109E Ace", "Bf 109E Wingman")
    allied = _cards(catalogue, "Spitfire Mk I Ace", "Hurricane Mk I")
    return Scenario(
        name="Battle of Britain: Dogfight",
        kind="dogfight",
        aircraft=tuple(line_up(axis, "axis", 6, 17, 0, 3) + line_up(allied, "allied", 7, 4, 3, 3)),
        rules=rules,
        territory=BOB_TERRITORY,
    )


def intercept_the_interceptors(
    rules: Rules = _DEFAULT_RULES, catalogue: dict[str, AircraftStats] | None = None
) -> Scenario:
    """000 "BATTLE OF BRITAIN: INTERCEPT THE INTERCEPTORS"."""
    axis = _cards(catalogue, "Bf 109E Ace", "Bf 109E Wingman")
    allied = _cards(catalogue, "Hurricane Mk I", "Hurricane Mk I")
    return Scenario(
        name="Battle of Britain: Intercept the Interceptors",
        kind="intercept",
        aircraft=tuple(line_up(axis, "axis", 4, 6, 2, 3) + line_up(allied, "allied", 8, 16, 0, 2)),
        rules=rules,
        territory=BOB_TERRITORY,
    )


def limited_fuel(
    rules: Rules = _LIMITED_FUEL_RULES, catalogue: dict[str, AircraftStats] | None = None
) -> Scenario:
    """000 "BATTLE OF BRITAIN: LIMITED FUEL" (5 turns; Bf 109s must leave south by turn 4)."""
    if rules.max_turns != 5:
        rules = Rules(**{**rules.to_json(), "max_turns": 5})
    fighters = _cards(catalogue, "Bf 109E Ace", "Bf 109E Wingman")
    escort = _cards(catalogue, "Bf 110C")
    bombers = _cards(catalogue, "He 111 bomber token", "He 111 bomber token")
    allied = _cards(catalogue, "Hurricane Mk I", "Hurricane Mk I", "Spitfire Mk I Ace")
    axis_setup = (
        line_up(bombers, "axis", 6, 8, 0, 4, step=(4, 0), roles=("bomber", "bomber"))
        + line_up(
            fighters, "axis", 5, 11, 0, 4, step=(6, 0), roles=("fuel_limited", "fuel_limited")
        )
        + line_up(escort, "axis", 8, 12, 0, 4)
    )
    return Scenario(
        name="Battle of Britain: Limited Fuel",
        kind="limited_fuel",
        aircraft=tuple(axis_setup + line_up(allied, "allied", 5, 1, 3, 3, step=(3, 0))),
        rules=rules,
        territory=BOB_TERRITORY,
        free_exit_edge="south",
        must_exit_by_turn=4,
    )


def schnellbomber(
    rules: Rules = _DEFAULT_RULES, catalogue: dict[str, AircraftStats] | None = None
) -> Scenario:
    """000 "BATTLE OF BRITAIN: SCHNELLBOMBER": first to 60 VP; the Bf 110 strafes for 10."""
    axis = _cards(catalogue, "Bf 109E Wingman", "Bf 110C")
    allied = _cards(catalogue, "Spitfire Mk I Ace", "Spitfire Mk I Ace")
    return Scenario(
        name="Battle of Britain: Schnellbomber",
        kind="schnellbomber",
        aircraft=tuple(
            line_up(axis, "axis", 6, 16, 0, 3, roles=("", "strafer"))
            + line_up(allied, "allied", 7, 5, 3, 3)
        ),
        rules=rules,
        territory=BOB_TERRITORY,
        vp_target=60,
    )


# -- the Standard Scenario (000 "STANDARD SCENARIO") ---------------------------

FLIGHT_BUDGET = 100
FLIGHT_MIN, FLIGHT_MAX = 2, 5

# 000 "HISTORICAL THEATER RESTRICTIONS"
THEATERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "Europe, Western Front": (
        frozenset({"Germany", "Italy", "Vichy France"}),
        frozenset({"United Kingdom", "Canada", "France", "Netherlands", "Poland", "United States"}),
    ),
    "Europe, Eastern Front": (
        frozenset({"Germany", "Finland", "Romania"}),
        frozenset({"Poland", "Soviet Union"}),
    ),
    "China and Southeast Asia": (
        frozenset({"Japan"}),
        frozenset(
            {"Australia", "United Kingdom", "China", "France", "Netherlands", "United States"}
        ),
    ),
    "Mediterranean": (
        frozenset({"Germany", "Italy", "Romania", "Vichy France"}),
        frozenset({"Australia", "United Kingdom", "France", "United States", "South Africa"}),
    ),
    "South Pacific": (
        frozenset({"Japan"}),
        frozenset({"Australia", "United Kingdom", "United States"}),
    ),
}

# 000 "STARTING SITUATIONS": bonus VP of the disadvantaged (blue) player.
SITUATION_BONUS = {1: 0, 2: 0, 3: 0, 4: 10, 5: 20, 6: 30}

# Set-up areas (diagrams missing; ruling "Scenario set-up positions"):
# situation -> (blue: col, row, facing, altitude, step), (red: ...).
SITUATIONS: dict[int, tuple[tuple[int, int, int, int, tuple[int, int]], ...]] = {
    1: ((4, 17, 0, 3, (2, 0)), (5, 4, 3, 3, (2, 0))),  # head-on
    2: ((1, 6, 2, 3, (0, 2)), (14, 6, 4, 3, (0, 2))),  # crossing
    3: ((2, 16, 0, 3, (2, 0)), (9, 5, 3, 3, (2, 0))),  # passing, offset
    4: ((4, 16, 0, 3, (2, 0)), (5, 4, 3, 4, (2, 0))),  # red head-on but above
    5: ((4, 10, 0, 3, (2, 0)), (4, 17, 0, 3, (2, 0))),  # red behind
    6: ((4, 10, 0, 3, (2, 0)), (4, 15, 0, 4, (2, 0))),  # red behind and above
}


def validate_flight(
    fl: Flight,
    *,
    budget: int = FLIGHT_BUDGET,
    year: int | None = None,
    theater: str | None = None,
    allow_bombers: bool = False,
) -> None:
    """Raise :class:`ScenarioError` naming the rule a flight breaks (000 "BUILDING FLIGHTS")."""
    n = len(fl.members)
    if not FLIGHT_MIN <= n <= FLIGHT_MAX:
        raise ScenarioError(
            f"000 'BUILDING FLIGHTS': a flight has {FLIGHT_MIN} to {FLIGHT_MAX} aircraft, not {n}"
        )
    if fl.cost > budget:
        raise ScenarioError(
            f"000 'BUILDING FLIGHTS': the flight costs {fl.cost}, over {budget} points"
        )
    side = SIDE_INDEX[fl.side]
    for m in fl.members:
        s = m.stats
        if not allow_bombers and s.is_bomber:
            raise ScenarioError(f"000 'STANDARD SCENARIO': {s.name} is not a fighter")
        if nation_side(s.nation) != side:
            raise ScenarioError(
                f"000 'CHOOSING SIDES': {s.name} ({s.nation}) cannot fly for the {fl.side} side"
            )
        if year is not None and s.year is not None and s.year > year:
            raise ScenarioError(f"000 'YEAR RESTRICTIONS': {s.name} is from {s.year}, after {year}")
        if theater is not None:
            if theater not in THEATERS:
                raise ScenarioError(f"unknown theater {theater!r}")
            if s.nation not in THEATERS[theater][side]:
                raise ScenarioError(
                    f"000 'HISTORICAL THEATER RESTRICTIONS': {s.nation} did not fly for the {fl.side} in {theater}"
                )


def standard_scenario(
    axis: Flight,
    allied: Flight,
    dice: Dice,
    *,
    rules: Rules = _DEFAULT_RULES,
    year: int | None = None,
    theater: str | None = None,
    advantage: str | None = None,
    situation: int | None = None,
    width: int = DEFAULT_WIDTH,
    height: int = DEFAULT_HEIGHT,
) -> Scenario:
    """000 "STANDARD SCENARIO": build, roll for advantage and starting situation, deploy.

    The advantage roll is one d6: 1-3 the Axis player has the starting
    advantage, 4-6 the Allied player (ruling). The advantaged player sets up
    in the red area; in situations 4-6 the other (blue) player starts with
    10/20/30 VP. Pass ``advantage``/``situation`` to skip a roll.
    """
    if axis.side != "axis" or allied.side != "allied":
        raise ScenarioError("the Standard Scenario needs an axis flight and an allied flight")
    validate_flight(axis, year=year, theater=theater)
    validate_flight(allied, year=year, theater=theater)
    rolls: list[tuple[str, int]] = []
    if advantage is None:
        r = dice.d6("advantage")
        rolls.append(("advantage", r))
        advantage = "axis" if r <= 3 else "allied"
    if situation is None:
        situation = dice.d6("starting situation")
        rolls.append(("starting situation", situation))
    if situation not in SITUATIONS:
        raise ScenarioError("000 'STARTING SITUATIONS': a situation is 1-6")
    blue_side = "allied" if advantage == "axis" else "axis"
    blue, red = SITUATIONS[situation]
    flights = {"axis": axis, "allied": allied}
    setups = line_up(flights[blue_side].members, blue_side, *blue[:4], step=blue[4]) + line_up(
        flights[advantage].members, advantage, *red[:4], step=red[4]
    )
    start = [0.0, 0.0]
    start[SIDE_INDEX[blue_side]] = float(SITUATION_BONUS[situation])
    return Scenario(
        name=f"Standard Scenario (situation {situation})",
        kind="standard",
        aircraft=tuple(setups),
        rules=rules,
        width=width,
        height=height,
        start_vp=(start[0], start[1]),
        vp_target=60,
        situation=situation,
        advantaged_side=advantage,
        setup_rolls=tuple(rolls),
    )


def bomber_escort(
    escort: Flight,
    interceptors: Flight,
    *,
    rules: Rules = _DEFAULT_RULES,
    year: int | None = None,
    theater: str | None = None,
) -> Scenario:
    """000 "BOMBER ESCORT SCENARIO": two bombers must cross to the far (north) edge."""
    validate_flight(escort, year=year, theater=theater)
    validate_flight(interceptors, year=year, theater=theater)
    if escort.side == interceptors.side:
        raise ScenarioError("escort and interceptors must be on opposite sides")
    nation = escort.members[0].stats.nation
    bombers = [FlightMember(medium_bomber(nation)), FlightMember(medium_bomber(nation))]
    h = DEFAULT_HEIGHT
    setups = (
        # 000 "SETUP": bombers at least 3 hexes apart
        line_up(bombers, escort.side, 5, h - 2, 0, 3, step=(5, 0), roles=("bomber", "bomber"))
        + line_up(escort.members, escort.side, 3, h - 4, 0, 3, step=(2, 0))
        + line_up(interceptors.members, interceptors.side, 4, 3, 3, 3, step=(2, 0))
    )
    return Scenario(
        name="Bomber Escort",
        kind="bomber_escort",
        aircraft=tuple(setups),
        rules=rules,
        escort_side=escort.side,
        bomber_exit_edge="north",
    )


def custom(
    aircraft: list[AircraftSetup] | tuple[AircraftSetup, ...],
    *,
    rules: Rules = _DEFAULT_RULES,
    width: int = DEFAULT_WIDTH,
    height: int = DEFAULT_HEIGHT,
    name: str = "Custom",
    **kw: Any,
) -> Scenario:
    """A scenario of your own (000 "CONSTRUCTING YOUR OWN SCENARIOS")."""
    return Scenario(
        name=name,
        kind="custom",
        aircraft=tuple(aircraft),
        rules=rules,
        width=width,
        height=height,
        **kw,
    )

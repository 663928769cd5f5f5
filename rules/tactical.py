"""The small interface every tactical system implements.

A campaign hands an engagement to a tactical system and gets back one shape
of result, whichever game resolved it. *Angels 20* (000) implements it in
``rules.angels20.system``; *Air Force* (001) and *Air Pirates* (002) can join
later (``docs/architecture.md`` says how each one's sequence of play fits).

The shape follows python-chess and OpenSpiel: a frozen scenario and a seed
in; then ``current_side()``, sorted ``legal_actions()``, a checked
``apply(action)`` that raises an error citing the rule, ``undo()``,
``clone()``, ``is_over()``, ``result()``, and a JSON round trip. A battle's
canonical record is ``(system, scenario JSON, seed, actions as JSON)``:
``replay`` of that record gives the same state, log and result.

Systems join a registry by themselves: each declares a Python entry point in
the ``angels.tactical_systems`` group (pyproject.toml), loaded once by
:func:`tactical_systems`; this module imports none of them. A test registers
a system of its own with :func:`registered`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Literal, NotRequired, Protocol, TypedDict, runtime_checkable

ENTRY_POINT_GROUP = "angels.tactical_systems"
DEFAULT_SYSTEM = "angels20"  # the system of every battle stored before there were others

Side = Literal["axis", "allied"]
Fate = Literal["destroyed", "retreated", "damaged", "intact"]


BailoutDie = Literal["d6", "d10", "2d6"]
BAILOUT_DICE: dict[str, int] = {"d6": 6, "d10": 10, "2d6": 12}  # a die's highest face
# survived: the pilot got out (000: survived the roll); failed: did not;
# impossible: no roll allowed (002 13c1, two crew hits)
BAILOUT_OUTCOMES = ("survived", "failed", "impossible")


class Bailout(TypedDict):
    """One pilot's bail-out (or 000 'PILOT SURVIVAL') roll as the game that flew it rolled it."""

    roll: int | None  # the die as rolled, unmodified; None when no roll was allowed
    die: str  # one of BAILOUT_DICE
    modifier: int
    outcome: str  # one of BAILOUT_OUTCOMES
    early: bool  # bailed out before the aircraft was eliminated (002 13c3)


class AircraftDetail(TypedDict, total=False):
    """Each game's detail of one aircraft (optional keys: results stored before them,
    and the Angels 20 engine's own result, lack them; ``rules.angels20.detail``
    fills them for careers)."""

    damage_by_part: dict[str, int]  # hits by the parts its game uses (000: "airframe")
    crew_hits: int  # 002 13b2 crew hits
    cockpit_hits: int  # 001 "C" hits
    fires: int  # 002 13b4 fires burning when it went down
    bailout: Bailout | None  # None: nobody bailed out or rolled
    victory_points: float | None  # what its loss or retreat gave the enemy; None: unknown


class AircraftOutcome(AircraftDetail):
    """What became of one aircraft (and its pilot) in a tactical battle."""

    id: int
    name: str
    side: str
    pilot: str
    pilot_ref: str
    fate: str
    exit_edge: str | None
    scored_exit: bool
    damage: int
    destroyed_by: int | None
    destroyed_by_pilot_ref: str | None
    survival_roll: int | None
    survival_modifier: int | None
    pilot_survived: bool | None


class KillDetail(TypedDict, total=False):
    """Who is credited with a kill and by which rule (optional, as :class:`AircraftDetail`)."""

    credit_rule: str  # a rulebook citation, e.g. "001 'How Kills are Scored'"
    contenders: list[int]  # the aircraft that shared the last attack (one: no roll)
    credit_rolls: list[list[Any]]  # the tie's roll-off, as ``Roll.to_json()`` lists


class KillOutcome(KillDetail):
    """One aircraft shot down: by whom (``attacker`` is credited), in which game turn."""

    attacker: int
    attacker_pilot_ref: str
    target: int
    target_pilot_ref: str
    turn: int


class TacticalResult(TypedDict):
    """The one engagement-result shape every tactical system returns."""

    scenario: str
    kind: str
    winner: str | None  # "axis" / "allied"; None for a draw
    reason: str
    victory_points: dict[str, float]
    turns_played: int
    aircraft: list[AircraftOutcome]
    kills: list[KillOutcome]


RESULT_KEYS = frozenset(TacticalResult.__annotations__)
AIRCRAFT_KEYS = frozenset(AircraftOutcome.__required_keys__)
KILL_KEYS = frozenset(KillOutcome.__required_keys__)
AIRCRAFT_DETAIL_KEYS = frozenset(AircraftDetail.__optional_keys__)
KILL_DETAIL_KEYS = frozenset(KillDetail.__optional_keys__)


class TacticalAction(Protocol):
    """A small frozen action with a readable ``str`` and a JSON form."""

    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class TacticalBattle(Protocol):
    """A battle in progress. Sides are numbered by their index in ``sides``."""

    log: list[dict[str, Any]]
    turn: int  # the game turn (a battle's progress while a worker flies it)

    def current_side(self) -> int | None: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> None: ...

    def undo(self) -> None: ...

    def clone(self) -> TacticalBattle: ...

    def is_over(self) -> bool: ...

    def result(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


class ComputerPilot(Protocol):
    """A computer pilot flying one side: seeded once, it decides each time it is asked.

    A system with simultaneous decisions gives its pilots ``choose_for(battle, side)``
    too (the side to decide for, one of :func:`deciding_sides`); the pilot reads only
    what :func:`view_for` shows that side (it never peeks at a sealed decision)."""

    def choose(self, battle: Any) -> Any: ...


# -- hidden information and simultaneous decisions (issue 25) -------------------------
# Optional methods of a battle; the functions below answer for a system that has none
# (Angels 20 hides nothing and has one side decide at a time, 000 "SEQUENCE OF PLAY").
#
#   deciding_sides() -> list[int]   the sides whose decision is awaited now; several at
#                                   once for a simultaneous decision (001 V: both sides
#                                   plot, sealed). A side that has sealed its decision
#                                   is no longer listed; ``current_side()`` is one of them.
#   legal_actions_for(side) -> Sequence   that side's legal actions now.
#   decision_side(action) -> int    whose decision ``action`` is (a plot names its aircraft).
#   sealed_count() -> int           how many of the last applied actions are sealed
#                                   decisions not yet revealed (0: none); ``apply`` of the
#                                   last one reveals them all and applies them together.
#   view(side) -> dict              what ``side`` (None: a spectator) may see now.
#   log_for(side) -> list[dict]     the log as ``side`` (None: a spectator) may read it now:
#                                   one entry per event (a hidden one redacted, not dropped,
#                                   so notes and ``since`` keep their indices).
# After the battle everyone sees everything: callers show the whole log once it is over.
#
# A decision built step by step (issue 25): an *Air Force* plot ("2TR2P", 001 V) is far
# too large to list whole, so the battle offers it as a sequence of small choices, in the
# game's own notation, and checks the whole once when it is submitted:
#
#   decision_steps(side, partial: tuple[str, ...]) -> DecisionSteps | None
#                                   after the steps ``partial`` chosen so far: the legal next
#                                   steps, and whether ``partial`` is already a whole decision;
#                                   None: ``side``'s decision now is not built in steps (it is
#                                   listed whole by ``legal_actions_for``, as every decision of
#                                   a game without the method). Called only with a ``partial``
#                                   whose every step was offered (:func:`steps_check` walks it).
#   action_from_steps(side, steps) -> action    the whole decision, checked once (raising the
#                                   system's ``refusal`` naming the rule); applied like any
#                                   action, so the record and replay are unchanged.
#   steps_from_text(side, text) -> tuple[str, ...]   (optional) typed notation read into
#                                   steps; the default reads it with the offered steps
#                                   themselves (:func:`steps_from_text`).
#   steps_text(steps) -> str        (optional) the steps written in the notation (default:
#                                   joined, "2" "T" "R" -> "2TR").
# The seat builds its (sealed) decision with these and submits it as one action;
# simultaneity and the views above stay as they are.


@dataclass(frozen=True)
class DecisionSteps:
    """What may follow a partial decision: its legal next steps, in the game's notation."""

    next: tuple[str, ...]  # the legal next steps (empty: nothing may follow)
    complete: bool  # the steps so far are a whole decision (it may be submitted as it is)
    prompt: str = ""  # what the next step chooses, in words ("the aim")
    labels: Mapping[str, str] = field(default_factory=dict, hash=False)  # "R": "turn right"
    rule: str | None = (
        None  # the rulebook section the steps follow, e.g. "001 'V. SEQUENCE OF PLAY'"
    )


class StepRefused(ValueError):
    """A step, or a character of typed notation, the decision does not allow there.

    ``index`` is the step's place in the partial decision (0: the first) or, for typed
    text, the character's; ``offered`` what was legal there instead."""

    def __init__(self, message: str, index: int, offered: DecisionSteps) -> None:
        super().__init__(message)
        self.message, self.index, self.offered = message, index, offered


def decision_steps(battle: Any, side: int, partial: Sequence[str] = ()) -> DecisionSteps | None:
    """What may follow ``partial`` in ``side``'s decision (None: not built in steps). The
    caller vouches for ``partial``; :func:`steps_check` checks it step by step."""
    own = getattr(battle, "decision_steps", None)
    return None if own is None else own(side, tuple(partial))


def listed_for(battle: Any, side: int) -> list[Any]:
    """``side``'s legal actions as a list to choose from: none while its decision is built
    in steps (too many to list whole), :func:`legal_for` otherwise."""
    return [] if decision_steps(battle, side) is not None else legal_for(battle, side)


def steps_check(battle: Any, side: int, partial: Sequence[str]) -> tuple[DecisionSteps, list[str]]:
    """(what may follow ``partial``, each chosen step in words), every step checked against
    what was offered before it; :class:`StepRefused` names the first step not offered."""
    offered = decision_steps(battle, side, ())
    if offered is None:
        raise StepRefused("this decision is not built step by step", 0, DecisionSteps((), False))
    words: list[str] = []
    for i, step in enumerate(partial):
        if step not in offered.next:
            after = f" after {steps_text(battle, partial[:i])!r}" if i else ""
            legal = ", ".join(offered.next) or "nothing (the decision is whole)"
            raise StepRefused(f"step {i + 1} {step!r} is not legal{after}: {legal}", i, offered)
        words.append(offered.labels.get(step, step))
        found = decision_steps(battle, side, partial[: i + 1])
        assert found is not None  # the decision was offered in steps at its start
        offered = found
    return offered, words


def steps_from_text(battle: Any, side: int, text: str) -> tuple[str, ...]:
    """Typed notation read into steps: the battle's own reading, or by default the longest
    offered step at each place (letters in either case; spaces, commas and dots between
    steps skipped). :class:`StepRefused` names the first character that fits no step."""
    own = getattr(battle, "steps_from_text", None)
    if own is not None:
        return tuple(own(side, text))
    steps: list[str] = []
    at = 0
    while at < len(text):
        if text[at].isspace() or text[at] in ",.":
            at += 1
            continue
        offered = decision_steps(battle, side, steps)
        if offered is None:
            raise StepRefused(
                "this decision is not built step by step", at, DecisionSteps((), False)
            )
        rest = text[at:].upper()
        fits = [s for s in offered.next if s and rest.startswith(s.upper())]
        if not fits:
            legal = ", ".join(offered.next) or "nothing (the decision is whole)"
            raise StepRefused(
                f"character {at + 1} {text[at]!r} of {text!r} fits no step here: {legal}",
                at,
                offered,
            )
        step = max(fits, key=len)
        steps.append(step)
        at += len(step)
    return tuple(steps)


def steps_text(battle: Any, steps: Sequence[str]) -> str:
    """The steps written in the game's notation (default: joined)."""
    own = getattr(battle, "steps_text", None)
    return str(own(tuple(steps))) if own is not None else "".join(steps)


def action_from_steps(battle: Any, side: int, steps: Sequence[str]) -> Any:
    """``side``'s whole decision from its steps, checked once (the system's ``refusal``)."""
    own = getattr(battle, "action_from_steps", None)
    if own is None:
        raise StepRefused("this decision is not built step by step", 0, DecisionSteps((), False))
    return own(side, tuple(steps))


def deciding_sides(battle: Any) -> list[int]:
    """The sides whose decision the battle awaits now (default: the side to act)."""
    own = getattr(battle, "deciding_sides", None)
    if own is not None:
        return list(own())
    side = battle.current_side()
    return [] if side is None else [side]


def legal_for(battle: Any, side: int) -> list[Any]:
    """``side``'s legal actions now (default: the legal actions if ``side`` is to act)."""
    own = getattr(battle, "legal_actions_for", None)
    if own is not None:
        return list(own(side))
    return list(battle.legal_actions()) if side == battle.current_side() else []


def decision_side(battle: Any, action: Any) -> int | None:
    """Whose decision ``action`` is (default: the side to act)."""
    own = getattr(battle, "decision_side", None)
    return own(action) if own is not None else battle.current_side()


def sealed_count(battle: Any) -> int:
    """How many of the last actions are sealed decisions not yet revealed (default 0)."""
    own = getattr(battle, "sealed_count", None)
    return int(own()) if own is not None else 0


def view_for(battle: Any, side: int | None) -> dict[str, Any] | None:
    """What ``side`` may see of the battle now; None for a system with no view of its own
    (it hides nothing: its state is the view)."""
    own = getattr(battle, "view", None)
    return own(side) if own is not None else None


def log_for(battle: Any, side: int | None) -> list[dict[str, Any]]:
    """The log as ``side`` may read it now (default: the whole log)."""
    own = getattr(battle, "log_for", None)
    return list(own(side)) if own is not None else battle.log


def choose_for(pilot: Any, battle: Any, side: int) -> Any:
    """``pilot``'s decision for ``side`` (default: ``choose``, for the side to act)."""
    own = getattr(pilot, "choose_for", None)
    return own(battle, side) if own is not None else pilot.choose(battle)


# -- what the pages draw (issue 25) -----------------------------------------------------
# Optional methods; a game without them is shown by its turn, choices and log alone (the
# fallbacks below). Every optional key of a Board below changes only how it is drawn.
#
#   describe_board(side) -> Board | None   (a battle's) the map ``side`` (None: a spectator)
#                                   may see now, as plain data; None: the game has no map.
#   phase_text() -> str             (a battle's) the phase now in the game's words ("" none).
#   log_sentence(entry) -> str      (a system's or its battle's) one log entry as a sentence
#                                   in the game's words, headed by its turn if it likes.
#   decision_odds(side, action) -> DecisionOdds | None   (a battle's) the odds of one of
#                                   ``side``'s decisions now, shown beside the choice.


class BoardPiece(TypedDict, total=False):
    """One piece on a described map: ``id``, ``side``, ``label`` and ``hex`` are required."""

    id: int | str
    side: str  # one of the system's sides
    label: str  # short, on the map ("#1 A3 S4")
    title: str  # longer, on hover ("Heinkel 51, axis, altitude 3, speed 4")
    hex: list[int]  # [column, row]
    facing: int | None  # 0-5 hexsides clockwise from the top; None: no facing drawn
    altitude: str
    speed: str
    status: str  # "" or a word ("damaged", "diving")
    damaged: bool
    name: str  # the aircraft's name alone ("Bf 109E"), where the label carries more
    shape: Literal["fighter", "bomber"]  # the counter drawn (default: fighter if it faces)
    in_cloud: bool  # drawn inside a cloud's ring (000 "CLOUDS")


class BoardMarker(TypedDict):
    """Something else on the map (a cloud, a target): its hexes and a label."""

    hexes: list[list[int]]  # the first is where the label is written
    label: str
    title: NotRequired[str]  # on hover (default: the label)
    kind: NotRequired[Literal["cloud", "flak", "balloon"]]  # how it is drawn (default: cloud)


class BoardPick(TypedDict):
    """One of the viewer's decisions now, picked by clicking it on the map: ``action`` is
    the decision's JSON exactly as the battle's legal actions give it, ``hexes`` those it
    would reach (drawn; the tab the player clicks sits at the last), ``label`` short."""

    action: dict[str, Any]
    label: str  # on the tab ("turn left")
    hexes: list[list[int]]  # [column, row] each
    title: NotRequired[str]  # on hover (default: the label)


class BoardPart(TypedDict):
    """One part of a unit's control card: its hits out of its boxes."""

    name: str  # "engine"
    hits: int
    boxes: int


class BoardUnit(TypedDict):
    """A unit's damage panel: its parts' boxes, and short notes (fires, ammunition the
    viewer may see, crew hits); ``status`` "" or a word ("eliminated")."""

    id: int | str
    side: str
    name: str
    parts: list[BoardPart]
    notes: list[str]
    status: NotRequired[str]


class Board(TypedDict):
    """A hex map as a page draws it: ``columns`` x ``rows`` flat-topped hexes in odd-q
    offset coordinates (odd columns half a hex down: the only ``orientation`` the pages
    draw, "flat-odd-q"), with its pieces and markers."""

    kind: Literal["hex"]
    columns: int
    rows: int
    orientation: Literal["flat-odd-q"]
    pieces: list[BoardPiece]
    markers: list[BoardMarker]
    label_room: NotRequired[bool]  # room right of the map for long labels (default True)
    picks: NotRequired[list[BoardPick]]  # decisions picked on the map (default: none)
    units: NotRequired[list[BoardUnit]]  # each unit's damage panel (default: none)


def describe_board(battle: Any, side: int | None) -> Board | None:
    """The map ``side`` may see now (default: none)."""
    own = getattr(battle, "describe_board", None)
    return None if own is None else own(side)


def phase_text(battle: Any) -> str:
    """The phase now in the game's own words (default: none)."""
    own = getattr(battle, "phase_text", None)
    return "" if own is None else str(own())


def log_sentence(owner: Any, entry: dict[str, Any]) -> str | None:
    """``entry`` in the game's own words, from a system or battle with ``log_sentence``
    (default None: the caller's generic sentence)."""
    own = getattr(owner, "log_sentence", None)
    return None if own is None else str(own(entry))


class OddsModifier(TypedDict):
    """One modifier of a decision's odds: its name, its value, the rule that gives it."""

    name: str  # "range 3", "deflection"
    value: int  # added to the roll (or its target), as the rule says: +2, -1
    rule: str  # the rule that gives it, cited as everywhere ("002 15b3")


class DecisionOdds(TypedDict):
    """The odds of one decision, as a page shows them beside the choice.

    ``chance``: from 0 to 1, the chance the decision succeeds (a shot scores a hit, a
    maneuver check passes), computed without rolling a die or changing the battle;
    ``text``: the same in plain words ("hits 42%"); ``modifiers``: what made it so."""

    chance: float
    text: str
    modifiers: list[OddsModifier]


def decision_odds(battle: Any, side: int, action: Any) -> DecisionOdds | None:
    """The odds of ``side``'s decision ``action`` now, from the battle's own
    ``decision_odds(side, action)`` (a DecisionOdds); None when the game has no such
    method or the decision has no odds (a move, a pass)."""
    own = getattr(battle, "decision_odds", None)
    return None if own is None else own(side, action)


def board_problems(board: Any) -> list[str]:
    """Problems with a described board (empty: the pages can draw it)."""
    if not isinstance(board, dict) or board.get("kind") != "hex":
        return ['a board is an object with kind "hex"']
    problems = []
    if board.get("orientation") != "flat-odd-q":
        problems.append('orientation is "flat-odd-q"')
    cols, rows = board.get("columns", 0), board.get("rows", 0)
    if not (_count(cols) and _count(rows) and 0 < cols <= 200 and 0 < rows <= 200):
        return [*problems, "columns and rows are whole numbers from 1 to 200"]
    for i, piece in enumerate(board.get("pieces", [])):
        place = piece.get("hex") if isinstance(piece, dict) else None
        if not (isinstance(place, list) and len(place) == 2 and all(map(_count, place))):
            problems.append(f"pieces[{i}].hex is [column, row]")
        elif not (place[0] < cols and place[1] < rows):
            problems.append(f"pieces[{i}].hex {place} is off the map")
    return problems


class TacticalSystem(Protocol):
    """A tactical rules system: how to start, read and replay its battles, and fly
    them with computer pilots. What the battles app asks of every game."""

    name: str  # the key stored on a battle (``Battle.system``), e.g. "angels20"
    title: str  # the game's name as pages show it, e.g. "Angels 20"
    rulebook: str  # the rulebook file number, e.g. "000"
    sides: tuple[str, ...]
    pilots: tuple[str, ...]  # the computer pilots' names, sorted
    # The exception ``apply`` raises for an action the rules refuse; it carries
    # ``message`` (in words) and ``rule`` (the rulebook section cited).
    refusal: type[Exception]

    def new_battle(self, scenario: dict[str, Any], seed: int) -> TacticalBattle: ...

    def action_from_json(self, data: dict[str, Any]) -> Any: ...

    def battle_from_json(self, data: dict[str, Any]) -> TacticalBattle: ...

    def scenario_json(self, scenario: dict[str, Any]) -> dict[str, Any]:
        """The scenario as this system writes it (raises ``KeyError``, ``TypeError``,
        ``ValueError``... on one it cannot read)."""
        ...

    def replay(
        self,
        scenario: dict[str, Any],
        seed: int,
        actions: Sequence[dict[str, Any]],
        *,
        checked: bool = True,
    ) -> TacticalBattle:
        """The battle flown from its record; ``checked=False`` applies actions already
        checked when they were taken, without checking them again."""
        ...

    def pilot_seed(self, battle_seed: int, side: str) -> int:
        """The seed of the computer pilot flying ``side`` in the battle seeded ``battle_seed``."""
        ...

    def computer_pilot(self, name: str, seed: int) -> ComputerPilot:
        """The computer pilot ``name`` (one of ``pilots``), seeded ``seed``."""
        ...


class UnknownSystem(LookupError):
    """A tactical system nobody registered; the message names the known ones."""

    def __init__(self, name: object, known: Sequence[str]) -> None:
        self.name, self.known = name, tuple(known)
        super().__init__(
            f"unknown tactical system {name!r} (known: {', '.join(self.known) or 'none'})"
        )

    def __str__(self) -> str:  # a LookupError's str would quote the whole message
        return str(self.args[0])


_SYSTEMS: dict[str, TacticalSystem] = {}
_LOCK = threading.Lock()
_loaded = False


def _load_entry_points() -> None:
    """Register every system declared in the ``angels.tactical_systems`` group, once."""
    global _loaded
    if _loaded:
        return
    with _LOCK:
        if _loaded:
            return
        for point in entry_points(group=ENTRY_POINT_GROUP):
            system = point.load()
            if system.name != point.name:
                raise ValueError(
                    f"entry point {point.name!r} of {ENTRY_POINT_GROUP} names a system "
                    f"called {system.name!r}"
                )
            _SYSTEMS.setdefault(system.name, system)
        _loaded = True


def register(system: TacticalSystem) -> TacticalSystem:
    """Add ``system`` to the registry under its ``name`` (again: no change). Another
    system already under that name is refused."""
    _load_entry_points()
    with _LOCK:
        there = _SYSTEMS.get(system.name)
        if there is not None and there is not system:
            raise ValueError(f"a tactical system named {system.name!r} is registered already")
        _SYSTEMS[system.name] = system
    return system


def unregister(name: str) -> None:
    """Take the system ``name`` out of the registry (tests)."""
    with _LOCK:
        _SYSTEMS.pop(name, None)


@contextmanager
def registered(system: TacticalSystem) -> Iterator[TacticalSystem]:
    """``system`` registered for the ``with`` block only (a test's own system)."""
    register(system)
    try:
        yield system
    finally:
        unregister(system.name)


def tactical_systems() -> dict[str, TacticalSystem]:
    """Every tactical system the product can fly, by name (sorted)."""
    _load_entry_points()
    with _LOCK:
        return dict(sorted(_SYSTEMS.items()))


def system_named(name: object) -> TacticalSystem:
    """The tactical system called ``name``; :class:`UnknownSystem` names the known ones."""
    systems = tactical_systems()
    if not isinstance(name, str) or name not in systems:
        raise UnknownSystem(name, list(systems))
    return systems[name]


def check_result(result: Any) -> list[str]:
    """Problems with a result's shape (empty when it is a valid :class:`TacticalResult`)."""
    problems = []
    if not isinstance(result, dict):
        return ["a result is a JSON object"]
    if set(result) != RESULT_KEYS:
        problems.append(f"result keys {sorted(set(result) ^ RESULT_KEYS)} differ")
    for i, plane in enumerate(result.get("aircraft", [])):
        if set(plane) - AIRCRAFT_DETAIL_KEYS != AIRCRAFT_KEYS:
            differ = sorted((set(plane) - AIRCRAFT_DETAIL_KEYS) ^ AIRCRAFT_KEYS)
            problems.append(f"aircraft keys {differ} differ")
        problems += _detail_problems(plane, f"aircraft[{i}]", _AIRCRAFT_DETAIL_CHECKS)
    for i, kill in enumerate(result.get("kills", [])):
        if set(kill) - KILL_DETAIL_KEYS != KILL_KEYS:
            problems.append(
                f"kill keys {sorted((set(kill) - KILL_DETAIL_KEYS) ^ KILL_KEYS)} differ"
            )
        problems += _detail_problems(kill, f"kills[{i}]", _KILL_DETAIL_CHECKS)
    if result.get("winner") not in (None, "axis", "allied"):
        problems.append(f"winner {result.get('winner')!r} is neither a side nor None")
    return problems


# -- the detail's types, checked by path ("aircraft[0].bailout.die") ----------------


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _parts(value: Any, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path} is an object of part names to hit counts"]
    return [f"{path}.{k} is a count of 0 or more" for k, v in value.items() if not _count(v)]


def _bailout(value: Any, path: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, dict) or set(value) != set(Bailout.__annotations__):
        return [f"{path} is null or an object with keys {sorted(Bailout.__annotations__)}"]
    problems = []
    die, roll = value["die"], value["roll"]
    if die not in BAILOUT_DICE:
        problems.append(f"{path}.die is one of {sorted(BAILOUT_DICE)}, not {die!r}")
    low = 2 if die == "2d6" else 1
    if roll is not None and not (_count(roll) and low <= roll <= BAILOUT_DICE.get(die, 12)):
        problems.append(f"{path}.roll is null or a face of the {die} die, not {roll!r}")
    if not isinstance(value["modifier"], int) or isinstance(value["modifier"], bool):
        problems.append(f"{path}.modifier is a whole number")
    if value["outcome"] not in BAILOUT_OUTCOMES:
        problems.append(f"{path}.outcome is one of {list(BAILOUT_OUTCOMES)}")
    if not isinstance(value["early"], bool):
        problems.append(f"{path}.early is true or false")
    return problems


def _victory_points(value: Any, path: str) -> list[str]:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return [] if value is None or number else [f"{path} is null or a number"]


def _counted(value: Any, path: str) -> list[str]:
    return [] if _count(value) else [f"{path} is a whole number of 0 or more"]


def _citation(value: Any, path: str) -> list[str]:
    good = isinstance(value, str) and len(value) > 6 and value[:3].isdigit() and value[3:5] == " '"
    return (
        []
        if good and value.endswith("'")
        else [f"{path} is a rulebook citation like \"000 'TAILING'\""]
    )


def _ids(value: Any, path: str) -> list[str]:
    good = isinstance(value, list) and all(_count(v) for v in value)
    return [] if good else [f"{path} is a list of aircraft ids"]


def _rolls(value: Any, path: str) -> list[str]:
    good = isinstance(value, list) and all(isinstance(r, list) and len(r) == 3 for r in value)
    return [] if good else [f"{path} is a list of [purpose, sides, value] rolls"]


_AIRCRAFT_DETAIL_CHECKS = {
    "damage_by_part": _parts,
    "crew_hits": _counted,
    "cockpit_hits": _counted,
    "fires": _counted,
    "bailout": _bailout,
    "victory_points": _victory_points,
}
_KILL_DETAIL_CHECKS = {"credit_rule": _citation, "contenders": _ids, "credit_rolls": _rolls}


def _detail_problems(entry: Any, path: str, checks: dict[str, Any]) -> list[str]:
    if not isinstance(entry, dict):
        return [f"{path} is a JSON object"]
    problems: list[str] = []
    for key, check in checks.items():
        if key in entry:
            problems += check(entry[key], f"{path}.{key}")
    return problems

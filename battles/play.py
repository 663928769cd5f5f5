"""Battles flown by people (issue 14): each side's seat is a person or a computer pilot.

A person-flown battle is stored like any other (setup, seed, ``actions``,
``log``) with its seats in ``settings["seats"]``::

    {"axis": {"user": 7}, "allied": {"pilot": "tactical"}}

It stays ``in play`` while people fly it. The engine's state is never stored:
it is rebuilt from seed + actions (the replay every battle already has), so
the report, the replay and the result are those of an engine battle.

:func:`turn_view` is what one user may see now (the state without the dice's
state or the seed: with them the next rolls could be foreseen; 000 has no
other hidden information, a move being flown as soon as it is chosen).
:func:`turn_act` applies one action with the engine's checked ``apply``
inside a transaction holding the battle's row lock, then lets the computer
seats act at once, and at the end finishes the battle and hands its result
on exactly as a worker does (``battles.apply_result``).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from angels.errors import RuleViolation, is_citation
from rules.angels20 import Action, Activate, BattleState
from rules.angels20.actions import STATUSES
from rules.angels20.move_choices import movable
from rules.angels20.plane import OUT_NAMES
from rules.angels20.preview import attack_preview, maneuver_chance
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.dice import derive_seed
from rules.tactical import (
    choose_for,
    deciding_sides,
    decision_side,
    listed_for,
    log_for,
    sealed_count,
    system_named,
    view_for,
)

from . import play_moves
from .board_drawing import other_game_turn
from .handing import aircraft_refusal
from .models import Battle, BattleStatus
from .play_notes import note_add, notes_since
from .play_seats import (  # the seats and the time per decision
    _pilot_names,
    deadline_seconds,
    default_pilot,
    offered_sides,
    refuse_while_waiting,
    seat_names,
    seats_of,
    user_sides,
    waiting_for,
)
from .play_seats import deadline_words as deadline_words  # re-exported: callers use play.<name>
from .play_seats import settings_with_seats as settings_with_seats
from .rules_settings import SIDES

SEQUENCE_RULE = "000 'SEQUENCE OF PLAY'"
MAX_COMPUTER_ACTIONS = 20_000  # a computer seat's run of decisions; a bug, not a battle, beyond


# -- the engine's state ----------------------------------------------------------------
def replay_state(battle: Battle) -> BattleState:
    """The battle now: its setup flown by its system from its seed through its stored actions.

    The actions were checked when they were taken, so they are applied unchecked
    (the dice are the same, so is the state)."""
    system = system_named(battle.system)
    state = system.replay(battle.setup, battle.seed, battle.actions, checked=False)
    return cast(BattleState, state)  # the play-by-web view below reads Angels 20's state


class StateCache:
    """The latest states of the battles in play, per process: a request need not replay
    the whole battle (both players' pages poll the turn every 2 s).

    A state is kept under what it was flown from: the battle's pk, creation time and
    seed and a digest of its actions, so it is never a state of other actions (a move
    rolled back, a row rewritten, a pk reused): any change misses, and a miss replays,
    the replay being the truth. Each reader gets its own copy (``BattleState.clone``),
    so nothing a request does to its state reaches the cache."""

    SIZE = 64

    def __init__(self) -> None:
        self._states: OrderedDict[int, tuple[tuple[Any, ...], BattleState]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    @staticmethod
    def key(battle: Battle, actions: list[dict[str, Any]] | None = None) -> tuple[Any, ...]:
        flown = json.dumps(battle.actions if actions is None else actions).encode()
        digest = hashlib.blake2b(flown, digest_size=16).digest()
        return (battle.created_at, battle.seed, digest)

    def get(self, battle: Battle) -> BattleState:
        key = self.key(battle)
        with self._lock:
            kept = self._states.get(battle.pk)
            if kept is not None and kept[0] == key:
                self._states.move_to_end(battle.pk)
                self.hits += 1
                return kept[1].clone()
            self.misses += 1
        state = replay_state(battle)
        self._keep(battle.pk, key, state)
        return state.clone()

    def put(self, battle: Battle, state: BattleState) -> None:
        """Keep ``state``, flown through ``battle.actions``."""
        self._keep(battle.pk, self.key(battle), state.clone())

    def _keep(self, pk: int, key: tuple[Any, ...], state: BattleState) -> None:
        with self._lock:
            self._states[pk] = (key, state)
            self._states.move_to_end(pk)
            while len(self._states) > self.SIZE:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


STATES = StateCache()


def battle_state(battle: Battle) -> BattleState:
    """The battle now (a copy of its own: change it freely), from the cache or replayed."""
    return STATES.get(battle)


def _pilot_of(battle: Battle, side: str) -> str:
    """A side's computer pilot: its seat's, or its person's stand-in (default_pilot)."""
    return str(seats_of(battle).get(side, {}).get("pilot") or default_pilot(battle.system))


def _handed_aircraft(battle: Battle, state: BattleState, side: int) -> set[int] | None:
    """The side's aircraft the computer flies (None: the whole side)."""
    name = ENGINE_SIDES[side]
    seat = seats_of(battle).get(name, {})
    handed = (battle.handed or {}).get(name)
    if "user" not in seat or handed == "side":
        return None
    if not isinstance(state, BattleState):
        return set()  # a game without Angels 20's aircraft here: only a whole side is handed
    ids = set(handed or [])
    in_play = set(state.in_play(side))
    if in_play and in_play <= ids:
        return None  # every aircraft still flying is the computer's: so is the side
    return ids


def _decision_aircraft(state: BattleState) -> set[int]:
    """The aircraft this decision is about: the one moving, or those its choices name."""
    if state.mover >= 0:
        return {state.mover}
    named: set[int] = set()
    for action in state.legal_actions():
        data = action.to_json()
        for key in ("plane", "attacker"):
            if key in data:
                named.add(data[key])
        named.update(data.get("planes", ()))
    return named


def _computer_decides(
    battle: Battle, state: BattleState
) -> tuple[str, set[int] | None, int] | None:
    """Is a decision awaited now the computer's? (its pilot, the aircraft it may move, the
    side) or None; of several sides deciding at once (rules.tactical.deciding_sides), the
    first whose decision is the computer's."""
    for side in deciding_sides(state):
        who = _computer_for(battle, state, side)
        if who is not None:
            return (*who, side)
    return None


def _computer_for(
    battle: Battle, state: BattleState, side: int
) -> tuple[str, set[int] | None] | None:
    """Is ``side``'s decision the computer's? (its pilot, the aircraft it may move) or None.

    A seat of a computer pilot, a side handed to the computer, or a decision about
    the handed aircraft only. When the side chooses which aircraft moves next and some
    of its handed aircraft may, the computer flies one of those first (docs/rulings.md,
    "Play by web: handing over")."""
    seat = seats_of(battle).get(ENGINE_SIDES[side], {})
    if "user" not in seat:
        return (seat["pilot"], None) if "pilot" in seat else None
    handed = _handed_aircraft(battle, state, side)
    pilot = _pilot_of(battle, ENGINE_SIDES[side])
    if handed is None:
        return pilot, None
    if not handed:
        return None
    about = _decision_aircraft(state)
    if about and about <= handed:
        return pilot, None
    if state.phase == "movement" and state.mover < 0 and about & handed:
        return pilot, about & handed
    return None


def _choose(
    battle: Battle,
    state: BattleState,
    pilot: str,
    before: int,
    only: set[int] | None = None,
    side: int | None = None,
) -> Action:
    """The computer's decision (for ``side``); with ``only``, one that moves one of those
    aircraft (the pilot chooses on a copy where the side's other aircraft have already moved)."""
    if only is None:
        return _pilot_choice(battle, state, pilot, before, side)
    view = state.clone()
    for plane in view.planes:
        if plane.side == view.to_act and plane.id not in only:
            plane.moved = True
    return _pilot_choice(battle, view, pilot, before)


def _computer_acts(battle: Battle, state: BattleState, actions: list[dict[str, Any]]) -> int:
    """The computer decides while the decision is its (a computer seat, or what a person
    handed over); returns how many actions it took.

    Each decision's pilot is seeded from the battle's seed, the side and the
    number of actions before it (``derive_seed``), so the same battle makes the
    same decisions; the replay needs only the stored actions anyway."""
    taken = 0
    while (who := _computer_decides(battle, state)) is not None:
        if taken >= MAX_COMPUTER_ACTIONS:
            raise RuntimeError(f"computer pilots took {taken} actions without a person's turn")
        pilot, only, side = who
        action = _choose(battle, state, pilot, len(actions), only, side)
        state.apply(action)
        actions.append(action.to_json())
        taken += 1
    return taken


def _pilot_choice(
    battle: Battle, state: BattleState, pilot: str, before: int, side: int | None = None
) -> Action:
    """The computer pilot ``pilot``'s decision for ``side`` (the side to act unless given),
    ``before`` actions in."""
    system = system_named(battle.system)
    side = (state.current_side() or 0) if side is None else side
    seed = derive_seed(system.pilot_seed(battle.seed, system.sides[side]), f"decision {before}")
    return cast(Action, choose_for(system.computer_pilot(pilot, seed), state, side))


def _save(
    battle: Battle,
    state: BattleState,
    actions: list[dict[str, Any]],
    *,
    clock_from: datetime | None = None,
) -> None:
    """Store the moves (version one more), the next decision's deadline (counted from
    ``clock_from``, now unless given; a simultaneous decision some sides have sealed keeps
    its clock: the others' time does not start again); at the end, the result, handed on
    after commit."""
    from .services import _dispatch_apply

    battle.actions = actions
    battle.log = state.log
    battle.version += 1
    fields = ["actions", "log", "version", "notes", "handed", "decision_due"]
    seconds = deadline_seconds(battle)
    if not (clock_from is None and sealed_count(state) and battle.decision_due is not None):
        battle.decision_due = (
            (clock_from or timezone.now()) + timedelta(seconds=seconds)
            if seconds and not state.is_over() and _computer_decides(battle, state) is None
            else None
        )
    if state.is_over():
        battle.status = BattleStatus.FINISHED
        battle.result = state.result()
        battle.finished_at = timezone.now()
        fields += ["status", "result", "finished_at"]
        # the same apply step as a battle a worker flew: kills and losses reach the roster once
        _dispatch_apply([battle.pk])
    battle.save(update_fields=fields)
    STATES.put(battle, state)  # kept by its actions: a rollback leaves it unused


def play_start(battle: Battle) -> None:
    """A person-flown battle just stored: the computer seats act if theirs is the first
    decision; the first decision's clock starts."""
    state = battle_state(battle)
    actions = list(battle.actions)
    Battle.objects.filter(pk=battle.pk).update(started_at=timezone.now())
    _computer_acts(battle, state, actions)
    _save(battle, state, actions)


def _locked(battle_id: int) -> Battle | None:
    """The battle, its row locked until the transaction ends. Its ``log`` is not loaded:
    the state rewrites it (it is the row's biggest field)."""
    return Battle.objects.select_for_update().defer("log").filter(pk=battle_id).first()


# -- deadlines -------------------------------------------------------------------------
def deadline_pass(battle_id: int, *, now: datetime | None = None) -> int:
    """The decisions whose time ran out, made by the computer pilot of the side to act;
    answers how many deadlines passed (0: none, or someone else already acted).

    Under the battle's row lock, and only if the stored ``decision_due`` has passed:
    a person's move in the meantime moved it on, so a move and a deadline never both
    count, and the beat task and a page load passing the same deadline pass it once.
    Each passed deadline starts the next decision's clock from the moment it passed
    (nobody watching for a while: the same decisions the beat would have made)."""
    with transaction.atomic():
        battle = _locked(battle_id)
        if battle is None or battle.status != BattleStatus.IN_PLAY:
            return 0
        return len(_pass_due(battle, now or timezone.now()))


def _pass_due(battle: Battle, now: datetime, *, late: str = "") -> list[str]:
    """:func:`deadline_pass` on a battle whose row the caller holds locked: the computer's
    decisions, in words ("axis: Move ..."), one per deadline passed (none: none was due).
    ``late``: the person whose move came too late, named in the log before them."""
    seconds = deadline_seconds(battle)
    due = battle.decision_due
    if not seconds or due is None or due > now:
        return []
    state = battle_state(battle)
    actions = list(battle.actions)
    if late:
        note_add(battle, state, f"{late}'s move came after the deadline and was not applied")
    chosen: list[str] = []
    while due is not None and due <= now and (waiting := deciding_sides(state)):
        for side in waiting:  # every person still to decide (several: a simultaneous decision)
            if _computer_for(battle, state, side) is not None:
                continue
            name = ENGINE_SIDES[side]
            note_add(battle, state, f"the deadline passed: the computer pilot chose for {name}")
            action = _pilot_choice(battle, state, _pilot_of(battle, name), len(actions), side)
            state.apply(action)
            actions.append(action.to_json())
            chosen.append(f"{name}: {action}")
        _computer_acts(battle, state, actions)
        if len(chosen) >= MAX_COMPUTER_ACTIONS:
            raise RuntimeError(f"{len(chosen)} deadlines passed at once")
        due = due + timedelta(seconds=seconds)
    _save(battle, state, actions, clock_from=due - timedelta(seconds=seconds))
    return chosen


def deadline_check(battle: Battle) -> Battle:
    """The lazy check when anyone reads the turn (the embedded default has no beat):
    the battle as it is after any deadline that has passed."""
    if (
        battle.status == BattleStatus.IN_PLAY
        and battle.decision_due is not None
        and battle.decision_due <= timezone.now()
        and deadline_pass(battle.pk)
    ):
        battle.refresh_from_db()
    return battle


def deadlines_sweep(*, now: datetime | None = None) -> list[int]:
    """Every battle in play whose decision's time ran out (the beat task): the battles
    where the computer decided."""
    now = now or timezone.now()
    due = Battle.objects.filter(status=BattleStatus.IN_PLAY, decision_due__lte=now)
    return [pk for pk in due.values_list("pk", flat=True)[:500] if deadline_pass(pk, now=now)]


# -- handing over ------------------------------------------------------------------------
def hand_over(
    *, battle_id: int, user: Any, side: Any, aircraft: Any = None, to_computer: Any = True
) -> Battle:
    """``user`` hands ``side`` (or one ``aircraft`` of it) to the computer pilot, or takes
    it back (``to_computer`` False); the log says so and the computer's decisions follow
    at once. RuleViolation names the field."""
    if not isinstance(to_computer, bool):
        raise RuleViolation("computer is true or false", field="computer", code="format")
    if side not in SIDES:
        raise RuleViolation(f"side is one of {', '.join(SIDES)}", field="side", code="invalid")
    if aircraft is not None and (isinstance(aircraft, bool) or not isinstance(aircraft, int)):
        raise RuleViolation("aircraft is an aircraft's number", field="aircraft", code="format")
    with transaction.atomic():
        battle = _locked(battle_id)
        if battle is None:
            raise RuleViolation("no such battle", field="battle", code="exists")
        if side not in user_sides(battle, user):
            raise RuleViolation(
                f"only the person flying the {side} side may hand it over",
                field="side",
                code="permission",
            )
        if battle.status != BattleStatus.IN_PLAY:
            raise RuleViolation(
                f"the battle is {battle.get_status_display().lower()}, not in play",
                field="status",
                code="state",
            )
        refuse_while_waiting(battle)  # issue 23: a seat offered and not yet answered
        state = battle_state(battle)
        engine_side = ENGINE_SIDES.index(side)
        handed = dict(battle.handed or {})
        now = handed.get(side)
        pilot = _pilot_of(battle, side)
        who = seat_names(battle).get(side, side)
        if aircraft is None:
            handed[side] = "side" if to_computer else []
            text = (
                f"{who} handed the {side} side to the computer pilot ({pilot})"
                if to_computer
                else f"{who} took the {side} side back from the computer pilot"
            )
        else:
            if (refused := aircraft_refusal(battle, state, side, aircraft)) is not None:
                raise refused
            ids = set(state.in_play(engine_side)) if now == "side" else set(now or [])
            ids = ids | {aircraft} if to_computer else ids - {aircraft}
            handed[side] = sorted(ids)
            name = f"{state.st.names[aircraft]} (#{aircraft})"
            text = (
                f"{who} handed {name} to the computer pilot ({pilot})"
                if to_computer
                else f"{who} took {name} back from the computer pilot"
            )
        battle.handed = handed
        note_add(battle, state, text)
        actions = list(battle.actions)
        _computer_acts(battle, state, actions)
        _save(battle, state, actions)
    return battle


# -- what a user sees ------------------------------------------------------------------
def _aircraft(state: BattleState) -> list[dict[str, Any]]:
    st = state.st
    out = []
    for p in state.planes:
        tails = [q.id for q in state.planes if q.id != p.id and state.tailing(p.id, q.id)]
        out.append(
            {
                "id": p.id,
                "name": st.names[p.id],
                "side": ENGINE_SIDES[p.side],
                "hex": state._colrow(p.hex) if p.hex >= 0 else None,
                "facing": p.facing,
                "altitude": p.alt,
                "speed": p.speed,
                "high_speed": p.high,
                "status": STATUSES[p.status],
                "damage": p.damage,
                "hit_points": st.hits[p.id],
                "condition": state.condition(p.id),
                "state": OUT_NAMES[p.out],
                "moved": p.moved,
                "fired": p.fired,
                "in_cloud": p.cloud,
                "tailing": tails,
            }
        )
    return out


KINDS = {
    "choose_position": "initiative",
    "direct": "fighter direction",
    "activate": "movement",
    "straight": "movement",
    "turn": "movement",
    "maneuver": "movement",
    "end_move": "status",
    "enter_clouds": "clouds",
    "reposition": "abilities",
    "pass": "abilities",
    "attack": "attack",
    "decline": "attack",
}


def _choice(state: BattleState, action: Action) -> dict[str, Any]:
    data = action.to_json()
    choice: dict[str, Any] = {"kind": KINDS.get(data["type"], "other"), "label": str(action)}
    if data["type"] == "attack":
        choice["odds"] = attack_preview(state, data["attacker"], data["target"])
        names = state.st.names
        choice["label"] = f"{names[data['attacker']]} attacks {names[data['target']]}"
    elif data["type"] == "maneuver" and state.mover >= 0:
        choice["chance"] = round(maneuver_chance(state, state.mover, data["kind"]), 3)
    elif data["type"] == "activate":
        choice["label"] = f"fly {state.st.names[data['plane']]} at speed {data['speed']}"
    choice["action"] = data
    return choice


def _viewer(battle: Battle, mine: list[str]) -> tuple[bool, int | None]:
    """(sees everything?, the side whose view a user flying ``mine`` gets: None, a
    spectator's). Everyone sees everything once the battle is over, and so does a person
    flying every side."""
    names = system_named(battle.system).sides
    if battle.status == BattleStatus.FINISHED or set(names) <= set(mine):
        return True, None
    return False, names.index(mine[0]) if mine and mine[0] in names else None


def visible_log(battle: Battle, state: BattleState, mine: list[str]) -> list[dict[str, Any]]:
    """The log as a user flying ``mine`` may read it now (rules.tactical.log_for)."""
    everything, side = _viewer(battle, mine)
    return state.log if everything or state.is_over() else log_for(state, side)


def visible_record(battle: Battle, user: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """(log, actions) of ``battle`` as ``user`` may see them: while it is in play, the log
    as their side reads it and the actions without the sealed decisions not yet revealed."""
    if battle.status != BattleStatus.IN_PLAY:
        return battle.log, battle.actions
    state = battle_state(battle)
    sealed = sealed_count(state)
    actions = battle.actions[: len(battle.actions) - sealed] if sealed else battle.actions
    return visible_log(battle, state, user_sides(battle, user)), actions


def _angels_view(
    battle: Battle, state: BattleState, legal: list[Action], yours: bool, moves: Any, to: Any
) -> dict[str, Any]:
    """The parts of the turn that read Angels 20's state (another game: its set-up's name,
    its decisions labelled in its own words, the rest empty)."""
    if not isinstance(state, BattleState):
        return other_game_turn(battle, state, legal)
    return {
        "scenario": state.scenario.name,
        "phase": state.phase,
        "aircraft_to_act": state.mover if state.mover >= 0 else None,
        "victory_points": {"axis": state.vp[0], "allied": state.vp[1]},
        "aircraft": _aircraft(state),
        "choices": [_choice(state, a) for a in legal],
        "movable": movable(state, legal) if yours else [],
        "move_choices": play_moves.moves_view(state, moves, to) if yours else None,
    }


def turn_view(
    battle: Battle, user: Any, *, since: int = 0, moves: int | None = None, to: Any = None
) -> dict[str, Any]:
    """What ``user`` may see of ``battle`` now (their side's view and log while it is in
    play: rules.tactical.view_for, log_for); legal choices only for a seat whose decision
    is awaited (with ``moves``, an aircraft's whole moves by end hex: battles.play_moves).
    Several sides may decide at once (rules.tactical.deciding_sides): each sees its own."""
    state = battle_state(battle)
    names = system_named(battle.system).sides
    side = state.current_side()
    to_act = ENGINE_SIDES[side] if side is not None else None
    mine = user_sides(battle, user)
    due = battle.decision_due if battle.status == BattleStatus.IN_PLAY else None
    deciding = deciding_sides(state)
    ours = [s for s in deciding if names[s] in mine]
    yours = battle.status == BattleStatus.IN_PLAY and bool(ours)
    legal = [a for s in ours for a in listed_for(state, s)] if yours else []  # steps: none
    log = visible_log(battle, state, mine)
    viewer = _viewer(battle, mine)[1]
    since = max(0, min(since, len(log)))
    return {
        "battle": battle.pk,
        "version": battle.version,
        "status": battle.status,
        "turn": state.turn,
        "to_act": to_act,
        "deciding": [names[s] for s in deciding],
        "your_sides": mine,
        "offered_to_you": offered_sides(battle, user),  # issue 23: accept or decline
        "waiting_for": waiting_for(battle),
        "your_turn": yours,
        "seats": seat_names(battle),
        **_angels_view(battle, state, legal, yours, moves, to),
        "view": view_for(state, viewer),
        "legal_actions": [a.to_json() for a in legal],
        "log_since": since,
        "log": log[since:],
        "result": battle.result if battle.status == BattleStatus.FINISHED else None,
        "deadline_seconds": deadline_seconds(battle),
        "decision_due": due,
        "seconds_left": max(0, int((due - timezone.now()).total_seconds())) if due else None,
        "handed": {
            name: "side" if h == "side" else list(h) for name, h in (battle.handed or {}).items()
        },
        "notes": notes_since(battle, since),
    }


# -- acting ------------------------------------------------------------------------------
def _stale() -> RuleViolation:
    return RuleViolation(
        "the battle has moved on since you loaded the page: read the turn again",
        field="version",
        code="conflict",
    )


def _parse(battle: Battle, data: Any) -> Action:
    # an action names what it is by "type" (Angels 20, the tests' games) or "kind" (Air
    # Pirates): either way, as legal_actions wrote it
    named = isinstance(data, dict) and any(isinstance(data.get(k), str) for k in ("type", "kind"))
    if not named:
        raise RuleViolation(
            'an action is an object with a "type" (or "kind"), one of legal_actions',
            field="action",
            code="format",
        )
    try:
        return cast(Action, system_named(battle.system).action_from_json(data))
    except (KeyError, TypeError, ValueError) as exc:
        raise RuleViolation(f"not an action: {exc}", field="action", code="format") from exc


def _refused_field(state: BattleState, action: Action) -> str:
    """The field a refused action is named by: ``action.plane`` for an activation of
    another side's aircraft (``rules.angels20.legality.mover_problem`` says whose it is),
    the whole ``action`` otherwise."""
    if (
        isinstance(action, Activate)
        and 0 <= action.plane < len(state.planes)
        and state.planes[action.plane].side != state.to_act
    ):
        return "action.plane"
    return "action"


def turn_act(
    *, battle_id: int, user: Any, version: Any, action: Any = None, computer: str | None = None
) -> Battle:
    """Apply ``user``'s action to the battle, then the computer seats'; all or nothing.

    Refusals (nothing changed): not a seat of the battle (403), the battle not in
    play, a stale ``version`` (someone acted first: exactly one of two racing
    players gets through, the row lock orders them), the other side's turn,
    an action the rules do not allow now (the rule it breaks).

    With ``computer`` (a pilot's name) instead of ``action`` the person hands this
    decision to that computer pilot: it chooses, and its choice is stored like any action.
    """
    if (action is None) == (computer is None):
        raise RuleViolation(
            "give an action, or the computer pilot to decide it", field="action", code="required"
        )
    with transaction.atomic():
        battle = _locked(battle_id)
        if battle is None:
            raise RuleViolation("no such battle", field="battle", code="exists")
        if computer is not None and computer not in (known := _pilot_names(battle.system)):
            raise RuleViolation(
                f"unknown computer pilot {computer!r} (known: {', '.join(known)})",
                field="computer",
                code="invalid",
            )
        mine = user_sides(battle, user)
        if not mine:
            raise RuleViolation(
                "only the people flying this battle may act in it", code="permission"
            )
        if battle.status != BattleStatus.IN_PLAY:
            raise RuleViolation(
                f"the battle is {battle.get_status_display().lower()}, not in play",
                field="status",
                code="state",
            )
        refuse_while_waiting(battle)  # issue 23: a seat offered and not yet answered
        # the deadline holds on the write too (issue 23): a move after it is refused, the
        # computer's decision at the deadline applied and logged first, kept by this commit
        now = timezone.now()
        due = battle.decision_due is not None and battle.decision_due <= now
        late = _pass_due(battle, now, late=user.get_username()) if due else []
        if not late:
            _apply_move(battle, mine, version, action, computer)
    if late:
        raise RuleViolation(
            "the deadline for this decision passed before your move arrived, so it was not "
            f"applied; the computer pilot chose: {'; '.join(late)}",
            field="action",
            code="state",
        )
    return battle


def _apply_move(
    battle: Battle, mine: list[str], version: Any, action: Any, computer: str | None
) -> None:
    """:func:`turn_act`'s move on the locked ``battle``, then the computer seats'."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise _stale()
    state = battle_state(battle) if version == battle.version else None
    if state is None:
        # a simultaneous decision: the other sides' sealed decisions since the page was
        # loaded changed nothing this seat may see, so its version still holds
        state = battle_state(battle)
        if not battle.version - sealed_count(state) <= version < battle.version:
            raise _stale()
    names = system_named(battle.system).sides
    deciding = deciding_sides(state)
    ours = [s for s in deciding if names[s] in mine]
    if not ours:
        raise RuleViolation(
            f"it is the {' and '.join(names[s] for s in deciding) or 'nobody'} side's "
            "decision, not yours",
            field="action",
            rule=SEQUENCE_RULE,
            code="state",
        )
    if computer is not None:
        side = ours[0]
        parsed = _pilot_choice(battle, state, computer, len(battle.actions), side)
        who = seat_names(battle).get(names[side], names[side])
        note_add(battle, state, f"{who} let the computer pilot ({computer}) make this decision")
    else:
        parsed = _parse(battle, action)
        whose = decision_side(state, parsed)  # a plot names its own side (simultaneous)
        if whose not in ours:
            raise RuleViolation(
                f"that is the {names[whose] if whose is not None else 'nobody'} side's "
                "decision, not yours",
                field="action",
                rule=SEQUENCE_RULE,
                code="state",
            )
    try:
        state.apply(parsed)
    except system_named(battle.system).refusal as exc:  # the rules refuse it: which rule
        rule = getattr(exc, "rule", None)
        raise RuleViolation(
            getattr(exc, "message", str(exc)),
            field=_refused_field(state, parsed),
            rule=rule if isinstance(rule, str) and is_citation(rule) else None,
        ) from exc
    except (IndexError, KeyError, TypeError, ValueError, AttributeError) as exc:
        # a well-formed action naming no aircraft of this battle, or values of the wrong kind
        raise RuleViolation(
            f"not one of the legal actions now ({type(exc).__name__})",
            field="action",
            code="invalid",
        ) from exc
    actions = [*battle.actions, parsed.to_json()]
    _computer_acts(battle, state, actions)
    _save(battle, state, actions)

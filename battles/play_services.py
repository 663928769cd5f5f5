"""The writes to a battle flown by people (issue 14): its start, a person's move, a
hand-over to the computer pilot, and the deadlines passing. Every write to a battle in
play goes through one guard, :func:`in_play_locked` (the battle's row locked until the
transaction ends, refused unless it is in play with its seats answered), applies actions
with the engine's checked ``apply``, lets the computer seats act at once (battles.
play_computer) and stores the lot with :func:`_save`: at the end the result is handed on
exactly as a worker does (``battles.apply_result``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from angels.errors import RuleViolation, is_citation
from rules.angels20 import BattleState
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.tactical import deciding_sides, decision_side, sealed_count, system_named

from .handing import aircraft_refusal
from .models import Battle, BattleStatus
from .play_computer import (
    MAX_COMPUTER_ACTIONS,
    computer_acts,
    computer_decides,
    computer_for,
    pilot_choice,
    pilot_of,
)
from .play_input import (
    act_checked,
    hand_over_checked,
    parse_action,
    pilot_checked,
    refused_field,
    stale,
    version_checked,
)
from .play_notes import note_add
from .play_seats import deadline_seconds, refuse_while_waiting, seat_names, user_sides
from .play_state import STATES, battle_state

SEQUENCE_RULE = "000 'SEQUENCE OF PLAY'"


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
            if seconds and not state.is_over() and computer_decides(battle, state) is None
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
    """A person-flown battle just stored (by the caller's transaction, or a seat offer
    just accepted under its lock): the computer seats act if theirs is the first decision;
    the first decision's clock starts."""
    state = battle_state(battle)
    actions = list(battle.actions)
    Battle.objects.filter(pk=battle.pk).update(started_at=timezone.now())
    computer_acts(battle, state, actions)
    _save(battle, state, actions)


def _locked(battle_id: int) -> Battle | None:
    """The battle, its row locked until the transaction ends. Its ``log`` is not loaded:
    the state rewrites it (it is the row's biggest field)."""
    return Battle.objects.select_for_update().defer("log").filter(pk=battle_id).first()


def in_play_locked(
    battle_id: int,
    *,
    may_write: Callable[[Battle], None] | None = None,
    seats_answered: bool = True,
) -> Battle:
    """The guard of every write to a battle in play: the battle, its row locked until the
    caller's transaction ends; refused (RuleViolation) if there is no such battle, if
    ``may_write`` refuses the writer (checked before the status, so a stranger learns
    nothing of it), if it is not in play, or (``seats_answered``) while a seat offered
    waits for its answer (issue 23)."""
    battle = _locked(battle_id)
    if battle is None:
        raise RuleViolation("no such battle", field="battle", code="exists")
    if may_write is not None:
        may_write(battle)
    if battle.status != BattleStatus.IN_PLAY:
        raise RuleViolation(
            f"the battle is {battle.get_status_display().lower()}, not in play",
            field="status",
            code="state",
        )
    if seats_answered:
        refuse_while_waiting(battle)
    return battle


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
        try:
            battle = in_play_locked(battle_id, seats_answered=False)
        except RuleViolation:
            return 0  # gone, or no longer in play: no deadline to pass
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
            if computer_for(battle, state, side) is not None:
                continue
            name = ENGINE_SIDES[side]
            note_add(battle, state, f"the deadline passed: the computer pilot chose for {name}")
            action = pilot_choice(battle, state, pilot_of(battle, name), len(actions), side)
            state.apply(action)
            actions.append(action.to_json())
            chosen.append(f"{name}: {action}")
        computer_acts(battle, state, actions)
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
    *,
    battle_id: int,
    user: Any,
    side: str,
    aircraft: int | None = None,
    to_computer: bool = True,
) -> Battle:
    """``user`` hands ``side`` (or one ``aircraft`` of it) to the computer pilot, or takes
    it back (``to_computer`` False); the log says so and the computer's decisions follow
    at once. RuleViolation names the field (the API passes what was posted: checked
    first, battles.play_input)."""
    hand_over_checked(side=side, aircraft=aircraft, to_computer=to_computer)

    def may_write(battle: Battle) -> None:
        if side not in user_sides(battle, user):
            raise RuleViolation(
                f"only the person flying the {side} side may hand it over",
                field="side",
                code="permission",
            )

    with transaction.atomic():
        battle = in_play_locked(battle_id, may_write=may_write)
        state = battle_state(battle)
        engine_side = ENGINE_SIDES.index(side)
        handed = dict(battle.handed or {})
        now = handed.get(side)
        pilot = pilot_of(battle, side)
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
        computer_acts(battle, state, actions)
        _save(battle, state, actions)
    return battle


# -- acting ------------------------------------------------------------------------------
def turn_act(
    *,
    battle_id: int,
    user: Any,
    version: int,
    action: Any = None,
    computer: str | None = None,
) -> Battle:
    """Apply ``user``'s action to the battle, then the computer seats'; all or nothing.

    Refusals (nothing changed): not a seat of the battle (403), the battle not in
    play, a stale ``version`` (someone acted first: exactly one of two racing
    players gets through, the row lock orders them), the other side's turn,
    an action the rules do not allow now (the rule it breaks).

    With ``computer`` (a pilot's name) instead of ``action`` the person hands this
    decision to that computer pilot: it chooses, and its choice is stored like any action.
    """
    act_checked(action, computer)

    def may_write(battle: Battle) -> None:
        pilot_checked(battle.system, computer)
        if not user_sides(battle, user):
            raise RuleViolation(
                "only the people flying this battle may act in it", code="permission"
            )

    with transaction.atomic():
        battle = in_play_locked(battle_id, may_write=may_write)
        mine = user_sides(battle, user)
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
    battle: Battle, mine: list[str], version: object, action: Any, computer: str | None
) -> None:
    """:func:`turn_act`'s move on the locked ``battle``, then the computer seats'."""
    version = version_checked(version)
    state = battle_state(battle) if version == battle.version else None
    if state is None:
        # a simultaneous decision: the other sides' sealed decisions since the page was
        # loaded changed nothing this seat may see, so its version still holds
        state = battle_state(battle)
        if not battle.version - sealed_count(state) <= version < battle.version:
            raise stale()
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
        parsed = pilot_choice(battle, state, computer, len(battle.actions), side)
        who = seat_names(battle).get(names[side], names[side])
        note_add(battle, state, f"{who} let the computer pilot ({computer}) make this decision")
    else:
        parsed = parse_action(battle, action)
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
            field=refused_field(state, parsed),
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
    computer_acts(battle, state, actions)
    _save(battle, state, actions)

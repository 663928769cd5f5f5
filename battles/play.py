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

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from angels.errors import RuleViolation, is_citation
from rules.angels20 import Action, BattleState, IllegalAction, Scenario, action_from_json
from rules.angels20.actions import STATUSES
from rules.angels20.plane import OUT_NAMES
from rules.angels20.preview import attack_preview, maneuver_chance
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.dice import Dice, derive_seed

from . import play_moves
from .models import Battle, BattleStatus
from .rules_settings import SIDES

SEQUENCE_RULE = "000 'SEQUENCE OF PLAY'"
MAX_COMPUTER_ACTIONS = 20_000  # a computer seat's run of decisions; a bug, not a battle, beyond


def _pilot_names() -> tuple[str, ...]:
    from rules.angels20.pilots import POLICIES

    return tuple(POLICIES)


# -- seats ---------------------------------------------------------------------------
def seats_clean(seats: Any) -> dict[str, dict[str, Any]]:
    """Check ``settings.seats`` and answer it with users by id; RuleViolation names the field.

    Each side is ``{"user": id or username}`` or ``{"pilot": "random" | "tactical"}``.
    """
    if not isinstance(seats, dict):
        raise RuleViolation(
            'seats maps each side to {"user": ...} or {"pilot": ...}',
            field="settings.seats",
            code="format",
        )
    for side in seats:
        if side not in SIDES:
            raise RuleViolation(
                f"unknown side {side!r}", field=f"settings.seats.{side}", code="invalid"
            )
    out: dict[str, dict[str, Any]] = {}
    users = get_user_model().objects
    for side in SIDES:
        field = f"settings.seats.{side}"
        seat = seats.get(side)
        if not isinstance(seat, dict) or len(seat) != 1 or not {"user", "pilot"} & set(seat):
            raise RuleViolation(
                'give each side a seat: {"user": id or username} or {"pilot": "tactical"}',
                field=field,
                code="required",
            )
        if "pilot" in seat:
            if seat["pilot"] not in _pilot_names():
                raise RuleViolation(
                    f"unknown computer pilot {seat['pilot']!r} (known: {', '.join(_pilot_names())})",
                    field=f"{field}.pilot",
                    code="invalid",
                )
            out[side] = {"pilot": seat["pilot"]}
            continue
        ref = seat["user"]
        user = (
            users.filter(pk=ref, is_active=True).first()
            if isinstance(ref, int) and not isinstance(ref, bool)
            else users.filter(username=ref, is_active=True).first()
            if isinstance(ref, str)
            else None
        )
        if user is None:
            raise RuleViolation(f"unknown user {ref!r}", field=f"{field}.user", code="exists")
        out[side] = {"user": user.pk}
    return out


def settings_with_seats(settings: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """(settings to store, flown by people?). Seats with no person are an ordinary battle:
    the computer seats become its ``policies`` and it is flown in the background."""
    if "seats" not in settings:
        return settings, False
    seats = seats_clean(settings["seats"])
    if any("user" in seat for seat in seats.values()):
        return {**settings, "seats": seats}, True
    rest = {k: v for k, v in settings.items() if k != "seats"}
    return {**rest, "policies": {side: seat["pilot"] for side, seat in seats.items()}}, False


def seats_of(battle: Battle) -> dict[str, dict[str, Any]]:
    return dict((battle.settings or {}).get("seats") or {})


def is_person_flown(battle: Battle) -> bool:
    return any("user" in seat for seat in seats_of(battle).values())


def user_sides(battle: Battle, user: Any) -> list[str]:
    """The sides ``user`` flies in ``battle`` (both, if one person took both seats)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return [side for side, seat in seats_of(battle).items() if seat.get("user") == user.pk]


def seat_names(battle: Battle) -> dict[str, str]:
    """Each side's seat in words: the user's name, or "computer pilot (tactical)"."""
    seats = seats_of(battle)
    ids = [seat["user"] for seat in seats.values() if "user" in seat]
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    return {
        side: names.get(seat["user"], "a former user")
        if "user" in seat
        else f"computer pilot ({seat.get('pilot')})"
        for side, seat in seats.items()
    }


# -- the engine's state ----------------------------------------------------------------
def battle_state(battle: Battle) -> BattleState:
    """The battle now: its setup flown from its seed through its stored actions.

    The actions were checked when they were taken, so they are applied unchecked
    (the dice are the same, so is the state)."""
    state = BattleState(Scenario.from_json(battle.setup), Dice(battle.seed))
    for data in battle.actions:
        state.apply_unchecked(action_from_json(data))
    return state


def _computer_acts(battle: Battle, state: BattleState, actions: list[dict[str, Any]]) -> int:
    """The computer seats decide while it is theirs to act; returns how many actions they took.

    Each decision's pilot is seeded from the battle's seed, the side and the
    number of actions before it (``derive_seed``), so the same battle makes the
    same decisions; the replay needs only the stored actions anyway."""
    seats = seats_of(battle)
    taken = 0
    while (side := state.current_side()) is not None:
        seat = seats.get(ENGINE_SIDES[side], {})
        if "pilot" not in seat:
            break
        if taken >= MAX_COMPUTER_ACTIONS:
            raise RuntimeError(f"computer pilots took {taken} actions without a person's turn")
        action = _pilot_choice(battle, state, seat["pilot"], len(actions))
        state.apply(action)
        actions.append(action.to_json())
        taken += 1
    return taken


def _pilot_choice(battle: Battle, state: BattleState, pilot: str, before: int) -> Action:
    """The computer pilot ``pilot``'s decision for the side to act, ``before`` actions in."""
    from rules.angels20.pilots import POLICIES, pilot_seed

    side = ENGINE_SIDES[state.current_side() or 0]
    seed = derive_seed(pilot_seed(battle.seed, side), f"decision {before}")
    return POLICIES[pilot](seed).choose(state)


def _save(battle: Battle, state: BattleState, actions: list[dict[str, Any]]) -> None:
    """Store the moves (version one more); at the end, the result, handed on after commit."""
    from .services import _dispatch_apply

    battle.actions = actions
    battle.log = state.log
    battle.version += 1
    fields = ["actions", "log", "version"]
    if state.is_over():
        battle.status = BattleStatus.FINISHED
        battle.result = state.result()
        battle.finished_at = timezone.now()
        fields += ["status", "result", "finished_at"]
        # the same apply step as a battle a worker flew: kills and losses reach the roster once
        _dispatch_apply([battle.pk])
    battle.save(update_fields=fields)


def play_start(battle: Battle) -> None:
    """A person-flown battle just stored: the computer seats act if theirs is the first decision."""
    state = battle_state(battle)
    actions = list(battle.actions)
    Battle.objects.filter(pk=battle.pk).update(started_at=timezone.now())
    if _computer_acts(battle, state, actions):
        _save(battle, state, actions)


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


def turn_view(
    battle: Battle, user: Any, *, since: int = 0, moves: int | None = None, to: Any = None
) -> dict[str, Any]:
    """What ``user`` may see of ``battle`` now; legal choices only for the seat to act
    (with ``moves``, an aircraft's whole moves by end hex: battles.play_moves)."""
    state = battle_state(battle)
    side = state.current_side()
    to_act = ENGINE_SIDES[side] if side is not None else None
    mine = user_sides(battle, user)
    yours = battle.status == BattleStatus.IN_PLAY and to_act in mine
    legal = state.legal_actions() if yours else []
    since = max(0, min(since, len(state.log)))
    return {
        "battle": battle.pk,
        "version": battle.version,
        "status": battle.status,
        "scenario": state.scenario.name,
        "turn": state.turn,
        "phase": state.phase,
        "to_act": to_act,
        "aircraft_to_act": state.mover if state.mover >= 0 else None,
        "your_sides": mine,
        "your_turn": yours,
        "seats": seat_names(battle),
        "victory_points": {"axis": state.vp[0], "allied": state.vp[1]},
        "aircraft": _aircraft(state),
        "legal_actions": [a.to_json() for a in legal],
        "choices": [_choice(state, a) for a in legal],
        "movable": play_moves.movable_view(state) if yours else [],
        "move_choices": play_moves.moves_view(state, moves, to) if yours else None,
        "log_since": since,
        "log": state.log[since:],
        "result": battle.result if battle.status == BattleStatus.FINISHED else None,
    }


# -- acting ------------------------------------------------------------------------------
def _parse(data: Any) -> Action:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RuleViolation(
            'an action is an object with a "type", one of legal_actions',
            field="action",
            code="format",
        )
    try:
        return action_from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise RuleViolation(f"not an action: {exc}", field="action", code="format") from exc


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
    if computer is not None and computer not in _pilot_names():
        raise RuleViolation(
            f"unknown computer pilot {computer!r} (known: {', '.join(_pilot_names())})",
            field="computer",
            code="invalid",
        )
    with transaction.atomic():
        battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
        if battle is None:
            raise RuleViolation("no such battle", field="battle", code="exists")
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
        if isinstance(version, bool) or not isinstance(version, int) or version != battle.version:
            raise RuleViolation(
                f"the battle has moved on (version {battle.version}, not {version!r}): "
                "read the turn again",
                field="version",
                code="conflict",
            )
        state = battle_state(battle)
        side = state.current_side()
        if side is None or ENGINE_SIDES[side] not in mine:
            raise RuleViolation(
                f"it is the {ENGINE_SIDES[side] if side is not None else 'nobody'} side's "
                "decision, not yours",
                field="action",
                rule=SEQUENCE_RULE,
                code="state",
            )
        if computer is not None:
            parsed = _pilot_choice(battle, state, computer, len(battle.actions))
        else:
            parsed = _parse(action)
        try:
            state.apply(parsed)
        except IllegalAction as exc:
            raise RuleViolation(
                exc.message, field="action", rule=exc.rule if is_citation(exc.rule) else None
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
    return battle

"""What is legal now: :func:`legal_actions`, and :func:`why_illegal` naming the rule.

Legality is written once: each rule is a named check, and both the list of
legal actions and the refusal of an illegal one are built from the same
checks. ``BattleState.apply`` accepts exactly the actions :func:`legal_actions`
lists and explains a refusal with :func:`why_illegal`.

The checks the listing runs for every aircraft (:func:`mover_rule`,
:func:`high_speed_rule`, :func:`.attacks.attacker_rule`,
:func:`.attacks.attack_rule`) return the citation of the rule that forbids (a
constant) or None, so listing builds no message; their ``*_problem``
companions add the (rule citation, message) :data:`~.Problem` only
when a refusal is explained.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import advanced, attacks, conditions, movement, plans
from .actions import (
    ALL_MANEUVERS,
    DECLINE,
    ENTER_CLOUDS,
    MANEUVERS,
    PASS,
    STATUS_CLIMBING,
    STATUS_DIVING,
    STATUSES,
    Action,
    Activate,
    Attack,
    ChoosePosition,
    Decline,
    Direct,
    EndMove,
    EnterClouds,
    IllegalAction,
    Maneuver,
    MovePlan,
    Pass,
    Reposition,
    Straight,
    Turn,
)
from .phases import ATTACK, DIRECTION, MOVEMENT, POSITION, REPOSITION
from .plane import Plane
from .stats import SIDES

if TYPE_CHECKING:
    from .attacks import Problem
    from .state import BattleState


def legal_actions(s: BattleState) -> list[Action]:
    """Every legal action for the side to act, sorted."""
    ph = s.phase
    if ph == MOVEMENT:
        if s.mover >= 0:
            if s.awaiting_cloud:
                return list(ENTER_CLOUDS)  # 000 "CLOUDS"
            return step_actions(s)
        return activations(s)
    if ph == ATTACK:
        return [*attacks.attacks(s, s.to_act), DECLINE]
    if ph == POSITION:
        return [ChoosePosition(True), ChoosePosition(False)]
    if ph == DIRECTION:
        return conditions.direction_options(s, s.to_act)
    if ph == REPOSITION:
        return [*movement.reposition_options(s, s.to_act), PASS]
    return []


# ---------------------------------------------------------------- activation (000 "MOVEMENT PHASE")
# As in .attacks: the checks name the rule (a constant) or None; the message
# is built only to explain a refusal.
R_UNEQUAL = "000 'UNEQUAL NUMBERS'"
R_OUT = "000 'DESTROYED'"
R_MUST_MOVE = "000 'Aircraft Must Move'"
R_CRIPPLED = "000 'CRIPPLED'"


def mover_rule(s: BattleState, p: Plane) -> str | None:
    """The rule why ``p`` may not start its move now, or None (000 "UNEQUAL NUMBERS", ...)."""
    if p.side != s.to_act:
        return R_UNEQUAL
    if p.out:
        return R_OUT
    if p.moved:
        return R_MUST_MOVE
    return None


def mover_problem(s: BattleState, p: Plane) -> Problem | None:
    """May ``p`` start its move now? 000 "UNEQUAL NUMBERS", "Aircraft Must Move"."""
    rule = mover_rule(s, p)
    if rule is None:
        return None
    name = s.st.names[p.id]
    if rule == R_UNEQUAL:  # the side to act names an aircraft of the other side
        which = name if name.startswith(f"#{p.id} ") else f"#{p.id} ({name})"
        return rule, (
            f"aircraft {which} is not yours: it is the {SIDES[p.side]} side's; "
            f"the {SIDES[s.to_act]} side moves one of its own aircraft now"
        )
    return rule, {
        R_OUT: f"{name} is out of the battle",
        R_MUST_MOVE: f"{name} has already moved this turn",
    }[rule]


def high_speed_rule(s: BattleState, p: Plane) -> str | None:
    """000 "CRIPPLED": a crippled aircraft can't choose high speed."""
    if p.damage and s.st.hits[p.id] - p.damage == 1:
        return R_CRIPPLED
    return None


def high_speed_problem(s: BattleState, p: Plane) -> Problem | None:
    """Why ``p`` can't choose high speed, or None (explains a refusal)."""
    if high_speed_rule(s, p) is None:
        return None
    return (R_CRIPPLED, "a crippled aircraft can't choose high speed")


def activations(s: BattleState) -> list[Action]:
    """The Activate actions open to the side to act (000 "Choose Speed")."""
    out: list[Action] = []
    st = s.st
    side = s.to_act
    hits = st.hits
    for p in s.planes:
        if p.side == side and not p.out and not p.moved:  # mover_rule(s, p) is None
            i = p.id
            out.extend(st.act_normal[i])
            # high_speed_rule(s, p) is None, written out: not crippled
            if st.act_high[i] and not (p.damage and hits[i] - p.damage == 1):
                out.extend(st.act_high[i])
    return out


def _activate_problem(s: BattleState, a: Activate) -> Problem | None:
    if s.phase != MOVEMENT:
        return ("000 'SEQUENCE OF PLAY'", "aircraft move only in the Movement phase")
    if s.mover >= 0:
        return ("000 'MOVING AIRCRAFT'", "finish the current aircraft's move first")
    if not 0 <= a.plane < s.st.n:
        return ("000 'AIRCRAFT FLIGHTS'", f"no aircraft #{a.plane}")
    p = s.planes[a.plane]
    prob = mover_problem(s, p)
    if prob is None and a.speed in s.st.high_speeds[p.id]:
        prob = high_speed_problem(s, p)
    return prob or ("000 'Choose Speed'", f"speed {a.speed} is not in {s.st.names[p.id]}'s ranges")


# ---------------------------------------------------------------- each hex of a move (000 "MOVING AIRCRAFT")
def step_actions(s: BattleState) -> list[Action]:
    """The moving aircraft's options for its next hex, or its closing status."""
    p = s.planes[s.mover]
    if s.awaiting_status:
        return advanced.status_options(s, p)
    if s.step_no == 0 and s.required:
        return advanced.required_options(s, p)
    blocked = p.high and s.last_man == s.step_no  # plans.high_speed_blocked(s, p)
    if s.st.bomber[p.id]:
        # 000 "BOMBER STATS": bombers only turn or fly straight
        return list(
            plans.STEP_OPTIONS[(not blocked and not plans.fuel_no_turn(s, p), False, p.alt)]
        )
    opts = list(plans.STEP_OPTIONS[(not blocked, not blocked and not s.dm_used, p.alt)])
    if s.dm_used and s.dm_first and not s.extra_used and not blocked:
        extra = s.st.extra_dm[p.id]
        if extra:
            opts += plans.second_dms(extra, s.dm_first, p.alt, p.alt)
    return opts


def _step_problem(s: BattleState, a: Straight | Turn | Maneuver | EndMove) -> Problem | None:
    if s.phase != MOVEMENT or s.mover < 0:
        return ("000 'MOVING AIRCRAFT'", "activate an aircraft and choose its speed first")
    p = s.planes[s.mover]
    if s.awaiting_cloud:
        return ("000 'CLOUDS'", "the move is complete; try to enter the clouds or not")
    if s.awaiting_status:
        if isinstance(a, EndMove):
            return ("000 'AIRCRAFT STATUS'", "no Diving at altitude 1, no Climbing at altitude 6")
        return ("000 'MOVING AIRCRAFT'", "the move is complete; choose a status")
    if isinstance(a, EndMove):
        return ("000 'MOVING AIRCRAFT'", f"{s.steps_left} hexes of movement remain")
    if s.step_no == 0 and s.required:
        first = {STATUS_DIVING: "Power Dive", STATUS_CLIMBING: "Climb"}.get(
            s.required, "turn or Tight Turn in its evading direction"
        )
        return (
            "000 'Required Maneuver'",
            f"an aircraft that began in {STATUSES[s.required]} status must first {first}",
        )
    if s.st.bomber[p.id] and isinstance(a, Maneuver):
        return ("000 'BOMBER STATS'", "bombers can only turn or fly straight")
    if isinstance(a, Turn) and plans.fuel_no_turn(s, p):
        return ("000 'LIMITED FUEL'", "until attacked, the bombers can't turn")
    if isinstance(a, (Turn, Maneuver)) and plans.high_speed_blocked(s, p):
        return ("000 'High Speed'", "at high speed you can't turn or maneuver in consecutive hexes")
    if isinstance(a, Maneuver):
        if a.kind not in MANEUVERS or a not in ALL_MANEUVERS:
            return ("000 'DIFFICULT MANEUVERS'", f"no such maneuver {a}")
        if s.dm_used:
            return (
                "000 'Difficult Maneuvers'",
                "only one difficult maneuver per move (unless an ability allows another)",
            )
        return (
            "000 'ALTITUDE'",
            f"{a} would take the aircraft outside altitudes 1-6 (now {p.alt})",
        )
    if isinstance(a, Turn) and a.direction not in (-1, 1):
        return ("000 'Turn (normal)'", "a normal turn is one hex side")
    return ("000 'MOVING AIRCRAFT'", f"{a} is not legal now")


# ---------------------------------------------------------------- attacks (000 "ATTACK PHASE")
def _attack_action_problem(s: BattleState, a: Attack) -> Problem | None:
    if s.phase != ATTACK:
        return ("000 'SEQUENCE OF PLAY'", "attacks are made only in the Attack phase")
    if not (0 <= a.attacker < s.st.n and 0 <= a.target < s.st.n):
        return ("000 'AIRCRAFT FLIGHTS'", "no such aircraft")
    prob = attacks.attacker_problem(s, s.planes[a.attacker], s.to_act)
    return prob or attacks.attack_problem(s, a.attacker, a.target)


def _decline_problem(s: BattleState, a: Decline) -> Problem | None:
    if s.phase != ATTACK:
        return ("000 'SEQUENCE OF PLAY'", "attacks are made only in the Attack phase")
    return ("000 'ATTACK PHASE'", "nothing to decline")


# ---------------------------------------------------------------- the other choices
def _position_problem(s: BattleState, a: ChoosePosition) -> Problem | None:
    return ("000 'CHOOSING TURN POSITION'", "only the initiative winner chooses, before moving")


def _direct_problem(s: BattleState, a: Direct) -> Problem | None:
    if s.phase != DIRECTION:
        return (
            "000 'Assigning Direction'",
            "direction is assigned after the Initiative phase, in darkness, by a side with capacity",
        )
    return (
        "000 'FIGHTER DIRECTION'",
        f"the {SIDES[s.to_act]} side may direct up to {s.st.direction[s.to_act]} "
        "of its own fighters still in the battle",
    )


def _clouds_problem(s: BattleState, a: EnterClouds) -> Problem | None:
    return (
        "000 'CLOUDS'",
        "only an aircraft ending its move in a heavy or light cloud band tries to enter the clouds",
    )


def _reposition_problem(s: BattleState, a: Reposition | Pass) -> Problem | None:
    if s.phase != REPOSITION:
        return (
            "000 'MOVEMENT AND SPECIAL ABILITIES'",
            "position-adjusting abilities are declared after the Movement phase",
        )
    return (
        "000 'MOVEMENT AND SPECIAL ABILITIES'",
        "no such ability use is open to this side now (each aircraft adjusts once)",
    )


def _plan_problem(s: BattleState, a: MovePlan) -> Problem | None:
    return ("000 'MOVING AIRCRAFT'", "plan not legal")


_EXPLAIN: dict[type[Action], Callable[[BattleState, Any], Problem | None]] = {
    Activate: _activate_problem,
    Straight: _step_problem,
    Turn: _step_problem,
    Maneuver: _step_problem,
    EndMove: _step_problem,
    Attack: _attack_action_problem,
    Decline: _decline_problem,
    ChoosePosition: _position_problem,
    Direct: _direct_problem,
    EnterClouds: _clouds_problem,
    Reposition: _reposition_problem,
    Pass: _reposition_problem,
    MovePlan: _plan_problem,
}


def why_illegal(s: BattleState, a: Action) -> IllegalAction:
    """Name the rule an action not in :func:`legal_actions` breaks (slow path, only on error)."""
    fn = _EXPLAIN.get(type(a))
    prob = fn(s, a) if fn is not None else None
    if prob is None:
        prob = ("000 'SEQUENCE OF PLAY'", f"{a} is not legal in the {s.phase} phase")
    return IllegalAction(*prob)

"""Winning (000 "WINNING THE SCENARIO") and each scenario's special rules.

Victory per scenario kind (000 "BATTLE OF BRITAIN: ..." scenarios,
"WINNING THE STANDARD SCENARIO", "WINNING THE BOMBER ESCORT SCENARIO"), the
end-of-turn scenario rules, and the documented :func:`result`. Plain
functions of the battle state, bound as its methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import attacks
from .actions import IllegalAction
from .phases import OVER
from .plane import DESTROYED, EXITED, IN_PLAY, RETREATED
from .stats import SIDES

if TYPE_CHECKING:
    from .state import BattleState

Verdict = tuple[int | None, str]  # (winning side or None for a draw, reason)


def scenario_end_of_turn(s: BattleState) -> None:
    """The scenarios' end-of-turn rules: strafing, running out of fuel."""
    sc = s.scenario
    st = s.st
    kind = sc.kind
    if kind == "schnellbomber":
        # 000 "SCHNELLBOMBER": the Bf 110 at altitude 1 without a difficult maneuver strafes
        for p in s.planes:
            if st.role[p.id] == "strafer" and not p.out and p.alt == 1 and not p.dm_tried:
                attacks.score(s, p.side, 10.0, f"{st.names[p.id]} strafes ground targets")
    if kind == "limited_fuel" and sc.must_exit_by_turn == s.turn:
        # 000 "LIMITED FUEL": Bf 109s still over the map count as destroyed
        for p in s.planes:
            if st.role[p.id] == "fuel_limited" and not p.out:
                before = attacks.condition(s, p.id)
                p.out = DESTROYED
                s._log(
                    "destroyed", plane=p.id, by=None, how="out of fuel",
                    hex=s._colrow(p.hex), alt=p.alt, **{"from": before},
                )  # fmt: skip
                p.hex = -1
                attacks.score(s, 1 - p.side, float(st.cost[p.id]), f"{st.names[p.id]} out of fuel")


def remaining(s: BattleState, side: int) -> int:
    return sum(1 for p in s.planes if p.side == side and not p.out)


def _remaining_both(s: BattleState) -> tuple[int, int]:
    """(axis, allied) aircraft in play: :func:`remaining` of both sides in one pass."""
    axis = allied = 0
    for p in s.planes:
        if not p.out:
            if p.side:
                allied += 1
            else:
                axis += 1
    return axis, allied


def victory(s: BattleState) -> Verdict | None:
    """The verdict at the end of a turn, or None to play on."""
    sc = s.scenario
    kind = sc.kind
    rem = _remaining_both(s)
    last_turn = s.turn >= sc.rules.max_turns
    if kind in ("dogfight", "intercept"):
        if s.first_success >= 0:
            what = "shot down or drove off" if kind == "dogfight" else "shot down"
            return s.first_success, f"first to have {what} an enemy aircraft"
        if rem[0] == 0 or rem[1] == 0 or last_turn:
            return tiebreak(s, "no aircraft left" if not last_turn else "turn limit")
        return None
    if kind == "limited_fuel":
        if last_turn or rem[0] == 0 or rem[1] == 0:
            bombers = [p for p in s.planes if s.st.role[p.id] == "bomber"]
            if all(p.damage == 0 and p.out != DESTROYED for p in bombers):
                return 0, "neither bomber damaged"
            if s.vp[0] != s.vp[1]:
                return (0 if s.vp[0] > s.vp[1] else 1), "most victory points"
            return None, "victory points tied"
        return None
    if kind == "bomber_escort":
        return _bomber_escort(s, last_turn)
    # standard, schnellbomber, custom: victory points to a target
    target = sc.vp_target
    # 000 "WINNING THE STANDARD SCENARIO": first to the target; both = higher score
    if target is not None and (s.vp[0] >= target or s.vp[1] >= target) and s.vp[0] != s.vp[1]:
        return (0 if s.vp[0] > s.vp[1] else 1), f"reached {target} victory points"
    if rem[0] == 0 or rem[1] == 0 or last_turn:
        return tiebreak(s, "no aircraft left" if not last_turn else "turn limit")
    return None


def _bomber_escort(s: BattleState, last_turn: bool) -> Verdict | None:
    """000 "WINNING THE BOMBER ESCORT SCENARIO"."""
    esc = SIDES.index(s.scenario.escort_side or "allied")
    bombers = [p for p in s.planes if s.st.role[p.id] == "bomber"]
    if any(not p.out for p in bombers) and not last_turn:
        return None
    reached = sum(1 for p in bombers if p.out == EXITED)
    if reached == 2:
        return esc, "both bombers reached the far side"
    if reached == 0:
        return 1 - esc, "no bomber reached the far side"
    killed = [0.0, 0.0]
    for p in s.planes:
        if p.out == DESTROYED and s.st.role[p.id] != "bomber" and p.killer >= 0:
            killed[1 - p.side] += s.st.cost[p.id]
    if killed[0] != killed[1]:
        return (
            0 if killed[0] > killed[1] else 1
        ), "one bomber through; more enemy fighter points destroyed"
    return None, "one bomber through; fighter losses equal"


def tiebreak(s: BattleState, why: str) -> Verdict:
    """000 "WINNING THE STANDARD SCENARIO": most aircraft remaining; then VP (ruling)."""
    rem = _remaining_both(s)
    if rem[0] != rem[1]:
        return (0 if rem[0] > rem[1] else 1), f"{why}: most aircraft remaining"
    if s.vp[0] != s.vp[1]:
        return (0 if s.vp[0] > s.vp[1] else 1), f"{why}: most victory points"
    return None, f"{why}: draw"


def game_over(s: BattleState, winner: int | None, reason: str) -> None:
    s.phase = OVER
    s.winner = winner
    s.reason = reason
    s.mover = -1
    s._log("game_over", winner=SIDES[winner] if winner is not None else None, reason=reason)


def check_intercept_climb(s: BattleState) -> None:
    """000 "INTERCEPT THE INTERCEPTORS": both Allied aircraft at altitude 5, undamaged, win."""
    allied = [p for p in s.planes if p.side == 1]
    if all(p.out == IN_PLAY and p.alt >= 5 and p.damage == 0 for p in allied):
        game_over(s, 1, "both Allied aircraft reached altitude 5 undamaged")


def result(s: BattleState) -> dict[str, Any]:
    """The documented result of a finished battle (see ``rules/angels20/__init__.py``)."""
    if s.phase != OVER:
        raise IllegalAction("000 'END OF TURN'", "the battle is not over")
    sc = s.scenario
    planes = []
    kills = []
    for p in s.planes:
        a = sc.aircraft[p.id]
        if p.out == DESTROYED:
            fate = "destroyed"
        elif p.out in (RETREATED, EXITED):
            fate = "retreated"
        else:
            fate = "damaged" if p.damage else "intact"
        killer = p.killer if p.out == DESTROYED and p.killer >= 0 else None
        sv = p.survival
        planes.append(
            {
                "id": p.id,
                "name": a.stats.name,
                "side": a.side,
                "pilot": a.pilot_quality,
                "pilot_ref": a.pilot_ref,
                "fate": fate,
                "exit_edge": p.exit_edge,
                "scored_exit": p.out == EXITED,
                "damage": p.damage,
                "destroyed_by": killer,
                "destroyed_by_pilot_ref": sc.aircraft[killer].pilot_ref
                if killer is not None
                else None,
                "survival_roll": sv[0] if sv else None,
                "survival_modifier": sv[1] if sv else None,
                "pilot_survived": sv[2] if sv else None,
            }
        )
        if killer is not None:
            turn = next(
                (e["turn"] for e in s.log if e["e"] == "destroyed" and e["plane"] == p.id), s.turn
            )
            kills.append(
                {
                    "attacker": killer,
                    "attacker_pilot_ref": sc.aircraft[killer].pilot_ref,
                    "target": p.id,
                    "target_pilot_ref": a.pilot_ref,
                    "turn": turn,
                }
            )
    return {
        "scenario": sc.name,
        "kind": sc.kind,
        "winner": SIDES[s.winner] if s.winner is not None else None,
        "reason": s.reason,
        "victory_points": {"axis": s.vp[0], "allied": s.vp[1]},
        "turns_played": s.turn,
        "aircraft": planes,
        "kills": kills,
    }

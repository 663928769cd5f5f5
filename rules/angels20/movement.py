"""The Movement phase (000 "MOVEMENT PHASE", "MOVING AIRCRAFT", "MANEUVER CHECKS").

Alternate movement (000 "UNEQUAL NUMBERS"), a move hex by hex with turns and
difficult maneuvers (their effects in :mod:`.maneuvers`), leaving the map,
stacking, and the abilities that adjust positions after movement (000
"MOVEMENT AND SPECIAL ABILITIES"). Plain functions of the battle state,
bound as its methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import attacks, conditions, victory
from .actions import (
    MANEUVER_BONUS,
    STATUS_CLIMBING,
    STATUS_NONE,
    STATUSES,
    Action,
    Maneuver,
    Reposition,
)
from .hexmap import EDGE_NAMES
from .maneuvers import maneuver_outcome
from .phases import MOVEMENT, OVER, REPOSITION
from .plane import EXITED, OUT_NAMES, RETREATED, Plane
from .stats import SIDES

if TYPE_CHECKING:
    from .state import BattleState


def begin_movement(s: BattleState) -> None:
    """000 "MOVEMENT PHASE": the first player moves first."""
    s.phase = MOVEMENT
    s.last_mover = -1
    s._log("movement_phase", first=SIDES[s.first])
    nxt = next_mover(s)
    if nxt < 0:
        end_movement(s)
    else:
        s.to_act = nxt


def next_mover(s: BattleState) -> int:
    """000 "UNEQUAL NUMBERS": the first player moves first, the second player last.

    The first player moves while it has at least as many aircraft left to
    move as the second player, or whenever the second player moved last;
    otherwise the second player moves.
    """
    f = s.first
    nf = ns = 0
    for p in s.planes:
        if not p.out and not p.moved:
            if p.side == f:
                nf += 1
            else:
                ns += 1
    if nf == 0:
        return 1 - f if ns else -1
    if ns == 0:
        return f
    if nf >= ns or s.last_mover != f:
        return f
    return 1 - f


def activate(s: BattleState, i: int, speed: int) -> None:
    """000 "Choose Speed": aircraft ``i`` starts its move."""
    p = s.planes[i]
    st = s.st
    s.mover = i
    p.speed = speed
    p.high = speed in st.high_speeds[i]
    s.steps_left = speed
    s.step_no = 0
    s.last_man = -9
    s.dm_used = False
    s.dm_first = ""
    s.extra_used = False
    s.awaiting_status = False
    s.awaiting_cloud = False
    p.cloud = False  # 000 "EFFECTS OF BEING IN THE CLOUDS": until it moves again
    s.required = p.status if st.rules.status else STATUS_NONE
    p.status = STATUS_NONE  # the status lasts until the aircraft moves again
    h = p.prev_hex = p.hex
    w = st.map.width
    # s._log("activate", ...) written out: once a move
    s.log.append(
        {
            "plane": i,
            "speed": speed,
            "high": p.high,
            "required": STATUSES[s.required] if s.required else None,
            "hex": [h % w, h // w],
            "facing": p.facing,
            "alt": p.alt,
            "e": "activate",
            "turn": s.turn,
        }
    )


def enter(s: BattleState, p: Plane, direction: int) -> bool:
    """Move one hex in ``direction``; False if that leaves the map (000 "THE BATTLE MAP")."""
    nb = s.st.map.neighbour[p.hex * 6 + direction]
    if nb < 0:
        leave_map(s, p, EDGE_NAMES[nb])
        return False
    p.prev_hex = p.hex
    p.hex = nb
    return True


def step(s: BattleState, turn: int, m: Maneuver | None) -> None:
    """One hex of the move: straight, a normal turn (``turn`` -1/+1), or maneuver ``m``."""
    p = s.planes[s.mover]
    n = s.step_no + 1
    start_hex = p.hex
    kind = "straight"
    if m is None:
        nb = s.st.map.neighbour[start_hex * 6 + p.facing]  # enter() written out
        if nb < 0:
            leave_map(s, p, EDGE_NAMES[nb])
        else:
            p.prev_hex = start_hex
            p.hex = nb
        if nb >= 0 and turn:
            # 000 "Turn (normal)": one hex side after entering the hex
            p.facing = (p.facing + turn) % 6
            s.last_man = n
            kind = "turn left" if turn < 0 else "turn right"
    else:
        kind = m.kind
        if s.dm_used:
            s.extra_used = True  # the second maneuver an ability allows
        else:
            s.dm_first = m.kind
        s.dm_used = True
        p.dm_tried = True
        s.last_man = n
        ok = maneuver_check(s, p, m)
        maneuver_effect(s, p, m, ok)
    s.steps_left -= 1
    s.step_no = n
    if p.out:
        finish_move(s, p)
        return
    h, w = p.hex, s.st.map.width
    # s._log("step", ...) written out: the most frequent event
    s.log.append(
        {"plane": p.id, "n": n, "kind": kind, "hex": [h % w, h // w], "facing": p.facing,
         "alt": p.alt, "e": "step", "turn": s.turn}
    )  # fmt: skip
    if s.st.hazards and h != start_hex:
        conditions.hazards(s, p)
        if p.out:
            finish_move(s, p)
            return
    if s.steps_left == 0:
        if s.st.rules.status and not s.st.bomber[p.id]:
            s.awaiting_status = True  # 000 "AIRCRAFT STATUS": chosen at the end of the move
        else:
            conditions.complete_move(s, p)


def maneuver_check(s: BattleState, p: Plane, m: Maneuver) -> bool:
    """000 "MANEUVER CHECKS": 2d6 + bonus vs 10 (normal speed) or 13 (high speed)."""
    st = s.st
    stat = MANEUVER_BONUS[m.kind]
    parts: list[list[Any]] = [[stat, st.bonus[p.id][stat]]]
    if p.damage and st.hits[p.id] - p.damage == 1:
        parts.append(["crippled", -2])  # 000 "CRIPPLED"
    if s.step_no == 0 and s.required == STATUS_CLIMBING and m.kind == "climb":
        parts.append(["climbing status", 4])  # 000 "CLIMBING STATUS"
    if st.any_hooks["maneuver"]:
        for fn in st.hooks[p.id].get("maneuver", ()):
            v = fn(s, p.id, m.kind)
            if v:
                parts.append(["ability", v])
    bonus = 0
    for _, v in parts:
        bonus += v
    target = 13 if p.high else 10
    roll = s.dice.roll
    r1 = roll(6, "maneuver")
    r2 = roll(6, "maneuver")
    total = r1 + r2 + bonus
    ok = total >= target
    s.log.append(
        {
            "plane": p.id,
            "maneuver": m.kind,
            "option": m.option,
            "dice": [r1, r2],
            "bonus": bonus,
            "bonus_parts": parts,
            "target": target,
            "total": total,
            "success": ok,
            "e": "maneuver",
            "turn": s.turn,
        }
    )  # s._log("maneuver", ...) written out; fmt: skip
    return ok


def maneuver_effect(s: BattleState, p: Plane, m: Maneuver, ok: bool) -> None:
    """000 "DIFFICULT MANEUVERS": each maneuver's success and failure."""
    out = maneuver_outcome(m.kind, m.option, p.facing, ok)
    if out.enter is None or enter(s, p, out.enter):
        p.facing = out.facing
        p.alt += out.climb


def leave_map(s: BattleState, p: Plane, edge: str) -> None:
    """000 "THE BATTLE MAP": an aircraft that leaves the map has retreated."""
    p.exit_edge = edge
    p.hex = -1
    side = p.side
    i = p.id
    sc = s.scenario
    st = s.st
    # 000 "LIMITED FUEL" / "BOMBER ESCORT SCENARIO": leaving by the scenario's edge scores
    free = (
        sc.kind == "limited_fuel" and st.role[i] == "fuel_limited" and edge == st.edge_free
    ) or (st.role[i] == "bomber" and st.edge_goal is not None and edge == st.edge_goal)
    if free:
        p.out = EXITED
        s._log("exit", plane=i, edge=edge)
    else:
        p.out = RETREATED
        s._log("retreat", plane=i, edge=edge)
        attacks.score(s, 1 - side, st.cost[i] / 2, f"{st.names[i]} retreated")
        if s.first_success < 0 and sc.kind == "dogfight":
            s.first_success = 1 - side


def finish_move(s: BattleState, p: Plane) -> None:
    """The move is over: the next mover, or the end of the Movement phase."""
    p.moved = True
    s.seq += 1
    p.seq = s.seq
    s.mover = -1
    s.awaiting_status = False
    s.last_mover = p.side
    h, w = p.hex, s.st.map.width
    # s._log("move_end", ...) written out: once a move
    s.log.append(
        {
            "plane": p.id,
            "hex": [h % w, h // w] if h >= 0 else None,
            "facing": p.facing,
            "alt": p.alt,
            "status": STATUSES[p.status],
            "out": OUT_NAMES[p.out],
            "e": "move_end",
            "turn": s.turn,
        }
    )
    if s.scenario.kind == "intercept":
        victory.check_intercept_climb(s)
    if s.phase == OVER:
        return
    nxt = next_mover(s)
    if nxt < 0:
        end_movement(s)
    else:
        s.to_act = nxt


def end_movement(s: BattleState) -> None:
    """000 "STACKING", then abilities that adjust positions after movement, then attacks."""
    places = [(p.side, p.hex, p.alt) for p in s.planes if not p.out]
    groups: dict[tuple[int, int, int], list[Plane]] = {}
    if len(set(places)) < len(places):  # two of a side share a hex and altitude
        for p in s.planes:
            if not p.out:
                groups.setdefault((p.side, p.hex, p.alt), []).append(p)
    for g in groups.values():
        if len(g) > 1:
            g.sort(key=lambda q: q.seq)
            for q in g[1:]:
                frm = q.hex
                q.hex = q.prev_hex
                q.grounded = True
                s._log(
                    "stacking",
                    plane=q.id,
                    **{"from": s._colrow(frm)},
                    hex=s._colrow(q.hex),
                    facing=q.facing,
                    alt=q.alt,
                )
    if any(s.st.reposition):
        # 000 "MOVEMENT AND SPECIAL ABILITIES": the first player declares
        # first, then alternate until both have used all they wish
        s.phase = REPOSITION
        s.declined = [False, False]
        advance_reposition(s, s.first)
    else:
        attacks.begin_attack(s)


# ---------------------------------------------------------------- 000 "MOVEMENT AND SPECIAL ABILITIES"
def reposition_options(s: BattleState, side: int) -> list[Action]:
    """000 "MOVEMENT AND SPECIAL ABILITIES": adjustments still open to ``side``."""
    out: list[Action] = []
    st = s.st
    for p in s.planes:
        if p.side != side or p.out or p.adjusted or not st.reposition[p.id]:
            continue
        opts: set[int] = set()
        for fn in st.hooks[p.id]["reposition_options"]:
            opts.update(fn(s, p.id))
        out.extend(Reposition(p.id, o) for o in sorted(opts))
    return out


def advance_reposition(s: BattleState, nxt: int) -> None:
    """The next side with an adjustment open, or the Attack phase."""
    for side in (nxt, 1 - nxt):
        if s.declined[side]:
            continue
        if reposition_options(s, side):
            s.to_act = side
            return
        s.declined[side] = True
    attacks.begin_attack(s)


def reposition(s: BattleState, i: int, option: int) -> None:
    """Aircraft ``i`` uses its position-adjusting ability (``option`` as the ability defines)."""
    p = s.planes[i]
    hooks = s.st.hooks[i]
    for opts_fn, fn in zip(hooks["reposition_options"], hooks["reposition"], strict=False):
        if option in opts_fn(s, i):
            fn(s, i, option)
            break
    p.adjusted = True
    s._log("reposition", plane=i, option=option, hex=s._colrow(p.hex), facing=p.facing, alt=p.alt)
    advance_reposition(s, 1 - p.side)


def pass_reposition(s: BattleState) -> None:
    """The side to act makes no more adjustments this turn."""
    s._log("pass", side=SIDES[s.to_act])
    s.declined[s.to_act] = True
    advance_reposition(s, 1 - s.to_act)

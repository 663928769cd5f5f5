"""The Mission phase: assigning planes, then each mission's mini-turn.

003 "MISSION PHASE": the ``assign`` step; launching (``Advance``) flies each
mission that has planes, in the order the missions came into play, through
the *mission windows* ``scramble`` (003 "SCRAMBLE SEGMENT") -> ``interception``
(003 "INTERCEPTION SEGMENT", resolved by the engagement resolver) ->
(``losses``) -> ``bombing`` (003 "BOMBING SEGMENT", "AIR SUPREMACY RULE").
In a window both sides may act; a window closes when both sides pass
(``Advance``) in a row, starting with the defender in the scramble window and
the attacker in the others.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .actions import (
    Advance,
    Assign,
    ChooseLoss,
    EnterResult,
    ScrambleFighter,
    SetEngagementMode,
    Unassign,
)
from .cards import STRATEGIC, PlaneSpec, experience_bonus, experience_rank, other
from .checks import (
    awaiting_result_error,
    engagement_mode,
    resolver_error,
    result_error,
)
from .engagement import (
    CARD_CREDIT_RULE,
    FLAK_AF,
    Combatant,
    Engagement,
    EngagementResult,
    Kill,
)
from .phases import (
    AWAITING_RESULT,
    BOMBING,
    DEBRIEFING,
    INTERCEPTION,
    LOSSES,
    MISSION,
    SCRAMBLE,
    STRATEGY,
    WINDOWS,
    end_turn,
    enter,
    next_phase,
)

if TYPE_CHECKING:
    from .state import GameState


# -- the assign step and the scramble segment -------------------------------------------
def do_assign(state: GameState, a: Assign) -> None:
    state.assignments[a.plane] = a.mission
    state._log("assign", plane=a.plane, mission=a.mission)


def do_unassign(state: GameState, a: Unassign) -> None:
    mission = state.assignments.pop(a.plane)
    state._log("unassign", plane=a.plane, mission=mission)


def do_scramble(state: GameState, a: ScrambleFighter) -> None:
    state.scrambled[a.plane] = state.mission_in_flight()
    state.passes = 0
    state._log("scramble", plane=a.plane, mission=state.current_mission)


def do_mode(state: GameState, a: SetEngagementMode) -> None:
    state.mode_overrides[a.mission] = a.mode
    state._log("engagement_mode", mission=a.mission, mode=a.mode)


def do_result(state: GameState, a: EnterResult) -> None:
    submit_engagement_result(state, EngagementResult.from_json(json.loads(a.result)))


def do_advance(state: GameState, a: Advance) -> None:
    """Pass: accept the default losses, pass in a mission window, launch the
    missions, end the turn, or leave the phase (003 "TURN SEQUENCE")."""
    if state.step == LOSSES:
        default_losses(state, a.side)
        return
    if state.step in WINDOWS:
        state.passes += 1
        state._log("pass", who=a.side)
        if state.passes >= 2:
            close_window(state)
        else:
            state.priority = other(a.side)
        return
    if state.phase == MISSION:  # assign step
        launch(state)
        return
    if state.phase == DEBRIEFING:
        end_turn(state)
        return
    next_phase(state)


# -- flying the missions in turn ---------------------------------------------------------------
def launch(state: GameState) -> None:
    """003 "MISSION PHASE": "Each Mission is resolved in turn"."""
    state.flight_queue = [m for m in state.missions_in_play if m in state.assignments.values()]
    state.flown = dict(state.assignments)
    state._log("launch", missions={m: state.attackers_on(m) for m in state.flight_queue})
    state.mission_index = 0
    if state.flight_queue:
        start_mission(state)
    else:
        enter(state, STRATEGY)


def start_mission(state: GameState) -> None:
    state.step = SCRAMBLE
    state.priority = state.defender  # 003 "SCRAMBLE SEGMENT": the defending player
    state.passes = 0
    state.mission_mods = []
    state.extra_flak = 0
    state.engagement = None
    state.losses_todo = {}
    state.losses_chosen = {}
    state.retreated = []
    m = state.mission_in_flight()
    spec = state.mission_spec(m)
    state._log("mission_start", mission=m, name=spec.name, kind=spec.kind, level=spec.level,
               attackers=state.attackers_on(m))  # fmt: skip


def next_mission(state: GameState, advance_index: bool = True) -> None:
    if advance_index:
        state.mission_index += 1
    if state.mission_index < len(state.flight_queue):
        start_mission(state)
    else:
        state.step = ""
        state.mission_mods = []
        state.extra_flak = 0
        enter(state, STRATEGY)


def close_window(state: GameState) -> None:
    if state.step == SCRAMBLE:
        state.step = INTERCEPTION
        state.priority = state.active
        state.passes = 0
    elif state.step == INTERCEPTION:
        resolve_interception(state)
    elif state.step == BOMBING:
        resolve_bombing(state)


def scrub(state: GameState, mission: str) -> None:
    """A mission that will not be flown: its attackers stay home (no
    mission, no experience), its interceptors are released."""
    for p in [p for p, m in state.flown.items() if m == mission]:
        del state.flown[p]
    for p in [p for p, m in state.scrambled.items() if m == mission]:
        del state.scrambled[p]
    current = state.current_mission
    state.flight_queue.remove(mission)
    if mission == current:
        next_mission(state, advance_index=False)


# -- modifiers ------------------------------------------------------------------------------
def _in_scope(mod: dict[str, Any], plane_id: str, side: str, spec: PlaneSpec) -> bool:
    """Whether the event card ``mod`` in play reaches the plane (003 "EVENT DECK CARD LIST")."""
    scope = mod["scope"]
    if scope == "target":
        return plane_id == mod["target"]
    if scope == "own_fighters":
        return side == mod["side"] and spec.is_fighter
    if scope == "own_bombers":
        return side == mod["side"] and spec.is_bomber
    if scope == "own_heavy":
        return side == mod["side"] and spec.is_heavy
    if scope == "enemy_planes":
        return side != mod["side"]
    if scope == "enemy_fighters":
        return side != mod["side"] and spec.is_fighter
    if scope == "all_fighters":
        return spec.is_fighter
    return True  # all_planes


def modifier_sources(state: GameState, plane_id: str, force: str) -> list[tuple[str, int]]:
    """Each thing added to a force roll of ``plane_id`` on the current mission,
    named for the log: the pilot's experience (003 "EXPERIENCE PHASE": "Flier",
    "Veteran", "Ace"), a defending night fighter (+1 AF), and each event card in
    play by its name ("Night Raid", "Inclement Weather"). Zero terms left out."""
    plane = state.planes[plane_id]
    spec = state.setup.plane_cards[plane["card"]]
    side = plane["side"]
    sources: list[tuple[str, int]] = []
    if bonus := experience_bonus(plane["xm"]):
        sources.append((experience_rank(plane["xm"]), bonus))
    # 003 "INTERCEPTION SEGMENT": "Defending Night Fighters get AF +1."
    if force == "af" and spec.night_fighter and plane_id in state.scrambled:
        sources.append(("Night Fighter", 1))
    for m in state.mission_mods:
        f = m["force"]
        if not (f == force or f == "all" or (f == "payload" and force in ("sf", "gf"))):
            continue
        if m["amount"] and _in_scope(m, plane_id, side, spec):
            sources.append((str(m["name"]), m["amount"]))
    return sources


def modifier(state: GameState, plane_id: str, force: str) -> int:
    """Everything added to a force roll of ``plane_id`` on the current
    mission: the sum of :func:`modifier_sources`."""
    return sum(amount for _, amount in modifier_sources(state, plane_id, force))


def combatant(state: GameState, pid: str) -> Combatant:
    spec = state.plane_spec(pid)
    plane = state.planes[pid]
    sources = modifier_sources(state, pid, "af")
    return Combatant(pid, plane["side"], spec.name, spec.card_type, spec.af, sum(a for _, a in sources),
                     spec.night_fighter and pid in state.scrambled, plane["xm"], tuple(sources))  # fmt: skip


# -- interception --------------------------------------------------------------------------
def resolve_interception(state: GameState) -> None:
    """003 "INTERCEPTION SEGMENT" through the one resolution step."""
    m = state.mission_in_flight()
    spec = state.mission_spec(m)
    engagement = Engagement(
        mission_id=m,
        mission_name=spec.name,
        mission_kind=spec.kind,
        mission_level=spec.level,
        attacker=state.active,
        defender=state.defender,
        attackers=tuple(combatant(state, p) for p in state.attackers_on(m)),
        defenders=tuple(combatant(state, p) for p in state.defenders_on(m)),
        # "The Defending player gets to make one extra attack due to ground fire & Flak."
        flak_rolls=1 + state.extra_flak,
        flak_af=FLAK_AF,
    )
    mode = engagement_mode(state, m)
    err = resolver_error(state, mode)  # refused by check_advance before anything moved
    if err is not None:
        raise err
    resolver = state.resolution.resolvers[mode]
    state.step = AWAITING_RESULT
    state.priority = None
    state.engagement_input = engagement.to_json()
    state._log("engagement_start", mission=m, mode=mode, engagement=state.engagement_input)
    result = resolver(engagement, state.dice)
    if result is not None:
        submit_engagement_result(state, result)


def submit_engagement_result(state: GameState, result: EngagementResult) -> None:
    err = awaiting_result_error(state) or result_error(state, result)
    if err is not None:
        raise err
    m = state.current_mission
    state.engagement_input = None
    state.engagement = result.to_json()
    state._log("interception", mission=m, mode=result.mode, rolls=[r.to_json() for r in result.rolls],
               flak_rolls=1 + state.extra_flak, dice=[list(d) for d in result.dice])  # fmt: skip
    if result.pending_hits:
        state.step = LOSSES
        state.losses_todo = {side: list(shooters) for side, shooters in result.pending_hits}
        state.losses_chosen = {side: [] for side in state.losses_todo}
        state._log("losses_to_choose", hits={s: len(v) for s, v in state.losses_todo.items()})
        after_loss_choice(state)
    else:
        finish_engagement(state, result)


# -- losses: 003 "INTERCEPTION SEGMENT": "A player determines which of his planes on a
# mission are shot down."
def do_loss(state: GameState, a: ChooseLoss) -> None:
    state.losses_chosen.setdefault(a.side, []).append(a.plane)
    state._log("loss_chosen", who=a.side, plane=a.plane)
    after_loss_choice(state)


def default_losses(state: GameState, side: str) -> None:
    """Default loss policy when the owner does not choose (Advance): the
    planes with the fewest experience markers go first, ties in the
    order the planes joined the mission."""
    need = len(state.losses_todo[side]) - len(state.losses_chosen.get(side, []))
    pool = sorted(state.losses_candidates(side), key=lambda p: state.planes[p]["xm"])
    picked = pool[:need]
    state.losses_chosen.setdefault(side, []).extend(picked)
    state._log("loss_default", who=side, planes=picked)
    after_loss_choice(state)


def after_loss_choice(state: GameState) -> None:
    for side in (state.active, state.defender):
        if len(state.losses_chosen.get(side, [])) < len(state.losses_todo.get(side, [])):
            state.priority = side
            return
    if state.engagement is None:
        raise RuntimeError("losses are chosen only for an engagement that was rolled")
    result = EngagementResult.from_json(state.engagement)
    kills = []
    losses = []
    for side in (state.active, state.defender):
        for shooter, victim in zip(
            state.losses_todo.get(side, []), state.losses_chosen.get(side, []), strict=True
        ):
            kills.append(Kill(shooter, victim, CARD_CREDIT_RULE))
            losses.append(victim)
    finish_engagement(
        state, replace(result, losses=tuple(losses), kills=tuple(kills), pending_hits=())
    )


def finish_engagement(state: GameState, result: EngagementResult) -> None:
    m = state.mission_in_flight()
    for kill in result.kills:
        record = {"turn": state.turn, "mission": m, "shooter": kill.shooter_id, "victim": kill.victim_id,
                  "credit_rule": kill.credit_rule}  # fmt: skip
        state.kills.append(record)
        if kill.shooter_id in state.planes:
            state.planes[kill.shooter_id]["kills"] += 1
        elif kill.shooter_id in state.lost:
            state.lost[kill.shooter_id]["kills"] += 1
    for pid in result.losses:
        plane = state.planes.pop(pid)
        state.plane_discard[plane["side"]].append(plane["card"])  # "shot down (discarded)"
        killer = next((k.shooter_id for k in result.kills if k.victim_id == pid), None)
        state.lost[pid] = {**plane, "turn": state.turn, "mission": m, "shot_down_by": killer}
    state.retreated = [p for p in result.retreats if p in state.planes]
    final = replace(result, pending_hits=())
    state.engagement = final.to_json()
    state.engagements.append({"turn": state.turn, **final.to_json()})
    state._log("engagement_result", mission=m, losses=list(result.losses),
               kills=[k.to_json() for k in result.kills], retreats=list(result.retreats))  # fmt: skip
    state.step = BOMBING
    state.priority = state.active
    state.passes = 0
    if not bombers_for(state, m):
        resolve_bombing(state)


# -- bombing --------------------------------------------------------------------------------
def bombers_for(state: GameState, mission: str) -> list[str]:
    """003 "BOMBING SEGMENT": "Only your planes that survived Interception
    Segment can make Bombing Rolls" (with the force the mission rolls)."""
    force = "sf" if state.mission_spec(mission).kind == STRATEGIC else "gf"
    return [p for p in state.attackers_on(mission)
            if p not in state.retreated and getattr(state.plane_spec(p), force) is not None]  # fmt: skip


def resolve_bombing(state: GameState) -> None:
    """003 "BOMBING SEGMENT" and "AIR SUPREMACY RULE"."""
    m = state.mission_in_flight()
    spec = state.mission_spec(m)
    force = "sf" if spec.kind == STRATEGIC else "gf"
    supremacy = not any(mm == m for mm in state.scrambled.values())
    rolls = []
    success = False
    for p in bombers_for(state, m):
        target = getattr(state.plane_spec(p), force)
        sources = modifier_sources(state, p, force) + ([("air supremacy", 1)] if supremacy else [])
        mod = sum(a for _, a in sources)
        die = state._roll(f"bombing {p}")
        ok = die + mod >= target
        success = success or ok  # "As long as one plane succeeds the Mission is a Success."
        rolls.append({"plane": p, "die": die, "modifier": mod, "target": target, "success": ok,
                      "modifiers": [[name, amount] for name, amount in sources]})  # fmt: skip
    state.results.append({"mission": m, "kind": spec.kind, "level": spec.level, "success": success})
    state._log(
        "bombing", mission=m, force=force, air_supremacy=supremacy, rolls=rolls, success=success
    )
    next_mission(state)

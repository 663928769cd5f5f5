"""The engine's battle log in plain sentences, with the dice (issue 16, readable reports).

``sentence(entry, context) -> str`` turns one entry of ``BattleState.log``
(rules/angels20/__init__.py lists the kinds) into one sentence such as
"Turn 2, attack: #1 Bf 109E (Ltn Vogel) fired at #0 Spitfire I (P/O Smith):
range 2, from its 6 o'clock, 3 dice needing 4+, d6 rolls 5, 2, 6 → 3 hits …".
``context`` names the aircraft (``plane_names``: type and the roster pilot's
name, else the pilot quality in words, as the report's kills list and map name them
too) and carries the phase, which
``sentences`` follows through a whole log. ``citation(entry)`` gives the
rulebook section (/work/shared/rules/000_3e786b822f6e109d.txt, "000") where
the rule behind the entry's outcome is described. Plain functions, no Django:
the report page and the page for battles flown by people both use them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.tactical import aircraft_names

FACINGS = ("north", "north-east", "south-east", "south", "south-west", "north-west")
SIDE_WORDS = {"axis": "Axis", "allied": "Allied", None: "neither side"}
MANEUVERS = {
    "break": "a break",
    "barrel_roll": "a barrel roll",
    "climb": "a climb",
    "power_dive": "a power dive",
    "split_s": "a Split S",
    "scissors": "the scissors",
    "tight_turn": "a tight turn",
}
STATUS_WORDS = {
    "none": "no status",
    "diving": "diving status (nose down)",
    "climbing": "climbing status (nose up)",
    "evading_left": "evading status, banking left",
    "evading_right": "evading status, banking right",
}
CLOUD_BANDS = {"placed": "a placed cloud", "solid": "a solid cloud band"}

# The rulebook section describing each entry's outcome (000 = the Angels 20 rulebook,
# 003 = the card game, whose flak roll precedes an engine engagement).
CITATIONS = {
    "battle_start": '000 "SETTING UP"',
    "clouds": '000 "CLOUDS", "RANDOM CLOUD ARRANGEMENT"',
    "card_flak": '003 "INTERCEPTION SEGMENT"',
    "initiative": '000 "INITIATIVE PHASE"',  # and "TAILING" when a side tailed (citation)
    "turn_position": '000 "CHOOSING TURN POSITION"',
    "direction": '000 "FIGHTER DIRECTION"',
    "movement_phase": '000 "MOVEMENT PHASE", "UNEQUAL NUMBERS"',
    "activate": '000 "MOVING AIRCRAFT"',
    "maneuver": '000 "MANEUVER CHECKS", "DIFFICULT MANEUVERS"',
    "step": '000 "MOVING AIRCRAFT"',
    "move_end": '000 "MOVING AIRCRAFT"',
    "status": '000 "AIRCRAFT STATUS"',
    "stacking": '000 "STACKING"',
    "reposition": '000 "MOVEMENT AND SPECIAL ABILITIES"',
    "pass": '000 "MOVEMENT AND SPECIAL ABILITIES"',
    "clouds_check": '000 "CLOUDS", "EFFECTS OF BEING IN THE CLOUDS"',
    "flak": '000 "FLAK FIELDS"',
    "balloon": '000 "BARRAGE BALLOONS"',
    "retreat": '000 "THE BATTLE MAP"',
    "exit": '000 "LIMITED FUEL", "BOMBER ESCORT SCENARIO"',
    "collision": '000 "OPTIONAL RULE: MIDAIR COLLISION"',
    "illumination": '000 "ILLUMINATION"',
    "attack_phase": '000 "ATTACK PHASE"',
    "attack": '000 "RESOLVING ATTACKS", "TARGET ASPECT", "ATTACK BONUSES AND PENALTIES"',
    "decline": '000 "ATTACK PHASE"',
    "no_attacks": '000 "ATTACK PHASE", "FIRING ARC"',
    "condition": '000 "EFFECTS OF DAMAGE"',
    "destroyed": '000 "DESTROYED"',
    "survival": '000 "PILOT SURVIVAL"',
    "vp": '000 "WINNING THE SCENARIO"',
    "end_turn": '000 "END OF TURN"',
    "game_over": '000 "WINNING THE SCENARIO"',
}

# The phase an entry belongs to; entries that happen in several phases (destroyed,
# survival, vp) take the phase ``sentences`` is in.
PHASES = {
    "battle_start": "set-up",
    "clouds": "set-up",
    "card_flak": "set-up",
    "initiative": "initiative",
    "turn_position": "initiative",
    "direction": "initiative",
    "movement_phase": "movement",
    "attack_phase": "attack",
    "collision": "attack",
    "illumination": "attack",
    "end_turn": "end of turn",
    "game_over": "end of the battle",
}


def plane_names(
    setup: dict[str, Any], crews: dict[int, dict[str, Any]] | None = None, system: Any = None
) -> dict[int, str]:
    """Each aircraft as the pages name it, by the number its game's log and result call
    it by: number, type and the roster pilot's name (``crews``, from
    battles.selectors.battle_crews), else its pilot quality in words: ``#0 Spitfire I
    (P/O Smith)``, ``#1 Bf 109E (average pilot)``. Type and quality are the game's
    (``rules.tactical.aircraft_names``; ``system`` None: read as Angels 20's)."""
    crews = crews or {}
    names = {}
    for number, plane in aircraft_names(system, setup).items():
        crew = crews.get(number)
        who = crew["name"] if crew else f"{plane.pilot} pilot"
        names[number] = f"#{number} {plane.name} ({who})"
    return names


def context_for(
    setup: dict[str, Any], crews: dict[int, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The context ``sentence`` needs: the aircraft's names and the phase."""
    return {"planes": plane_names(setup, crews), "phase": ""}


def sentences(log: Iterable[dict[str, Any]], context: dict[str, Any]) -> list[str]:
    """One sentence per entry of ``log``, following the phase through it."""
    ctx = dict(context)
    out = []
    for entry in log:
        kind = entry.get("e", "")
        if kind in PHASES:
            ctx["phase"] = PHASES[kind]
        elif (
            kind in ("activate", "step", "move_end", "maneuver") and ctx.get("phase") != "movement"
        ):
            ctx["phase"] = "movement"
        out.append(sentence(entry, ctx))
    return out


def citation(entry: dict[str, Any]) -> str:
    """The rulebook section behind ``entry`` (empty for an unknown kind). An initiative
    roll cites "TAILING" only when tailing gave a side its bonus (the advanced rule on,
    and an aircraft tailing an enemy)."""
    kind = entry.get("e", "")
    if kind == "initiative" and any((entry.get("tailing") or {}).values()):
        return f'{CITATIONS[kind]}, "TAILING"'
    return CITATIONS.get(kind, "")


def sentence(entry: dict[str, Any], context: dict[str, Any] | None = None) -> str:
    """``entry`` as one plain sentence with its dice, headed by the turn and phase."""
    ctx = context or {}
    kind = entry.get("e", "")
    writer = WRITERS.get(kind)
    body = writer(entry, ctx) if writer else _unknown(kind, entry)
    phase = PHASES.get(kind) or ctx.get("phase") or ""
    turn = entry.get("turn", 0)
    head = f"Turn {turn}" if turn else "Before the first turn"
    if phase and phase != "set-up":
        head = f"{head}, {phase}"
    return f"{head}: {body}"


# ------------------------------------------------------------------ helpers
def _plane(ctx: dict[str, Any], i: Any) -> str:
    if i is None or (isinstance(i, int) and i < 0):
        return "no aircraft"
    return ctx.get("planes", {}).get(i) or f"aircraft #{i}"


def _side(side: Any) -> str:
    return SIDE_WORDS.get(side, str(side))


def _hex(h: Any) -> str:
    return f"hex ({h[0]}, {h[1]})" if h else "off the map"


def _facing(f: Any) -> str:
    return FACINGS[f] if isinstance(f, int) and 0 <= f < 6 else str(f)


def _where(e: dict[str, Any]) -> str:
    return f"{_hex(e.get('hex'))}, facing {_facing(e.get('facing'))}, altitude {e.get('alt')}"


def _num(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _words(x: Any) -> str:
    """Any value in words, without code punctuation (for entries no writer knows); a dict's
    keys in order of name, as PostgreSQL's jsonb gives them back in an order of its own."""
    if isinstance(x, dict):
        return "; ".join(
            f"{_words(k)} {_words(v)}" for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))
        )
    if isinstance(x, list | tuple):
        return ", ".join(_words(v) for v in x) or "none"
    return str(x).replace("_", " ")


def _unknown(kind: str, e: dict[str, Any]) -> str:
    rest = {k: v for k, v in e.items() if k not in ("e", "turn")}
    return f"{_words(kind)}: {_words(rest)}." if rest else f"{_words(kind)}."


STAT_BONUSES = ("roll", "climb", "dive", "turn")  # a stat card's maneuver bonuses (000)


def _bonus(parts: list[Any]) -> str:
    """Each part of a bonus: "its Roll bonus +4" (the stat card's), "crippled -2", ..."""
    return ", ".join(
        f"its {name.capitalize()} bonus {value:+d}"
        if name in STAT_BONUSES
        else f"{_words(name)} {value:+d}"
        for name, value in parts
    )


def _outcome(e: dict[str, Any]) -> str:
    """000 "RESOLVING ATTACKS": hits reach armor = damaged, vital armor = destroyed."""
    armor, vital, outcome = e.get("armor"), e.get("vital_armor"), str(e.get("outcome"))
    against = f"against armor {armor} and vital armor {vital}" if armor is not None else ""
    word = {"miss": "no effect", "damage": "damaged", "destroyed": "destroyed"}.get(
        outcome, _words(outcome)
    )
    return f"{against}: {word}" if against else word


def _rolls(rolls: list[Any]) -> str:
    return ", ".join(str(r[0]) for r in rolls) or "none"


# ------------------------------------------------------------------ writers
def _battle_start(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    n = len(e.get("aircraft", []))
    text = f"the battle begins: {e.get('scenario', 'a scenario')}, {n} aircraft on the map"
    rolls = [r for r in e.get("setup_rolls", []) if isinstance(r, list | tuple) and len(r) == 2]
    if rolls:
        text += "; set-up dice: " + ", ".join(f"{r[0]} d6 rolled {r[1]}" for r in rolls)
    if e.get("optional_rules"):
        text += "; optional rules: " + ", ".join(_words(r) for r in e["optional_rules"])
    return text + "."


def _clouds(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    bands = ", ".join(f"altitude {i + 1} {b}" for i, b in enumerate(e.get("bands", [])))
    how = (
        f"rolled on the random cloud chart, d6 rolled {e['roll']}"
        if e.get("roll") is not None
        else "as set"
    )
    return f"cloud bands ({how}): {bands}."


def _card_flak(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    head = f"flak over the target, roll {e.get('roll_no')}: d10 rolled {e.get('roll')}, needed {e.get('af')}+"
    if not e.get("hit"):
        return f"{head}: missed."
    if e.get("plane") is None:
        return f"{head}: a hit, but no attacking aircraft was left to hit."
    return f"{head}: a hit, {_plane(ctx, e['plane'])} is shot down."


def _initiative(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    parts = []
    for side in ("axis", "allied"):
        dice = " + ".join(str(d) for d in e.get("rolls", {}).get(side, []))
        bonus = e.get("bonus", {}).get(side, 0)
        tail = e.get("tailing", {}).get(side, 0)
        extra = f", bonus {bonus:+d}" if bonus else ""
        extra += f" (tailing {tail} enemy aircraft)" if tail else ""
        parts.append(
            f"{_side(side)} rolled 2d6 {dice}{extra}, total {e.get('total', {}).get(side)}"
        )
    winner = e.get("winner")
    result = f"{_side(winner)} wins the initiative" if winner else "a tie, rolled again"
    return f"{'; '.join(parts)}: {result}."


def _turn_position(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    order = "first" if e.get("first") else "second"
    return f"{_side(e.get('side'))}, winner of the initiative, chose to move {order}."


def _direction(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    planes = [_plane(ctx, i) for i in e.get("planes", [])]
    who = ", ".join(planes) if planes else "no aircraft"
    return f"{_side(e.get('side'))} fighter direction guides {who}."


def _movement_phase(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return f"the movement phase begins; {_side(e.get('first'))} moves first."


def _activate(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    speed = f"speed {e.get('speed')}" + (" (high speed)" if e.get("high") else "")
    text = f"{_plane(ctx, e.get('plane'))} moves at {speed} from {_where(e)}"
    if e.get("required"):
        text += f"; it began in {STATUS_WORDS.get(e['required'], _words(e['required']))} and must make that maneuver first"
    return text + "."


def _maneuver_option(kind: str, option: Any) -> str:
    if kind in ("break", "barrel_roll", "tight_turn"):
        return " to the left" if option == -1 else " to the right"
    if kind == "power_dive":
        return f", down {option} altitude{'s' if option != 1 else ''}"
    if kind == "split_s":
        return {-2: ", turning two hex sides left", 2: ", turning two hex sides right"}.get(
            option, ", turning about"
        )
    return ""


def _maneuver(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    """000 "MANEUVER CHECKS": 2d6 + bonus, 10+ at normal speed, 13+ at high speed."""
    kind = e.get("maneuver", "")
    dice = e.get("dice", [])
    bonus = e.get("bonus", 0)
    parts = _bonus(e.get("bonus_parts", []))
    speed = "high speed" if e.get("target") == 13 else "normal speed"
    result = "passed" if e.get("success") else "failed"
    return (
        f"{_plane(ctx, e.get('plane'))} tries {MANEUVERS.get(kind, _words(kind))}"
        f"{_maneuver_option(kind, e.get('option'))} (maneuver check: 2d6 rolled "
        f"{' + '.join(str(d) for d in dice)}, bonus {bonus:+d}{f' for {parts}' if parts else ''}, "
        f"total {e.get('total')}, needed {e.get('target')}+ at {speed}: {result})."
    )


def _step(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    kind = e.get("kind", "straight")
    plane = _plane(ctx, e.get("plane"))
    n = e.get("n")
    if kind == "straight":
        how = "flies straight on"
    elif kind in ("turn left", "turn right"):
        how = f"flies on and turns {kind.split()[1]}"
    else:
        how = f"ends its {MANEUVERS.get(kind, _words(kind)).split(' ', 1)[-1]}"
    return f"{plane}, hex {n} of its move, {how}: now in {_where(e)}."


def _move_end(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    plane = _plane(ctx, e.get("plane"))
    if e.get("out") and e["out"] != "in play":
        return f"{plane} ends its move out of the battle ({_words(e['out'])})."
    status = e.get("status", "none")
    tail = f", in {STATUS_WORDS.get(status, _words(status))}" if status != "none" else ""
    return f"{plane} ends its move in {_where(e)}{tail}."


def _status(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    status = e.get("status", "none")
    return f"{_plane(ctx, e.get('plane'))} ends its move in {STATUS_WORDS.get(status, _words(status))}."


def _stacking(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return (
        f"{_plane(ctx, e.get('plane'))} may not end in {_hex(e.get('from'))} at that altitude with "
        f"another aircraft and goes back to {_where(e)}."
    )


def _reposition(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return (
        f"{_plane(ctx, e.get('plane'))} adjusts its position with its special ability "
        f"(choice {e.get('option')}): now in {_where(e)}."
    )


def _pass(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return f"{_side(e.get('side'))} makes no more position adjustments this turn."


def _clouds_check(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    """000 "CLOUDS": solid bands and placed clouds hide; heavy and light ones on a roll."""
    band = e.get("band", "")
    where = CLOUD_BANDS.get(band, f"a {band} cloud band")
    plane = _plane(ctx, e.get("plane"))
    if e.get("roll") is None:
        if e.get("in_clouds"):
            return f"{plane} ends its move in {where} and is in the clouds."
        return f"{plane} ends its move in {where} and stays out of the clouds."
    result = "in the clouds" if e.get("in_clouds") else "not in the clouds"
    return (
        f"{plane} tries to enter {where}: d6 rolled {e['roll']}, needed {e.get('need')}+: {result}."
    )


def _flak(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    """000 "FLAK FIELDS": on a 1 the field attacks with a d6 of dice at target number 4."""
    head = (
        f"{_plane(ctx, e.get('plane'))} flies through flak in {_hex(e.get('hex'))} at altitude "
        f"{e.get('alt')}: d6 rolled {e.get('roll')}"
    )
    if not e.get("attacked"):
        return f"{head}, not attacked (a 1 is needed)."
    return (
        f"{head}, attacked with {e.get('dice')} dice needing {e.get('target_number', 4)}+: "
        f"d6 rolls {_rolls(e.get('rolls', []))} → {e.get('hits')} hits {_outcome(e)}."
    )


def _balloon(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    """000 "BARRAGE BALLOONS": a 1-2 attacks; then 1-2 nothing, 3-4 damage, 5-6 destroyed."""
    head = (
        f"{_plane(ctx, e.get('plane'))} meets a barrage balloon in {_hex(e.get('hex'))}: "
        f"d6 rolled {e.get('roll')}"
    )
    if not e.get("attacked"):
        return f"{head}, not attacked (1 or 2 is needed)."
    return f"{head}, attacked: effect d6 rolled {e.get('effect_roll')}, {_outcome(e)}."


def _collision(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    """000 "OPTIONAL RULE: MIDAIR COLLISION": a 1 (a 2 for a poor pilot) for each aircraft."""
    rolls = ", ".join(
        f"{_plane(ctx, r.get('plane'))} d6 rolled {r.get('roll')}{' (a possible collision)' if r.get('possible') else ''}"
        for r in e.get("rolls", [])
    )
    collided = e.get("collided") or []
    result = (
        " and ".join(_plane(ctx, i) for i in collided) + " collide and are destroyed"
        if collided
        else "no collision"
    )
    return (
        f"aircraft share {_hex(e.get('hex'))} at altitude {e.get('alt')}, midair collision check: "
        f"{rolls}: {result}."
    )


def _illumination(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    result = "illuminated until the end of the turn" if e.get("lit") else "not illuminated"
    return (
        f"searchlights look for {_plane(ctx, e.get('plane'))}: d6 rolled {e.get('roll')}, "
        f"needed {e.get('need')}+: {result}."
    )


def _retreat(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return f"{_plane(ctx, e.get('plane'))} leaves the map by the {e.get('edge')} edge and has retreated."


def _exit(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return f"{_plane(ctx, e.get('plane'))} leaves the map by the {e.get('edge')} edge, as its mission asks."


def _attack_phase(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return f"the attack phase begins; {_side(e.get('first'))} attacks first."


def _attack(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    """000 "RESOLVING ATTACKS": dice by range, target number by aspect; a 6 is two hits."""
    mods = e.get("modifiers") or []
    modifier = e.get("modifier", 0)
    mod_text = (
        f", modifier {modifier:+d} ({_bonus(mods)})"
        if mods
        else (f", modifier {modifier:+d}" if modifier else "")
    )
    return (
        f"{_plane(ctx, e.get('attacker'))} fired at {_plane(ctx, e.get('target'))}: range "
        f"{e.get('range')}, from its {e.get('aspect')}, {e.get('dice')} dice needing "
        f"{e.get('target_number')}+{mod_text}; d6 rolls {_rolls(e.get('rolls', []))} → "
        f"{e.get('hits')} hits {_outcome(e)}."
    )


def _decline(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return f"{_side(e.get('side'))} makes no more attacks this turn."


def _no_attacks(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return f"{_side(e.get('side'))} has no enemy aircraft in its firing arcs and range."


def _condition(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return f"{_plane(ctx, e.get('plane'))} is now {e.get('to')} (was {e.get('from')})."


DESTROYED_HOW = {
    "hit points": "its last hit point is gone",
    "vital armor": "the hits reached its vital armor",
    "flak": "hit by flak",
    "balloon": "caught by a barrage balloon's cable",
    "midair collision": "in a midair collision",
    "out of fuel": "out of fuel",
}


def _destroyed(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    by = e.get("by")
    shooter = f", shot down by {_plane(ctx, by)}" if isinstance(by, int) and by >= 0 else ""
    how = DESTROYED_HOW.get(e.get("how", ""), _words(e.get("how", "")))
    return f"{_plane(ctx, e.get('plane'))} is destroyed{shooter} ({how})."


def _survival(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    """000 "PILOT SURVIVAL": d6, 4+ survives; +1 over friendly, -1 over enemy territory."""
    mod = e.get("modifier", 0)
    terr = {1: ", +1 over friendly territory", -1: ", -1 over enemy territory"}.get(mod, "")
    result = "survived" if e.get("survived") else "was lost"
    return (
        f"the pilot of {_plane(ctx, e.get('plane'))}: survival d6 rolled {e.get('roll')}{terr}, "
        f"needed 4+: {result}."
    )


def _vp(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    return (
        f"{_side(e.get('side'))} scores {_num(e.get('amount'))} victory points "
        f"({e.get('reason')}), {_num(e.get('total'))} in all."
    )


def _end_turn(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    vp = e.get("vp", {})
    return (
        f"the turn ends; victory points Axis {_num(vp.get('axis'))}, "
        f"Allied {_num(vp.get('allied'))}."
    )


def _game_over(e: dict[str, Any], ctx: dict[str, Any]) -> str:
    winner = e.get("winner")
    result = f"{_side(winner)} wins" if winner else "a draw"
    return f"the battle is over: {result} ({e.get('reason')})."


WRITERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], str]] = {
    "battle_start": _battle_start,
    "clouds": _clouds,
    "card_flak": _card_flak,
    "initiative": _initiative,
    "turn_position": _turn_position,
    "direction": _direction,
    "movement_phase": _movement_phase,
    "activate": _activate,
    "maneuver": _maneuver,
    "step": _step,
    "move_end": _move_end,
    "status": _status,
    "stacking": _stacking,
    "reposition": _reposition,
    "pass": _pass,
    "clouds_check": _clouds_check,
    "flak": _flak,
    "balloon": _balloon,
    "collision": _collision,
    "illumination": _illumination,
    "retreat": _retreat,
    "exit": _exit,
    "attack_phase": _attack_phase,
    "attack": _attack,
    "decline": _decline,
    "no_attacks": _no_attacks,
    "condition": _condition,
    "destroyed": _destroyed,
    "survival": _survival,
    "vp": _vp,
    "end_turn": _end_turn,
    "game_over": _game_over,
}

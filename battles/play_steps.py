"""Decisions built step by step (issue 25): the turn's ``steps``, and playing a built decision.

A game whose decision is too large to list whole (an *Air Force* plot, "2TR2P", 001 V)
offers it as small choices (``rules.tactical.decision_steps``). For the seat whose
decision it is, the turn carries ``steps``: the steps chosen so far (none at first),
what each means, the decision written in the game's notation, whether it is whole, and
the legal next steps. ``?steps=3,H`` on the turn (or ``?text=3H``, typed notation) asks
for them after a partial decision; a step not offered there is a 400 naming it
(``steps[1]``; typed text: ``text``). A built decision is posted as ``steps`` (or typed,
``notation``) and played as one action, checked whole by the game
(``rules.tactical.action_from_steps``), then through the same :func:`battles.play.turn_act`
as a whole action, so record, replay, sealing and deadlines are unchanged.

A game without steps (Angels 20) answers as before: no ``steps`` key at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from angels.errors import RuleViolation, is_citation
from rules.tactical import (
    DecisionSteps,
    StepRefused,
    action_from_steps,
    decision_steps,
    steps_check,
    steps_from_text,
    steps_text,
    system_named,
)

from . import play
from .models import Battle, BattleStatus
from .play_seats import user_sides

MAX_STEPS = 40  # a plot of 001 is a handful of steps; this bounds a request's work
MAX_STEP = 20  # characters of one step
MAX_TEXT = 200  # characters of typed notation


def _citation(rule: Any) -> str | None:
    return rule if isinstance(rule, str) and is_citation(rule) else None


def parse_steps(raw: str | None) -> tuple[str, ...] | None:
    """The query's ``steps`` ("3,H": the steps chosen so far, comma-separated; "": none yet);
    None when not asked. A 400 naming ``steps`` for one too long or too many."""
    if raw is None:
        return None
    steps = tuple(s.strip() for s in raw.split(",")) if raw.strip() else ()
    if len(steps) > MAX_STEPS or any(not s or len(s) > MAX_STEP for s in steps):
        raise RuleViolation(
            f"steps are up to {MAX_STEPS} steps separated by commas, each 1 to {MAX_STEP} "
            'characters, e.g. "3,H"',
            field="steps",
            code="format",
        )
    return steps


def _text(raw: str, field: str) -> str:
    if len(raw) > MAX_TEXT:
        raise RuleViolation(
            f"the notation is at most {MAX_TEXT} characters", field=field, code="format"
        )
    return raw


def _stepped_side(battle: Battle, state: Any, view: dict[str, Any], side: str | None) -> int | None:
    """The side whose decision the asking seat builds in steps now (``side``, or the first
    of its deciding sides that has steps); None: none of theirs is built in steps."""
    names = system_named(battle.system).sides
    ours = [names.index(s) for s in view["deciding"] if s in view["your_sides"]]
    if view["status"] != BattleStatus.IN_PLAY:
        ours = []
    if side is not None:
        if side not in names or names.index(side) not in ours:
            raise RuleViolation(
                f"side is one of the sides whose decision you make now: {', '.join(names[s] for s in ours) or 'none'}",
                field="side",
                code="invalid",
            )
        ours = [names.index(side)]
    return next((s for s in ours if decision_steps(state, s) is not None), None)


def _offered(offered: DecisionSteps, step: str) -> dict[str, str]:
    return {"step": step, "label": offered.labels.get(step, step)}


def steps_view(battle: Battle, state: Any, side: int, partial: tuple[str, ...]) -> dict[str, Any]:
    """``side``'s decision after the steps ``partial``; a step not offered is a 400 naming
    it (``steps[i]``, the rule the game cites)."""
    try:
        offered, words = steps_check(state, side, partial)
    except StepRefused as exc:
        raise RuleViolation(
            exc.message, field=f"steps[{exc.index}]", rule=_citation(exc.offered.rule)
        ) from exc
    action, problem = None, None
    if offered.complete:
        try:
            action = action_from_steps(state, side, partial).to_json()
        except system_named(battle.system).refusal as exc:  # whole, it breaks a rule: which
            problem = getattr(exc, "message", str(exc))
    return {
        "side": system_named(battle.system).sides[side],
        "steps": list(partial),
        "chosen": [{"step": s, "label": w} for s, w in zip(partial, words, strict=True)],
        "text": steps_text(state, partial),
        "complete": offered.complete,
        "prompt": offered.prompt,
        "next": [_offered(offered, s) for s in offered.next],
        "action": action,
        "problem": problem,
    }


def _read_text(state: Any, side: int, text: str, field: str) -> tuple[str, ...]:
    try:
        return steps_from_text(state, side, text)
    except StepRefused as exc:
        raise RuleViolation(exc.message, field=field, rule=_citation(exc.offered.rule)) from exc


def turn_view(
    battle: Battle,
    user: Any,
    *,
    steps: tuple[str, ...] | None = None,
    text: str | None = None,
    side: str | None = None,
    **asked: Any,
) -> dict[str, Any]:
    """:func:`battles.play.turn_view`, with ``steps`` for a seat whose decision is built in
    steps (after ``steps``, or the typed ``text``; none: its first step). Asking for steps
    when the decision is not yours, or not built in steps, is a 400 naming the field."""
    view = play.turn_view(battle, user, **asked)
    wanted = "text" if text is not None else "steps" if steps is not None else None
    if steps is not None and text is not None:
        raise RuleViolation("give steps or text, not both", field="text", code="invalid")
    if not view["your_turn"]:
        if wanted:
            raise RuleViolation(
                "only the seat whose decision is awaited builds it", field=wanted, code="state"
            )
        return view
    state = play.battle_state(battle)
    stepped = _stepped_side(battle, state, view, side)
    if stepped is None:
        if wanted:
            raise RuleViolation(
                "this decision is chosen whole from `choices`, not built step by step",
                field=wanted,
                code="state",
            )
        return view
    partial = _read_text(state, stepped, _text(text, "text"), "text") if text else steps or ()
    view["steps"] = steps_view(battle, state, stepped, partial)
    return view


def page_view(battle: Battle, user: Any, query: Mapping[str, str]) -> tuple[dict[str, Any], str]:
    """The turn for the play page, after the partial decision in its query (``steps`` or
    ``text``); a bad one is shown as a message and the building starts again."""
    try:
        steps = parse_steps(query.get("steps"))
        text = query.get("text") or None
        return turn_view(battle, user, steps=steps, text=text), ""
    except RuleViolation as exc:  # said only to a seat still building (not: the turn moved on)
        view = turn_view(battle, user)
        return view, str(exc) if "steps" in view else ""


def page_steps(view: dict[str, Any]) -> dict[str, Any] | None:
    """The page's building of a decision: the queries of its step buttons (one step more),
    of one step back, and the steps to post once whole."""
    built = view.get("steps")
    if built is None:
        return None
    steps = built["steps"]
    return {
        **built,
        "next": [{**n, "query": ",".join([*steps, n["step"]])} for n in built["next"]],
        "back": ",".join(steps[:-1]) if steps else None,
        "posted": ",".join(steps),
    }


def posted_steps(data: Mapping[str, Any]) -> dict[str, Any]:
    """The play page's posted decision built in steps: ``steps`` ("3,H") or typed
    ``notation``; {} when the post is another kind of decision."""
    if data.get("steps") is not None:
        return {"steps": parse_steps(str(data["steps"])) or ()}
    if data.get("notation") is not None:
        return {"notation": str(data["notation"])}
    return {}


def turn_act(
    *,
    battle_id: int,
    user: Any,
    version: Any,
    action: Any = None,
    computer: str | None = None,
    steps: Any = None,
    notation: str | None = None,
    side: str | None = None,
) -> Battle:
    """:func:`battles.play.turn_act`, or a decision built in ``steps`` (or typed,
    ``notation``): read, checked whole by the game, then played as that one action under
    the battle's lock (a refusal names ``steps`` or ``notation``, the rule where the game
    cites one; nothing is stored)."""
    given = [k for k, v in (("action", action), ("computer", computer)) if v is not None]
    built = "notation" if notation is not None else "steps" if steps is not None else None
    if built is None:
        return play.turn_act(
            battle_id=battle_id, user=user, version=version, action=action, computer=computer
        )
    if given or (steps is not None and notation is not None):
        raise RuleViolation(
            "give one of action, computer, steps or notation", field=built, code="invalid"
        )
    battle = Battle.objects.defer("log").filter(pk=battle_id).first()
    if battle is None:
        raise RuleViolation("no such battle", field="battle", code="exists")
    if not user_sides(battle, user):
        raise RuleViolation("only the people flying this battle may act in it", code="permission")
    view = play.turn_view(battle, user)
    state = play.battle_state(battle)
    stepped = _stepped_side(battle, state, view, side) if view["your_turn"] else None
    if stepped is None:
        raise RuleViolation(
            "no decision of yours is built step by step now", field=built, code="state"
        )
    if notation is not None:
        chosen = _read_text(state, stepped, _text(notation, "notation"), "notation")
    else:
        chosen = tuple(steps)
        steps_view(battle, state, stepped, chosen)  # each step offered where it stands
    try:
        whole = action_from_steps(state, stepped, chosen)
    except system_named(battle.system).refusal as exc:
        raise RuleViolation(
            getattr(exc, "message", str(exc)),
            field=built,
            rule=_citation(getattr(exc, "rule", None)),
        ) from exc
    try:
        return play.turn_act(
            battle_id=battle_id, user=user, version=version, action=whole.to_json()
        )
    except RuleViolation as exc:  # named by what was posted, not the action built from it
        if not (exc.field or "").startswith("action"):
            raise
        raise RuleViolation(exc.message, field=built, rule=exc.rule, code=exc.code) from exc

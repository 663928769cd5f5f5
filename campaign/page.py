"""The campaign page in plain words (issue 15, "A campaign page people can read").

:func:`campaign_page` turns the viewer's view of the game (``selectors.campaign_view``)
into what the page shows: the turn and phase, what just happened, what this viewer's
side must do now; the hand as cards with their rules text; the missions in play with
their planes; the decisions as grouped forms (``campaign.decisions``); the log in
sentences grouped by turn (``campaign.log_sentences``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Count
from django.utils.html import format_html
from django.utils.text import slugify

from angels.errors import RuleViolation
from rules.cardgame.cards import EVENT_LIST

from .decisions import (
    NEXT_PHASE,
    PHASE_NAMES,
    card_rules,
    decision_groups,
    describe,
    plane_label,
)
from .log_sentences import KINDS, MINOR, LogNames, log_sentence, plane, side_word
from .models import Campaign, CampaignAction
from .selectors import plane_crews
from .services import _undo_refusal

LOG_SHOWN = 400  # the latest log entries shown, grouped by turn
RECENT = 5  # "what just happened": the latest entries a reader cares about
STEP_NAMES = {
    "assign": "assigning planes",
    "scramble": "scramble segment",
    "interception": "interception segment",
    "losses": "choosing losses",
    "bombing": "bombing segment",
    "awaiting_result": "waiting for the engagement's result",
}

# a card-game action's kind (rules.cardgame.actions) as the umpire notes name it
ACTION_WORDS = {
    "advance": "going on to the next phase",
    "assign": "assigning a plane to a mission",
    "unassign": "taking a plane off its mission",
    "scramble": "scrambling a fighter",
    "play": "playing an event card",
    "loss": "choosing a plane shot down",
    "train": "giving an experience marker",
    "discard": "discarding a card",
    "mode": "choosing how an engagement is resolved",
    "result": "entering an engagement's result",
}


def log_names(campaign: Campaign, view: Mapping[str, Any]) -> LogNames:
    """Names for the log's sentences: every plane that was ever in play (with its
    roster pilot: one query), every mission, each engagement's report links."""
    names = LogNames(viewer=view.get("viewer"))
    names.learn(view["log"])
    for m in view["missions_in_play"]:
        names.missions[m["id"]] = m["name"]
    for p in view["planes"]:
        names.planes.setdefault(p["id"], {})["name"] = p["name"]
    for pid, crew in plane_crews(campaign.pk, set(names.planes)).items():
        if crew["pilot_id"]:
            names.planes[pid].update(pilot_id=crew["pilot_id"], pilot=crew["pilot"])
    for e in view.get("engagement_reports", []):
        if e["links"]:
            names.battles[(e["turn"], e["mission"])] = e["links"]
    return names


def _task(view: Mapping[str, Any], side: str, *, own: bool = True) -> str:
    """What ``side`` must do now, in words (the side whose move it is): to its own
    commander (``own``: "your planes"), or after the side's name to anyone else ("Axis must
    choose which of their planes ...")."""
    phase, step = view["phase"], view["step"]
    your, you = ("your", "you") if own else ("their", "they")
    if view.get("pending"):
        left = view["pending"].get("remaining", 0)
        return f"choose {left} plane{'s' if left != 1 else ''} for Pilot Training (1 experience marker each)"
    if step == "losses":
        owed = (view.get("losses_to_choose") or {}).get(side, 0)
        return f"choose which of {your} planes are shot down ({owed} to choose)"
    mission = {m["id"]: m["name"] for m in view["missions_in_play"]}.get(
        view.get("current_mission") or "", "the mission"
    )
    if step == "assign":
        if not view["turns_taken"].get(side):
            return "nothing to assign: no missions on a side's first turn (rulebook 003, Setup); end the Mission phase"
        return (
            "assign planes to the missions in play (one plane with SF per level of a strategic "
            "bombing mission, one with GF per level of a ground support mission), then launch them"
        )
    if step == "scramble":
        if side != view["active"]:
            return f"scramble fighters against {mission}, play an event card, or pass"
        return f"play an event card for {mission} or pass while the defender scrambles"
    if step == "interception":
        return f"play event cards for the air attack rolls over {mission}, or pass (both pass: the dice roll)"
    if step == "bombing":
        return f"play event cards for the bombing rolls over {mission}, or pass (both pass: the bombers roll)"
    if phase == "debriefing":
        # the acting side's hand (``hand`` is the reader's own, perhaps the other side's)
        held = (view.get("hand_counts") or {}).get(side, len(view.get("hand") or []))
        over = held - view["hand_limit"]
        if over > 0:
            return (
                f"discard {over} card{'s' if over != 1 else ''} (hand limit {view['hand_limit']}), "
                f"then end {your} turn"
            )
        return f"end {your} turn"
    nxt = PHASE_NAMES.get(NEXT_PHASE.get(phase, ""), "next")
    return f"play an event card if {you} wish, then go on to the {nxt} phase"


def summary(campaign: Campaign, view: Mapping[str, Any]) -> dict[str, Any]:
    """The top of the page: turn, phase, whose move, and this viewer's task."""
    you = view["you"]
    current = view["current_side"]
    phase = PHASE_NAMES.get(view["phase"], view["phase"])
    step = STEP_NAMES.get(view["step"], view["step"])
    acting = you.get("acting_as")
    mine = bool(current and view["legal_actions"])
    if view.get("winner"):
        do = f"The campaign is over: {side_word(view['winner'])} won."
    elif current is None:
        do = "Nobody can act until the engagement's result is in (see the battles below)."
    elif mine and you.get("umpire"):
        do = (
            f"You (as umpire for {side_word(current)}) must act now: "
            f"{_task(view, current, own=False)}. Each decision needs a reason, kept in the log."
        )
    elif mine:
        do = f"You must act now: {_task(view, current)}."
    elif you.get("side"):
        do = f"Nothing for you to do now: {side_word(current)} must {_task(view, current, own=False)}."
    else:
        do = f"{side_word(current)} must {_task(view, current, own=False)}."
    return {
        "turn": view["turn"],
        "active": view["active"],
        "phase": phase,
        "step": step,
        "current": current,
        "mine": mine,
        "acting_as": acting,
        "do": do,
    }


def log_by_turn(view: Mapping[str, Any], names: LogNames) -> list[dict[str, Any]]:
    """The latest log entries as sentences, grouped by turn, newest turn first."""
    turns: list[dict[str, Any]] = []
    for e in view["log"][-LOG_SHOWN:]:
        if not turns or turns[-1]["turn"] != e["turn"]:
            turns.append({"turn": e["turn"], "side": e.get("side"), "entries": []})
        turns[-1]["entries"].append(
            {"type": e["type"], "minor": e["type"] in MINOR, "text": log_sentence(e, names)}
        )
    return turns[::-1]


def computer_decisions(campaign: Campaign) -> dict[int, list[str]]:
    """By turn, who the computer commander decided for, how often and why (the actions'
    own record: the game's log does not say who chose)."""
    rows = (
        CampaignAction.objects.filter(
            campaign=campaign, undone=False, reason__startswith="computer commander"
        )
        .values("turn", "side", "reason")
        .annotate(n=Count("id"))
        .order_by("turn", "side", "reason")
    )
    out: dict[int, list[str]] = {}
    for row in rows:
        why = row["reason"].removeprefix("computer commander").strip(" ()") or "absent side"
        times = "once" if row["n"] == 1 else f"{row['n']} times"
        out.setdefault(row["turn"], []).append(
            f"The computer commander decided for {side_word(row['side'])} {times} ({why})."
        )
    return out


def umpire_notes(view: Mapping[str, Any]) -> dict[int, list[str]]:
    """By turn, what the organiser did for a side as umpire, and why."""
    out: dict[int, list[str]] = {}
    for a in view.get("umpire_actions", []):
        what = ACTION_WORDS.get(a["type"], "a decision")
        side = f" for {side_word(a['side'])}" if a["side"] in ("allied", "axis") else ""
        out.setdefault(a["turn"], []).append(
            f"Decision {a['sequence']}, {what}, by the organiser as umpire{side}: {a['reason']}"
        )
    return out


def recent(view: Mapping[str, Any], names: LogNames) -> list[Any]:
    """What just happened: the latest entries a reader cares about, oldest first."""
    picked = [e for e in view["log"][-60:] if e["type"] not in MINOR][-RECENT:]
    return [log_sentence(e, names) for e in picked]


def hand_cards(view: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    if view.get("hand") is None:
        return None
    return [
        {"id": c["id"], "slug": slugify(c["name"]), **card_rules(c["name"])} for c in view["hand"]
    ]


def missions(view: Mapping[str, Any], names: LogNames | None = None) -> list[dict[str, Any]]:
    """The missions in play as cards; a plane no longer in play (shot down in the
    interception) is named as the log names it, card and pilot, not by its id."""
    planes = {p["id"]: p for p in view["planes"]}
    names = names or LogNames()

    def labels(ids: list[str]) -> list[Any]:
        return [
            plane_label(planes[p])
            if p in planes
            else format_html("{}: out of play", plane(names, p))
            for p in ids
        ]

    return [
        {
            **m,
            "kind_words": KINDS.get(m["kind"], m["kind"]),
            "assigned_labels": labels(m["assigned"]),
            "scrambled_labels": labels(m["scrambled"]),
            "in_flight": m["id"] == view.get("current_mission"),
        }
        for m in view["missions_in_play"]
    ]


def campaign_page(campaign: Campaign, view: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the page shows besides the clock and the organiser's forms."""
    names = log_names(campaign, view)
    computer = computer_decisions(campaign)
    umpired = umpire_notes(view)
    groups = decision_groups(view)
    # playing a card is offered on the card itself, in the hand
    plays = {g["key"].split(":", 1)[1]: g for g in groups if g["kind"] == "play"}
    cards = hand_cards(view)
    for card in cards or []:
        card["play"] = plays.pop(card["id"], None)
    return {
        "summary": summary(campaign, view),
        "recent": recent(view, names),
        "hand_cards": cards,
        "missions": missions(view, names),
        "groups": [g for g in groups if g["kind"] != "play" or g["key"].split(":", 1)[1] in plays],
        "playable": sum(1 for c in cards or [] if c["play"]),
        "log_turns": [
            {**t, "computer": computer.get(t["turn"], []), "umpire": umpired.get(t["turn"], [])}
            for t in log_by_turn(view, names)
        ],
        "event_cards": [{"slug": slugify(name), **card_rules(name)} for name in dict(EVENT_LIST)],
    }


def action_names(campaign: Campaign, view: Mapping[str, Any]) -> dict[str, str]:
    """Plane, mission and card ids in words, for the messages about a decision."""
    names = {p["id"]: f"{p['name']} ({p['id']})" for p in view["planes"]}
    names |= {m["id"]: m["name"] for m in view["missions_in_play"]}
    return names | {c["id"]: c["name"] for c in view.get("hand") or []}


def undo_preview(campaign: Campaign, view: Mapping[str, Any]) -> dict[str, Any]:
    """What "Undo the last action" would take back, in words, for its confirmation page;
    ``refusal``: why it cannot be (nothing to undo, a result flown by the engine ...)."""
    last = (
        campaign.actions.filter(undone=False).select_related("actor").order_by("-sequence").first()
    )
    if last is None:
        return {"action": None, "refusal": "There is nothing to undo."}
    payload = last.payload if isinstance(last.payload, dict) else {}
    what = describe(payload, action_names(campaign, view), done=True)
    by = last.actor.username if last.actor is not None else last.reason or "the game itself"
    try:
        _undo_refusal(campaign, last)
        refusal = None
    except RuleViolation as exc:
        refusal = exc.message
    return {
        "action": last,
        "what": f"{side_word(last.side)}: {what[:1].upper()}{what[1:]}",
        "by": by,
        "reason": last.reason,
        "refusal": refusal,
    }

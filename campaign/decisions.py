"""The campaign page's decisions as forms grouped by what they do (issue 15).

The card game lists every legal action (``GameState.legal_actions``: one per plane and
mission, one per card and target). A person decides in groups: "assign these planes to
Attack Radar Towers", "scramble these fighters", "play Rockets on this plane". This
module groups the legal actions into such forms (:func:`decision_groups`), turns a
posted form back into the same engine actions (:func:`group_actions`), and applies
them all or none (:func:`campaign_act_group`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.html import format_html
from django.utils.safestring import SafeString

from angels.errors import RuleViolation
from rules.cardgame.actions import GiveExperience
from rules.cardgame.cards import EVENT_LIST, EVENT_RULES
from rules.cardgame.checks import DEBRIEFING_RULE, EVENT_CARD_RULE, INTERCEPTION_RULE, check_train
from rules.cardgame.phases import DEBRIEFING, LOSSES, PHASES
from rules.cardgame.state import GameState

from . import services
from .models import Campaign

CARD_TEXT = dict(EVENT_LIST)  # 003 "EVENT DECK CARD LIST": each card's printed note
PHASE_NAMES = {phase: phase.capitalize() for phase in PHASES}  # the game's own order (003)
NEXT_PHASE = dict(zip(PHASES[:-1], PHASES[1:], strict=True))
# groups whose choices are planes or cards, several at once (one engine action each)
MULTI = ("assign", "unassign", "scramble", "loss", "train", "discard")
# every kind of a side's action has its form here (the umpire's "mode" and "result" are
# the organiser's and the engine's: not decisions of a side); a test holds this to
# rules.cardgame.actions.ACTION_TYPES
GROUPED_KINDS = frozenset({*MULTI, "play", "advance"})


def plane_label(p: Mapping[str, Any]) -> SafeString:
    """A plane as a person picks it: card name, id, type, forces, rank and pilot."""
    forces = f"AF {p['af']}" + (f" · SF {p['sf']}" if p.get("sf") else "")
    forces += f" · GF {p['gf']}" if p.get("gf") else ""
    pilot = p.get("pilot") or {}
    return format_html(
        "<strong>{}</strong> <small>({})</small> {}{} · {} · {} ({} XM){}",
        p["name"],
        p["id"],
        p["type"],
        " NF" if p.get("night_fighter") else "",
        forces,
        p["rank"],
        p["xm"],
        format_html(" · {}", pilot["name"]) if pilot else "",
    )


def _role(p: Mapping[str, Any], mission_kind: str) -> str:
    """What a plane does on a mission of ``mission_kind`` (003 "MISSION PHASE": SF counts on
    a strategic bombing mission, GF on a ground support mission; fighters escort)."""
    force = "sf" if mission_kind == "S" else "gf"
    if p.get(force):
        return f"bombs: {force.upper()} {p[force]}"
    if p["type"] in ("F", "FB"):
        return "escort"
    return f"no {force.upper()}: flies as escort"


def _target_label(target: str, option: str, planes: dict, missions: dict) -> str:
    parts = []
    if target in missions:
        parts.append(f"on {missions[target]['name']}")
    elif target in planes:
        p = planes[target]
        parts.append(f"on {p['name']} ({target}, {p['side']})")
    if option:
        parts.append(f"as {option.upper()} +1")
    return " ".join(parts) or "play it"


def decision_groups(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The legal actions of ``view`` (``campaign.selectors.campaign_view``) as forms.

    Each group: ``key`` (posted back), ``kind``, ``title``, ``help``, ``submit`` (the
    button), ``multiple`` (checkboxes) and ``choices`` (``value``, ``label``). Advance
    is a group without choices. Every legal action is in exactly one group."""
    actions = view["legal_actions"]
    if not actions:
        return []
    planes = {p["id"]: p for p in view["planes"]}
    missions = {m["id"]: m for m in view["missions_in_play"]}
    side = actions[0]["side"]
    groups: dict[str, dict[str, Any]] = {}

    def group(key: str, kind: str, **fields: Any) -> dict[str, Any]:
        return groups.setdefault(key, {"key": key, "kind": kind, "choices": [], **fields})

    for a in actions:
        kind = a["type"]
        if kind == "assign":
            m = missions[a["mission"]]
            what = (
                "strategic bombing: at least 1 plane with SF"
                if m["kind"] == "S"
                else "ground support: at least 1 plane with GF"
            )
            g = group(
                f"assign:{m['id']}", "assign", multiple=True,
                title=f"Assign planes to {m['name']} (level {m['level']})",
                help=f"{what} per level; fighters may escort. A plane flies one mission a turn (rulebook 003, Mission phase).",
                submit=f"Assign to {m['name']}",
            )  # fmt: skip
            g["choices"].append({"value": a["plane"], "label": plane_label(planes[a["plane"]]),
                                 "tag": _role(planes[a["plane"]], m["kind"])})  # fmt: skip
        elif kind == "unassign":
            p = planes[a["plane"]]
            on = next((m["name"] for m in missions.values() if a["plane"] in m["assigned"]), "")
            g = group("unassign", "unassign", multiple=True, title="Take planes off their missions",
                      help="They stay in play and may be assigned again.", submit="Take them off")  # fmt: skip
            g["choices"].append(
                {"value": a["plane"], "label": format_html("{} — on {}", plane_label(p), on)}
            )
        elif kind == "scramble":
            flying = missions.get(view.get("current_mission") or "", {}).get("name", "the mission")
            g = group(
                "scramble", "scramble", multiple=True,
                title=f"Scramble fighters against {flying}",
                help="Each fighter intercepts one mission a turn; defending night fighters get AF +1 (rulebook 003, Scramble Segment).",
                submit="Scramble them",
            )  # fmt: skip
            g["choices"].append({"value": a["plane"], "label": plane_label(planes[a["plane"]])})
        elif kind == "loss":
            owed = (view.get("losses_to_choose") or {}).get(side, 0)
            g = group(
                "loss", "loss", multiple=True,
                title=f"Choose the plane{'s' if owed != 1 else ''} shot down ({owed} to choose)",
                help="\"A player determines which of his planes on a mission are shot down\" (rulebook 003, Interception Segment).",
                submit="These are shot down",
            )  # fmt: skip
            g["choices"].append({"value": a["plane"], "label": plane_label(planes[a["plane"]])})
        elif kind == "train":
            left = (view.get("pending") or {}).get("remaining", 0)
            g = group("train", "train", multiple=True,
                      title=f"Pilot Training: give {left} plane{'s' if left != 1 else ''} 1 experience marker each",
                      help="The card reads \"Give 3 planes 1 XP each\" (rulebook 003, Event deck).", submit="Train them")  # fmt: skip
            g["choices"].append({"value": a["plane"], "label": plane_label(planes[a["plane"]])})
        elif kind == "discard":
            limit = view["hand_limit"]  # 003 "DEBRIEFING PHASE": "Max hand size is 7 cards."
            over = len(view.get("hand") or []) - limit
            name = next(c["name"] for c in view["hand"] if c["id"] == a["card"])
            g = group("discard", "discard", multiple=True,
                      title=f"Discard down to {limit} cards ({over} over)",
                      help=f"The hand holds at most {limit} cards; discard the excess (rulebook 003, Debriefing phase).",
                      submit="Discard them")  # fmt: skip
            g["choices"].append(
                {
                    "value": a["card"],
                    "label": format_html("<strong>{}</strong>: {}", name, CARD_TEXT.get(name, "")),
                }
            )
        elif kind == "play":
            name = next(c["name"] for c in view["hand"] if c["id"] == a["card"])
            g = group(f"play:{a['card']}", "play", multiple=False, title=f"Play {name}",
                      help=CARD_TEXT.get(name, ""), submit=f"Play {name}", card=name)  # fmt: skip
            g["choices"].append({
                "value": f"{a['target']}|{a['option']}",
                "label": _target_label(a["target"], a["option"], planes, missions),
            })  # fmt: skip
        elif kind == "advance":
            group("advance", "advance", multiple=False, **_advance_words(view))
    for g in groups.values():  # the planes that carry the mission's payload first
        if g["kind"] == "assign":
            g["choices"].sort(key=lambda c: not c["tag"].startswith("bombs"))
    order = {
        "loss": 0,
        "train": 1,
        "discard": 2,
        "scramble": 3,
        "assign": 4,
        "unassign": 5,
        "play": 6,
        "advance": 7,
    }
    return sorted(groups.values(), key=lambda g: order.get(g["kind"], 8))


def _advance_words(view: Mapping[str, Any]) -> dict[str, str]:
    """What pressing Advance does here, in words (``rules.cardgame.missions.do_advance``)."""
    phase, step = view["phase"], view["step"]
    if step == "losses":
        return {"title": "Let the game choose", "submit": "Let the game choose the rest",
                "help": "The planes with the fewest experience markers go first."}  # fmt: skip
    if step in ("scramble", "interception", "bombing"):
        then = {
            "scramble": "when both sides pass, the interception begins",
            "interception": "when both sides pass, the air attack rolls are made",
            "bombing": "when both sides pass, the bombers roll",
        }[step]
        return {
            "title": "Pass",
            "submit": "Pass",
            "help": f"Nothing more to play in the {step} segment; {then}.",
        }
    if phase == "mission":
        assigned = any(m["assigned"] for m in view["missions_in_play"])
        if assigned:
            return {"title": "Launch the missions", "submit": "Launch the missions",
                    "help": "Every mission with planes assigned is flown in turn: scramble, interception, bombing."}  # fmt: skip
        return {"title": "Fly no missions", "submit": "End the Mission phase without missions",
                "help": "No plane is assigned: the turn goes on to the Strategy phase."}  # fmt: skip
    if phase == "debriefing":
        return {"title": "End the turn", "submit": "End the turn",
                "help": "The missions in play are discarded; the other side's turn begins."}  # fmt: skip
    nxt = PHASE_NAMES.get(NEXT_PHASE.get(phase, ""), "next")
    return {"title": f"Go on to the {nxt} phase", "submit": f"Go on to the {nxt} phase", "help": ""}


def group_actions(*, side: str, key: str, choices: Sequence[str]) -> list[dict[str, Any]]:
    """The engine actions of a posted group form, in the order chosen. Raises
    :class:`RuleViolation` naming the field for a form that is not a decision."""
    kind, _, arg = key.partition(":")
    if kind == "advance":
        return [{"type": "advance", "side": side}]
    if kind in MULTI:
        if not choices:
            what = "card" if kind == "discard" else "plane"
            raise RuleViolation(f"choose at least one {what}", field="choice", code="required")
        if len(set(choices)) != len(choices):
            raise RuleViolation("a plane or card was chosen twice", field="choice", code="invalid")
        item = "card" if kind == "discard" else "plane"
        extra = {"mission": arg} if kind == "assign" else {}
        return [{"type": kind, "side": side, item: c, **extra} for c in choices]
    if kind == "play" and arg:
        if len(choices) != 1 or "|" not in choices[0]:
            raise RuleViolation("choose how to play the card", field="choice", code="required")
        target, option = choices[0].split("|", 1)
        return [{"type": "play", "side": side, "card": arg, "target": target, "option": option}]
    raise RuleViolation(f"not a decision of this page: {key!r}", field="group", code="format")


def campaign_act_group(
    *,
    campaign_id: int,
    user: User,
    actions: Sequence[dict[str, Any]],
    version: int,
    names: Mapping[str, str] | None = None,
    umpire_reason: str = "",
) -> Campaign:
    """Apply a grouped decision: each engine action in order, the first under the version
    check, all in one transaction. If one is refused, none is applied, and the error
    names the refused action (``names``: plane and card ids to words) and its rule.

    Locks: ``services.campaign_act`` locks the campaign row (``select_for_update``) for
    the first action; the outer transaction keeps it locked until the last."""
    names = names or {}
    campaign = None
    with transaction.atomic():
        _check_count(campaign_id=campaign_id, user=user, actions=actions, version=version)
        for i, action in enumerate(actions):
            try:
                campaign = services.campaign_act(
                    campaign_id=campaign_id, user=user, action=dict(action),
                    version=version if i == 0 else None, umpire_reason=umpire_reason,
                )  # fmt: skip
            except RuleViolation as exc:
                if exc.code in ("conflict", "permission", "exists"):
                    raise
                what = describe(action, names)
                done = f" (the {i} before it were taken back too)" if i else ""
                raise RuleViolation(
                    f"nothing was done: {what} was refused: {exc.message}{done}",
                    field=exc.field, rule=exc.rule, code=exc.code,
                ) from exc  # fmt: skip
    if campaign is None:
        raise RuleViolation("no action to take", field="choice", code="required")
    return campaign


def _check_count(
    *, campaign_id: int, user: User, actions: Sequence[dict[str, Any]], version: int
) -> None:
    """Refuse a choose-N form with the wrong number of choices before any of its actions is
    applied (locks the campaign row for the transaction). A stale version, a side that may
    not act or a group that is not being chosen now is left to the actions' own refusals."""
    kinds = {a.get("type") for a in actions}
    if len(kinds) != 1 or not kinds & {"loss", "train", "discard"}:
        return
    campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if campaign is None or campaign.version != version:
        return
    side = str(actions[0].get("side"))
    if not services.can_act(campaign, user, side):
        return
    error = count_error(services.game_state(campaign), str(kinds.pop()), side, len(actions))
    if error is not None:
        raise error


def count_error(state: GameState, kind: str, side: str, chosen: int) -> RuleViolation | None:
    """Why ``chosen`` planes or cards are the wrong number for the ``kind`` form of ``side``
    now, or None. The rule (003):

    - losses ("INTERCEPTION SEGMENT": "A player determines which of his planes on a
      mission are shot down"): at most the hits still to take; fewer may be chosen, the
      rest by a later choice or by the game ("Let the game choose the rest");
    - Pilot Training ("EVENT DECK CARD LIST": "Give 3 planes 1 XP each"): exactly the
      planes still to train (fewer only if fewer planes can be trained);
    - discard ("DEBRIEFING PHASE": "Max hand size is 7 cards. Discard excess cards."):
      exactly the cards over the limit (the hand limit allows no more)."""
    if kind == "loss":
        if state.step != LOSSES or state.current_side() != side:
            return None
        owed = len(state.losses_todo.get(side, [])) - len(state.losses_chosen.get(side, []))
        if owed <= 0 or chosen <= owed:
            return None
        noun = "plane" if owed == 1 else "planes"
        return RuleViolation(
            f"choose at most {owed} {noun} shot down (you chose {chosen}): "
            f"{owed} {'hit is' if owed == 1 else 'hits are'} still to take",
            field="choice", rule=INTERCEPTION_RULE, code="invalid",
        )  # fmt: skip
    if kind == "train":
        pending = state.pending
        if pending is None or pending.get("side") != side:
            return None
        can = sum(1 for p in state.planes if check_train(state, GiveExperience(side, p)) is None)
        need = min(int(pending.get("remaining", 0)), can)
        if need <= 0 or chosen == need:
            return None
        return RuleViolation(
            f"choose exactly {need} plane{'s' if need != 1 else ''} for Pilot Training "
            f"(you chose {chosen}): the card gives {need} different plane"
            f"{'s' if need != 1 else ''} 1 experience marker each",
            field="choice", rule=EVENT_CARD_RULE, code="invalid",
        )  # fmt: skip
    if kind == "discard":
        if state.phase != DEBRIEFING or state.current_side() != side:
            return None
        limit = state.setup.hand_limit
        over = len(state.hands[side]) - limit
        if over <= 0 or chosen == over:
            return None
        return RuleViolation(
            f"choose exactly {over} card{'s' if over != 1 else ''} to discard (you chose "
            f"{chosen}): the hand holds at most {limit} cards",
            field="choice", rule=DEBRIEFING_RULE, code="invalid",
        )  # fmt: skip
    return None


def describe(action: Mapping[str, Any], names: Mapping[str, str], *, done: bool = False) -> str:
    """An engine action in words: "assigning X to Y" (refused) or "assigned X to Y" (done)."""

    def name(key: str) -> str:
        value = action.get(key) or ""
        return names.get(value, value)

    kind = str(action.get("type"))
    verbs = {
        "assign": ("assigning", "assigned"), "unassign": ("taking off", "took off"),
        "scramble": ("scrambling", "scrambled"), "loss": ("losing", "lost"),
        "train": ("training", "trained"), "discard": ("discarding", "discarded"),
        "play": ("playing", "played"), "advance": ("passing on", "went on"),
    }  # fmt: skip
    verb = verbs.get(kind, (kind, kind))[1 if done else 0]
    if kind == "assign":
        return f"{verb} {name('plane')} to {name('mission')}"
    if kind in ("discard", "play"):
        return f"{verb} {name('card')}"
    if kind == "advance":
        return verb
    return f"{verb} {name('plane')}"


def card_rules(name: str) -> dict[str, str]:
    """An event card's printed text and, in words, who may play it when
    (``rules.cardgame.cards.EVENT_RULES``, 003 "EVENT DECK CARD LIST")."""
    rule = EVENT_RULES.get(name)
    when = {
        "own_turn": "in your own turn, outside a mission",
        "attacker": "by the attacking side, during a mission",
        "defender": "by the defending side, during a mission",
        "either": "by either side, during a mission",
    }.get(rule.player if rule else "", "")
    target = {
        "own_plane": "on one of your planes",
        "enemy_plane": "on an enemy plane",
        "mission": "on a mission",
    }.get(rule.target if rule else "", "")
    return {"name": name, "text": CARD_TEXT.get(name, ""), "when": when, "target": target}

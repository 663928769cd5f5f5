"""The strategic card game of ``003_93ec40e0c2d0344c.txt`` as a rules engine.

A frozen :class:`GameSetup` (the cards) and a mutable :class:`GameState`:
``current_side()``, sorted ``legal_actions()``, ``apply(action)`` (checked,
raising :class:`RuleError` naming the rule), ``clone()``, ``is_over()``,
``result()``, ``to_json()`` / ``GameState.from_json()``. Every die and every
shuffle comes from the state's :class:`~rules.dice.Dice`, so
``replay(setup, seed, actions)`` rebuilds the same state.

Flow of a side's turn (003 "TURN SEQUENCE"): the eight phases are *phase
steps* in which the side whose turn it is holds priority; entering a phase
does its automatic part (draws, +1 PP, production, briefing, strategy,
experience) and ``Advance`` leaves it. The Mission phase starts with the
``assign`` step; launching (``Advance``) flies each mission that has planes,
in the order the missions came into play, through the *mission windows*
``scramble`` -> ``interception`` -> (``losses``) -> ``bombing``. In a window
both sides may act; a window closes when both sides pass (``Advance``) in a
row, starting with the defender in the scramble window and the attacker in
the others.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.dice import Dice, ScriptedDice

from .actions import (
    Action,
    Advance,
    Assign,
    ChooseLoss,
    Discard,
    EnterResult,
    GiveExperience,
    PlayEvent,
    ScrambleFighter,
    SetEngagementMode,
    Unassign,
    action_from_json,
    action_sort_key,
)
from .cards import (
    ALLIED,
    AXIS,
    ESPIONAGE,
    EVENT_LIST,
    GROUND,
    MISSIONS,
    SIDES,
    STRATEGIC,
    MissionSpec,
    PlaneSpec,
    experience_bonus,
    load_plane_catalog,
    plane_specs,
    production_draws,
)
from .engagement import (
    CARD_CREDIT_RULE,
    FLAK,
    FLAK_AF,
    RESOLVERS,
    Combatant,
    Engagement,
    EngagementResult,
    Kill,
)
from .events import EVENT_RULES

RULES_VERSION = "003-cards-1"

EVENT = "event"
INDUSTRY = "industry"
PRODUCTION = "production"
BRIEFING = "briefing"
MISSION = "mission"
STRATEGY = "strategy"
EXPERIENCE = "experience"
DEBRIEFING = "debriefing"
OVER = "over"
# 003 "TURN SEQUENCE": "Each Turn has 8 Phases" in this order.
PHASES = (EVENT, INDUSTRY, PRODUCTION, BRIEFING, MISSION, STRATEGY, EXPERIENCE, DEBRIEFING)

ASSIGN = "assign"
SCRAMBLE = "scramble"
INTERCEPTION = "interception"
LOSSES = "losses"
BOMBING = "bombing"
AWAITING_RESULT = "awaiting_result"
WINDOWS = (SCRAMBLE, INTERCEPTION, BOMBING)

VICTORY_ST_MINIMUM = 5  # 003 "VICTORY": "twice the Strategy Tokens of your opponent (Minimum 5)"
EVENT_DRAW = 2  # 003 "EVENT PHASE": "Draw 2 Event cards"
BRIEFING_DRAW = 3  # 003 "BRIEFING PHASE": "the top 3 cards of the Mission Deck"
ESPIONAGE_DRAW = 2  # 003 "BRIEFING PHASE": "2 Event cards for each Espionage Mission"


def other(side: str) -> str:
    return AXIS if side == ALLIED else ALLIED


class RuleError(ValueError):
    """An illegal action; ``rule`` names the rule it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message


# -- setup ---------------------------------------------------------------------
@dataclass(frozen=True)
class GameSetup:
    """The frozen part: the cards of both plane decks and the common decks.

    Card ids are stable: plane cards ``allied-c01``..., ``axis-c01``...; missions
    ``m01``...; events ``e01``... (in the order of the lists, copies expanded).
    """

    planes: tuple[PlaneSpec, ...]
    missions: tuple[MissionSpec, ...] = MISSIONS
    events: tuple[str, ...] = tuple(name for name, _ in EVENT_LIST)
    starting_pp: int = 10  # 003 "SETUP": "Each player stars with 10 PP"
    hand_limit: int = 7  # 003 "DEBRIEFING PHASE": "Max hand size is 7 cards"
    engagement_mode: str = "card"
    plane_cards: dict[str, PlaneSpec] = field(init=False, compare=False, repr=False)
    plane_decks: dict[str, tuple[str, ...]] = field(init=False, compare=False, repr=False)
    mission_cards: dict[str, MissionSpec] = field(init=False, compare=False, repr=False)
    event_cards: dict[str, str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "planes", plane_specs(self.planes))
        plane_cards: dict[str, PlaneSpec] = {}
        decks: dict[str, list[str]] = {s: [] for s in SIDES}
        for spec in self.planes:
            for _ in range(spec.copies):
                cid = f"{spec.side}-c{len(decks[spec.side]) + 1:02d}"
                plane_cards[cid] = spec
                decks[spec.side].append(cid)
        missions = {f"m{i + 1:02d}": m for i, m in enumerate(self.missions)}
        for name in self.events:
            if name not in EVENT_RULES:
                raise ValueError(f"event card {name!r} has no rule in rules.cardgame.events")
        events = {f"e{i + 1:02d}": name for i, name in enumerate(self.events)}
        object.__setattr__(self, "plane_cards", plane_cards)
        object.__setattr__(self, "plane_decks", {s: tuple(d) for s, d in decks.items()})
        object.__setattr__(self, "mission_cards", missions)
        object.__setattr__(self, "event_cards", events)

    def card_name(self, card_id: str) -> str:
        if card_id in self.event_cards:
            return self.event_cards[card_id]
        if card_id in self.mission_cards:
            return self.mission_cards[card_id].name
        return self.plane_cards[card_id].name

    def all_card_ids(self) -> list[str]:
        return [*self.plane_cards, *self.mission_cards, *self.event_cards]

    def to_json(self) -> dict[str, Any]:
        # The setup is frozen: build its JSON once (every stored state carries it).
        cached = self.__dict__.get("_json")
        if cached is None:
            cached = self._build_json()
            object.__setattr__(self, "_json", cached)
        return _copy(cached)

    def _build_json(self) -> dict[str, Any]:
        return {
            "rules_version": RULES_VERSION,
            "planes": [p.to_json() for p in self.planes],
            "missions": [m.to_json() for m in self.missions],
            "events": list(self.events),
            "starting_pp": self.starting_pp,
            "hand_limit": self.hand_limit,
            "engagement_mode": self.engagement_mode,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSetup:
        return cls(
            planes=plane_specs(data["planes"]),
            missions=tuple(
                MissionSpec(m["name"], m["kind"], int(m["level"])) for m in data["missions"]
            ),
            events=tuple(data["events"]),
            starting_pp=int(data["starting_pp"]),
            hand_limit=int(data["hand_limit"]),
            engagement_mode=data.get("engagement_mode", "card"),
        )


def default_setup(
    planes: Iterable[PlaneSpec | Mapping[str, Any]] | None = None, **options: Any
) -> GameSetup:
    """The game as published: the catalog's plane decks (or ``planes`` given as
    plain data), the mission and event decks as listed, 10 PP, hand limit 7."""
    specs = plane_specs(planes) if planes is not None else load_plane_catalog()
    return GameSetup(planes=specs, **options)


# -- state -----------------------------------------------------------------------
_STATE_FIELDS = (
    "turn",
    "active",
    "phase",
    "step",
    "priority",
    "passes",
    "turns_taken",
    "pp",
    "st",
    "plane_deck",
    "plane_discard",
    "mission_deck",
    "mission_discard",
    "event_deck",
    "event_discard",
    "hands",
    "planes",
    "next_plane",
    "missions_in_play",
    "assignments",
    "grounded",
    "flight_queue",
    "mission_index",
    "scrambled",
    "flown",
    "mission_mods",
    "extra_flak",
    "engagement",
    "losses_todo",
    "losses_chosen",
    "retreated",
    "results",
    "pending",
    "log",
    "history",
    "kills",
    "lost",
    "engagements",
    "winner",
    "end_reason",
    "mode_overrides",
    "first_roll",
    "engagement_input",
)


# Records that only ever get new entries appended (entries never change).
_APPEND_ONLY = frozenset({"log", "history", "kills", "engagements"})


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


class GameState:
    """The mutable state of one game. Build it with :func:`new_game`."""

    def __init__(self, setup: GameSetup, dice: Dice) -> None:
        self.setup = setup
        self.dice = dice
        self.turn = 1
        self.active = ALLIED
        self.phase = EVENT
        self.step = ""
        self.priority: str | None = ALLIED
        self.passes = 0
        self.turns_taken = {s: 0 for s in SIDES}
        self.pp = {s: setup.starting_pp for s in SIDES}
        self.st = {s: 0 for s in SIDES}
        self.plane_deck = {s: list(setup.plane_decks[s]) for s in SIDES}
        self.plane_discard: dict[str, list[str]] = {s: [] for s in SIDES}
        self.mission_deck = list(setup.mission_cards)
        self.mission_discard: list[str] = []
        self.event_deck = list(setup.event_cards)
        self.event_discard: list[str] = []
        self.hands: dict[str, list[str]] = {s: [] for s in SIDES}
        self.planes: dict[str, dict[str, Any]] = {}  # instance id -> plane in play
        self.next_plane = {s: 1 for s in SIDES}
        self.missions_in_play: list[str] = []
        self.assignments: dict[str, str] = {}  # attacking plane -> mission
        self.grounded: list[str] = []  # Navigation Error, this turn
        self.flight_queue: list[str] = []
        self.mission_index = 0
        self.scrambled: dict[str, str] = {}  # defending fighter -> mission
        self.flown: dict[str, str] = {}  # attacking plane -> mission it flies
        self.mission_mods: list[dict[str, Any]] = []
        self.extra_flak = 0
        self.engagement: dict[str, Any] | None = None
        self.losses_todo: dict[str, list[str]] = {}
        self.losses_chosen: dict[str, list[str]] = {}
        self.retreated: list[str] = []
        self.results: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.kills: list[dict[str, Any]] = []
        self.lost: dict[str, dict[str, Any]] = {}
        self.engagements: list[dict[str, Any]] = []
        self.winner: str | None = None
        self.end_reason = ""
        self.mode_overrides: dict[str, str] = {}
        self.first_roll: dict[str, Any] = {}
        self.engagement_input: dict[str, Any] | None = None  # what an engine/table resolves
        self._dice_buffer: list[list[Any]] = []

    # -- small helpers -----------------------------------------------------------
    @property
    def defender(self) -> str:
        return other(self.active)

    @property
    def round(self) -> int:
        return (self.turn + 1) // 2

    @property
    def current_mission(self) -> str | None:
        if self.phase == MISSION and self.step in (*WINDOWS, LOSSES, AWAITING_RESULT):
            return self.flight_queue[self.mission_index]
        return None

    def plane_spec(self, plane_id: str) -> PlaneSpec:
        return self.setup.plane_cards[self.planes[plane_id]["card"]]

    def mission_spec(self, mission_id: str) -> MissionSpec:
        return self.setup.mission_cards[mission_id]

    def card_name(self, card_id: str) -> str:
        return self.setup.card_name(card_id)

    def attackers_on(self, mission_id: str) -> list[str]:
        return [p for p, m in self.flown.items() if m == mission_id and p in self.planes]

    def defenders_on(self, mission_id: str) -> list[str]:
        return [p for p, m in self.scrambled.items() if m == mission_id and p in self.planes]

    def _roll(self, purpose: str) -> int:
        value = self.dice.d10(purpose)
        self._dice_buffer.append([purpose, 10, value])
        return value

    def _log(self, kind: str, /, **data: Any) -> dict[str, Any]:
        entry = {"n": len(self.log), "turn": self.turn, "side": self.active, "phase": self.phase}
        if self.step:
            entry["step"] = self.step
        entry["type"] = kind
        entry.update(data)
        if self._dice_buffer:
            entry["dice"] = self._dice_buffer
            self._dice_buffer = []
        self.log.append(entry)
        return entry

    # -- decks -------------------------------------------------------------------
    def _piles(self, deck: str) -> tuple[list[str], list[str]]:
        if deck == "mission":
            return self.mission_deck, self.mission_discard
        if deck == "event":
            return self.event_deck, self.event_discard
        side = deck.split(":", 1)[1]
        return self.plane_deck[side], self.plane_discard[side]

    def _shuffle(self, cards: list[str], deck: str) -> None:
        before = len(self.dice.rolls)
        count = self.dice.count
        self.dice.shuffle(cards, f"shuffle {deck}")
        swaps = [r.to_json() for r in self.dice.rolls[before:]] if self.dice.record else []
        # The order and the swaps are secret: views drop "secret".
        self._log("shuffle", deck=deck, cards=len(cards), draws=self.dice.count - count,
                  secret={"dice": swaps, "order": list(cards)})  # fmt: skip

    def _draw(self, deck: str, n: int) -> list[str]:
        """Draw ``n`` from the top (index 0). 003 "THE DECKS": "If any deck ever
        runs out, shuffle its discard and draw from it." With deck and discard
        both empty, the draw stops short (rulings: "exhausted decks")."""
        pile, discard = self._piles(deck)
        drawn: list[str] = []
        for _ in range(n):
            if not pile:
                if not discard:
                    self._log("deck_exhausted", deck=deck, wanted=n, drawn=len(drawn))
                    break
                pile.extend(discard)
                discard.clear()
                self._log("reshuffle", deck=deck, cards=len(pile))
                self._shuffle(pile, deck)
            drawn.append(pile.pop(0))
        return drawn

    def _draw_events(self, side: str, n: int, reason: str) -> None:
        cards = self._draw("event", n)
        self.hands[side].extend(cards)
        self._log("draw_events", who=side, reason=reason, count=len(cards), private_to=side,
                  private={"cards": cards, "names": [self.card_name(c) for c in cards]})  # fmt: skip

    def _put_planes_in_play(self, side: str, n: int, reason: str) -> list[str]:
        ids = []
        for card in self._draw(f"plane:{side}", n):
            pid = f"{side}-{self.next_plane[side]}"
            self.next_plane[side] += 1
            self.planes[pid] = {
                "id": pid,
                "card": card,
                "side": side,
                "xm": 0,
                "kills": 0,
                "since": self.turn,
            }
            ids.append(pid)
        self._log("planes_into_play", who=side, reason=reason,
                  planes=[{"id": p, "card": self.planes[p]["card"], "name": self.plane_spec(p).name} for p in ids])  # fmt: skip
        return ids

    def _put_missions_in_play(self, n: int, reason: str) -> None:
        # 003 "BRIEFING PHASE": leave bombing missions in play; discard each
        # espionage mission and draw 2 event cards for it.
        for card in self._draw("mission", n):
            spec = self.mission_spec(card)
            if spec.kind == ESPIONAGE:
                self.mission_discard.append(card)
                self._log("espionage", mission=card, name=spec.name, reason=reason)
                self._draw_events(self.active, ESPIONAGE_DRAW, f"espionage {card}")
            else:
                self.missions_in_play.append(card)
                self._log("mission_into_play", mission=card, name=spec.name, kind=spec.kind,
                          level=spec.level, reason=reason)  # fmt: skip

    # -- whose move ----------------------------------------------------------------
    def current_side(self) -> str | None:
        if self.phase == OVER or self.step == AWAITING_RESULT:
            return None
        if self.pending is not None:
            return self.pending["side"]
        return self.priority

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> dict[str, Any] | None:
        if self.phase != OVER:
            return None
        return {"winner": self.winner, "reason": self.end_reason, "turn": self.turn,
                "pp": dict(self.pp), "st": dict(self.st)}  # fmt: skip

    # -- legal actions ----------------------------------------------------------------
    def _candidates(self, side: str) -> Iterable[Action]:
        yield Advance(side)
        if self.pending is not None:
            for pid in self.planes:
                yield GiveExperience(side, pid)
            return
        if self.step == LOSSES:
            for pid in self.losses_candidates(side):
                yield ChooseLoss(side, pid)
            return
        if self.phase == DEBRIEFING:
            for card in self.hands[side]:
                yield Discard(side, card)
        if self.step == ASSIGN:
            missions = [m for m in self.missions_in_play if self.mission_spec(m).kind != ESPIONAGE]
            for pid, plane in self.planes.items():
                if plane["side"] != side:
                    continue
                if pid in self.assignments:
                    yield Unassign(side, pid)
                else:
                    for m in missions:
                        yield Assign(side, pid, m)
        if self.step == SCRAMBLE:
            for pid, plane in self.planes.items():
                if plane["side"] == side:
                    yield ScrambleFighter(side, pid)
        targets = [""]
        if self.step in WINDOWS:
            mission = self.current_mission
            targets += self.attackers_on(mission) + self.defenders_on(mission)
            for m in self.flight_queue[self.mission_index :]:
                targets.append(m)
                if m != mission:
                    targets += self.attackers_on(m)
        seen: set[str] = set()
        for card in self.hands[side]:
            name = self.card_name(card)
            if name in seen:  # identical cards give identical actions
                continue
            seen.add(name)
            rule = EVENT_RULES[name]
            options = ("af", "gf") if rule.force == "af_or_gf" else ("",)
            for target in targets if rule.target else ("",):
                for option in options:
                    yield PlayEvent(side, card, target, option)

    def legal_actions(self) -> list[Action]:
        side = self.current_side()
        if side is None:
            return []
        # The candidates are the current side's, so only the per-action checks run.
        actions = [a for a in self._candidates(side) if _CHECKS[type(a)](self, a) is None]
        actions.sort(key=action_sort_key)
        return actions

    def losses_candidates(self, side: str) -> list[str]:
        if self.step != LOSSES:
            return []
        mission = self.current_mission
        on = self.attackers_on(mission) if side == self.active else self.defenders_on(mission)
        chosen = self.losses_chosen.get(side, [])
        return [p for p in on if p not in chosen]

    # -- checking ----------------------------------------------------------------------
    def check(self, action: Action) -> RuleError | None:
        """Why ``action`` is illegal now (a :class:`RuleError`), or None."""
        if self.phase == OVER:
            return RuleError("game-over", "the game is over")
        if isinstance(action, SetEngagementMode):
            return self._check_mode(action)
        if isinstance(action, EnterResult):
            return self._check_result(action)
        side = action.side
        if side not in SIDES:
            return RuleError("no-such-side", f"{side!r} is not a side")
        if self.step == AWAITING_RESULT:
            return RuleError("engagement-pending", "the engagement result has not been entered yet")
        if side != self.current_side():
            return RuleError(
                "not-your-side", f"{side} cannot act now: {self.current_side()} holds priority"
            )
        handler = _CHECKS[type(action)]
        return handler(self, action)

    def _check_mode(self, a: SetEngagementMode) -> RuleError | None:
        if a.mode not in RESOLVERS:
            return RuleError(
                "engagement-mode", f"no resolver registered for engagement mode {a.mode!r}"
            )
        if a.mission not in self.missions_in_play:
            return RuleError("no-such-mission", f"{a.mission} is not a mission in play")
        if a.mission == self.current_mission and self.step not in (SCRAMBLE, INTERCEPTION):
            return RuleError(
                "engagement-mode", f"the engagement of {a.mission} is already resolved"
            )
        if a.mission in self.flight_queue[: self.mission_index]:
            return RuleError(
                "engagement-mode", f"the engagement of {a.mission} is already resolved"
            )
        return None

    def _check_result(self, a: EnterResult) -> RuleError | None:
        if self.step != AWAITING_RESULT:
            return RuleError("engagement-pending", "no engagement is waiting for a result")
        try:
            result = EngagementResult.from_json(json.loads(a.result))
        except (ValueError, KeyError, TypeError) as exc:
            return RuleError("engagement-result", f"not an engagement result: {exc}")
        return self._result_error(result)

    def _result_error(self, result: EngagementResult) -> RuleError | None:
        m = self.current_mission
        if result.mission_id != m:
            return RuleError("engagement-result", f"result is for {result.mission_id}, not {m}")
        attackers, defenders = self.attackers_on(m), self.defenders_on(m)
        on = {*attackers, *defenders}
        for pid in (*result.losses, *result.retreats):
            if pid not in on:
                return RuleError("engagement-result", f"{pid} is not a plane on mission {m}")
        for kill in result.kills:
            if kill.victim_id not in result.losses or kill.shooter_id not in (*on, FLAK):
                return RuleError(
                    "engagement-result",
                    f"kill {kill.shooter_id}->{kill.victim_id} is not on mission {m}",
                )
        for side, shooters in result.pending_hits:
            if side not in SIDES:
                return RuleError("engagement-result", f"{side!r} is not a side")
            if len(shooters) > len(attackers if side == self.active else defenders):
                return RuleError(
                    "engagement-result", f"more hits than planes of {side} on the mission"
                )
        return None

    def _check_advance(self, a: Advance) -> RuleError | None:
        if self.step == INTERCEPTION and self.passes == 1:  # this pass rolls the interception
            mode = self.mode_overrides.get(self.current_mission, self.setup.engagement_mode)
            if mode not in RESOLVERS:
                return RuleError(
                    "engagement-mode", f"no resolver registered for engagement mode {mode!r}"
                )
        if self.pending is not None:
            return RuleError(
                "pilot-training", "choose the planes Pilot Training gives experience to"
            )
        if self.phase == DEBRIEFING and len(self.hands[a.side]) > self.setup.hand_limit:
            return RuleError(
                "hand-limit",
                f"003 DEBRIEFING PHASE: max hand size is {self.setup.hand_limit}; discard first",
            )
        if self.step == ASSIGN:
            for m in self.missions_in_play:
                err = self._strength_error(m, [p for p, mm in self.assignments.items() if mm == m])
                if err:
                    return err
        return None

    def _strength_error(self, mission: str, planes: list[str]) -> RuleError | None:
        """003 "MISSION PHASE": an SBM needs one plane with SF per level, a GSM
        one plane with GF per level (only for missions that have planes)."""
        if not planes:
            return None
        spec = self.mission_spec(mission)
        force = "sf" if spec.kind == STRATEGIC else "gf"
        able = sum(1 for p in planes if getattr(self.plane_spec(p), force) is not None)
        if able < spec.level:
            kind = "strategic bombing" if spec.kind == STRATEGIC else "ground support"
            return RuleError("mission-strength",
                             f"003 MISSION PHASE: {spec.name} (level {spec.level} {kind}) needs "
                             f"{spec.level} plane(s) with {force.upper()}, has {able}")  # fmt: skip
        return None

    def _check_assign(self, a: Assign) -> RuleError | None:
        if self.phase != MISSION or self.step != ASSIGN:
            return RuleError("wrong-phase", "planes are assigned to missions in the Mission phase")
        if self.turns_taken[a.side] == 0:
            return RuleError(
                "first-turn", "003 SETUP: players cannot go on missions on their first turn"
            )
        plane = self.planes.get(a.plane)
        if plane is None or plane["side"] != a.side:
            return RuleError("not-your-plane", f"{a.plane} is not a plane of {a.side} in play")
        if a.plane in self.grounded:
            return RuleError(
                "navigation-error", f"{a.plane} cannot go on a mission this turn (Navigation Error)"
            )
        if a.plane in self.assignments:
            return RuleError(
                "one-mission-per-turn",
                f"003 MISSION PHASE: {a.plane} already flies a mission this turn",
            )
        if a.mission not in self.missions_in_play or self.mission_spec(a.mission).kind == ESPIONAGE:
            return RuleError("no-such-mission", f"{a.mission} is not a mission in play")
        return None

    def _check_unassign(self, a: Unassign) -> RuleError | None:
        if self.phase != MISSION or self.step != ASSIGN:
            return RuleError("wrong-phase", "assignments change only before the missions launch")
        if a.plane not in self.assignments:
            return RuleError("not-assigned", f"{a.plane} is not assigned to a mission")
        return None

    def _check_scramble(self, a: ScrambleFighter) -> RuleError | None:
        if self.step != SCRAMBLE:
            return RuleError(
                "wrong-phase", "003 SCRAMBLE SEGMENT: fighters scramble in the scramble segment"
            )
        if a.side != self.defender:
            return RuleError(
                "not-defender", "003 SCRAMBLE SEGMENT: only the defending player scrambles"
            )
        plane = self.planes.get(a.plane)
        if plane is None or plane["side"] != a.side:
            return RuleError("not-your-plane", f"{a.plane} is not a plane of {a.side} in play")
        if not self.plane_spec(a.plane).is_fighter:
            return RuleError(
                "not-a-fighter", f"003 SCRAMBLE SEGMENT: {a.plane} is not a fighter (F or FB)"
            )
        if a.plane in self.scrambled:
            return RuleError("one-interception-per-turn",
                             f"003 SCRAMBLE SEGMENT: {a.plane} already intercepts a mission this turn")  # fmt: skip
        return None

    def _check_loss(self, a: ChooseLoss) -> RuleError | None:
        if self.step != LOSSES:
            return RuleError("wrong-phase", "losses are chosen after the interception rolls")
        if len(self.losses_chosen.get(a.side, [])) >= len(self.losses_todo.get(a.side, [])):
            return RuleError("loss-choice", f"{a.side} has no more losses to choose")
        if a.plane not in self.losses_candidates(a.side):
            return RuleError(
                "loss-choice",
                f"003 INTERCEPTION SEGMENT: {a.plane} is not a plane of {a.side} on this mission",
            )
        return None

    def _check_train(self, a: GiveExperience) -> RuleError | None:
        if self.pending is None:
            return RuleError("pilot-training", "no Pilot Training is being resolved")
        plane = self.planes.get(a.plane)
        if plane is None or plane["side"] != a.side:
            return RuleError("event-target", f"{a.plane} is not a plane of {a.side} in play")
        if a.plane in self.pending["chosen"]:
            return RuleError(
                "event-target",
                f"Pilot Training gives 3 different planes 1 XP each; {a.plane} has it",
            )
        return None

    def _check_discard(self, a: Discard) -> RuleError | None:
        if self.phase != DEBRIEFING:
            return RuleError(
                "wrong-phase", "003 DEBRIEFING PHASE: excess cards are discarded in debriefing"
            )
        if a.card not in self.hands[a.side]:
            return RuleError("not-in-hand", f"{a.card} is not in the hand of {a.side}")
        if len(self.hands[a.side]) <= self.setup.hand_limit:
            return RuleError(
                "hand-limit",
                f"003 DEBRIEFING PHASE: the hand is within {self.setup.hand_limit} cards",
            )
        return None

    def _check_play(self, a: PlayEvent) -> RuleError | None:
        if a.card not in self.hands[a.side]:
            return RuleError("not-in-hand", f"{a.card} is not in the hand of {a.side}")
        name = self.card_name(a.card)
        rule = EVENT_RULES[name]
        if self.pending is not None or self.step == LOSSES:
            return RuleError(
                "event-timing", f"{name} cannot be played while a choice is being made"
            )
        in_window = self.step in WINDOWS
        if rule.player == "own_turn":
            if a.side != self.active or in_window:
                return RuleError(
                    "event-timing",
                    f"{name} is played in a phase of your own turn, not during a mission",
                )
            if a.target or a.option:
                return RuleError("event-target", f"{name} takes no target")
            if rule.effect == "draw_mission" and PHASES.index(self.phase) > PHASES.index(MISSION):
                return RuleError("event-timing", f"{name} is played before the missions launch")
            if rule.effect == "draw_mission" and self.step not in ("", ASSIGN):
                return RuleError("event-timing", f"{name} is played before the missions launch")
            if rule.effect == "pilot_training" and not any(
                p["side"] == a.side for p in self.planes.values()
            ):
                return RuleError("event-target", "Pilot Training needs a plane of yours in play")
            return None
        if not in_window:
            return RuleError(
                "event-timing",
                f"{name} is played during a mission (scramble, interception or bombing)",
            )
        if rule.player == "attacker" and a.side != self.active:
            return RuleError("event-timing", f"{name} is played by the attacking side")
        if rule.player == "defender" and a.side != self.defender:
            return RuleError("event-timing", f"{name} is played by the defending side")
        mission = self.current_mission
        later = self.flight_queue[self.mission_index :]
        if rule.effect == "discard_mission":
            if self.step != SCRAMBLE:
                return RuleError(
                    "event-timing",
                    f"{name} is played in a scramble segment, before the interception",
                )
            if a.target not in later or a.option:
                return RuleError(
                    "event-target", f"{name}: target a mission that has not been flown yet"
                )
            return None
        if rule.effect == "ground_plane":
            if self.step != SCRAMBLE:
                return RuleError(
                    "event-timing",
                    f"{name} is played in a scramble segment, before the interception",
                )
            if self.flown.get(a.target) not in later or a.option:
                return RuleError(
                    "event-target",
                    f"{name}: target an attacking plane whose mission has not been flown",
                )
            return None
        if rule.effect == "extra_flak":
            if self.step == BOMBING:
                return RuleError("event-timing", f"{name} is played before the interception rolls")
            if a.target or a.option:
                return RuleError("event-target", f"{name} takes no target")
            return None
        # roll modifiers
        force = rule.force
        if force == "af_or_gf":
            if a.option not in ("af", "gf"):
                return RuleError("event-target", f"{name}: choose af or gf")
            force = a.option
        elif a.option:
            return RuleError("event-target", f"{name} has no option")
        if force == "af" and self.step == BOMBING:
            return RuleError(
                "event-timing",
                f"{name} changes air attack rolls: play it before the interception rolls",
            )
        if rule.scope != "target":
            if a.target:
                return RuleError("event-target", f"{name} takes no target")
            return None
        attackers = self.attackers_on(mission)
        on_mission = attackers + self.defenders_on(mission)
        if a.target not in on_mission:
            return RuleError("event-target", f"{name}: target a plane on the current mission")
        owner = self.planes[a.target]["side"]
        if rule.target == "own_plane" and owner != a.side:
            return RuleError("event-target", f"{name}: target one of your own planes")
        if rule.target == "enemy_plane" and owner == a.side:
            return RuleError("event-target", f"{name}: target an enemy plane")
        spec = self.plane_spec(a.target)
        flt = rule.target_filter
        if (
            (flt == "fighter" and not spec.is_fighter)
            or (flt == "bomber" and not spec.is_bomber)
            or (flt == "non_heavy_bomber" and (not spec.is_bomber or spec.is_heavy))
        ):
            return RuleError("event-target", f"{name}: {a.target} is not a {flt.replace('_', '-')}")
        if force in ("sf", "gf", "payload"):
            kind = self.mission_spec(mission).kind
            needed = "sf" if kind == STRATEGIC else "gf"
            if force == "payload":
                force = needed
            if a.target not in attackers or force != needed or getattr(spec, force) is None:
                return RuleError("event-target",
                                 f"{name}: {a.target} makes no {force.upper()} roll on this mission")  # fmt: skip
        return None

    # -- applying ----------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply a legal action; raise :class:`RuleError` naming the rule otherwise."""
        err = self.check(action)
        if err is not None:
            raise err
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        _APPLY[type(action)](self, action)

    def _do_advance(self, a: Advance) -> None:
        if self.step == LOSSES:
            self._default_losses(a.side)
            return
        if self.step in WINDOWS:
            self.passes += 1
            self._log("pass", who=a.side)
            if self.passes >= 2:
                self._close_window()
            else:
                self.priority = other(a.side)
            return
        if self.phase == MISSION:  # assign step
            self._launch()
            return
        if self.phase == DEBRIEFING:
            self._end_turn()
            return
        self._enter(PHASES[PHASES.index(self.phase) + 1])

    def _do_mode(self, a: SetEngagementMode) -> None:
        self.mode_overrides[a.mission] = a.mode
        self._log("engagement_mode", mission=a.mission, mode=a.mode)

    def _do_result(self, a: EnterResult) -> None:
        self.submit_engagement_result(EngagementResult.from_json(json.loads(a.result)))

    def _do_assign(self, a: Assign) -> None:
        self.assignments[a.plane] = a.mission
        self._log("assign", plane=a.plane, mission=a.mission)

    def _do_unassign(self, a: Unassign) -> None:
        mission = self.assignments.pop(a.plane)
        self._log("unassign", plane=a.plane, mission=mission)

    def _do_scramble(self, a: ScrambleFighter) -> None:
        self.scrambled[a.plane] = self.current_mission
        self.passes = 0
        self._log("scramble", plane=a.plane, mission=self.current_mission)

    def _do_discard(self, a: Discard) -> None:
        self.hands[a.side].remove(a.card)
        self.event_discard.append(a.card)
        self._log(
            "discard", who=a.side, card=a.card, name=self.card_name(a.card), reason="hand limit"
        )

    def _do_train(self, a: GiveExperience) -> None:
        self.planes[a.plane]["xm"] += 1
        self.pending["chosen"].append(a.plane)
        self.pending["remaining"] -= 1
        self._log(
            "experience", plane=a.plane, xm=self.planes[a.plane]["xm"], reason="Pilot Training"
        )
        self._maybe_finish_training()

    def _maybe_finish_training(self) -> None:
        p = self.pending
        eligible = [
            x for x, pl in self.planes.items() if pl["side"] == p["side"] and x not in p["chosen"]
        ]
        if p["remaining"] <= 0 or not eligible:
            self.pending = None

    def _do_loss(self, a: ChooseLoss) -> None:
        self.losses_chosen.setdefault(a.side, []).append(a.plane)
        self._log("loss_chosen", who=a.side, plane=a.plane)
        self._after_loss_choice()

    def _default_losses(self, side: str) -> None:
        """Default loss policy when the owner does not choose (Advance): the
        planes with the fewest experience markers go first, ties in the
        order the planes joined the mission."""
        need = len(self.losses_todo[side]) - len(self.losses_chosen.get(side, []))
        pool = sorted(self.losses_candidates(side), key=lambda p: self.planes[p]["xm"])
        picked = pool[:need]
        self.losses_chosen.setdefault(side, []).extend(picked)
        self._log("loss_default", who=side, planes=picked)
        self._after_loss_choice()

    def _after_loss_choice(self) -> None:
        for side in (self.active, self.defender):
            if len(self.losses_chosen.get(side, [])) < len(self.losses_todo.get(side, [])):
                self.priority = side
                return
        result = EngagementResult.from_json(self.engagement)
        kills = []
        losses = []
        for side in (self.active, self.defender):
            for shooter, victim in zip(
                self.losses_todo.get(side, []), self.losses_chosen.get(side, []), strict=True
            ):
                kills.append(Kill(shooter, victim, CARD_CREDIT_RULE))
                losses.append(victim)
        self._finish_engagement(
            replace(result, losses=tuple(losses), kills=tuple(kills), pending_hits=())
        )

    def _do_play(self, a: PlayEvent) -> None:
        name = self.card_name(a.card)
        rule = EVENT_RULES[name]
        self.hands[a.side].remove(a.card)
        self.event_discard.append(a.card)
        self.passes = 0
        self._log(
            "play_event", who=a.side, card=a.card, name=name, target=a.target, option=a.option
        )
        effect = rule.effect
        if effect == "gain_pp":
            self.pp[a.side] += rule.amount
            self._log("pp", who=a.side, change=rule.amount, pp=self.pp[a.side], reason=name)
        elif effect == "draw_plane":
            self._put_planes_in_play(a.side, 1, name)
        elif effect == "draw_mission":
            self._put_missions_in_play(1, name)
        elif effect == "pilot_training":
            self.pending = {"kind": "pilot_training", "side": a.side, "card": a.card,
                            "remaining": rule.amount, "chosen": []}  # fmt: skip
            self._maybe_finish_training()
        elif effect == "extra_flak":
            self.extra_flak += rule.amount
        elif effect == "discard_mission":
            self.missions_in_play.remove(a.target)
            self.mission_discard.append(a.target)
            self._log("mission_discarded", mission=a.target, reason=name)
            self._scrub(a.target)
        elif effect == "ground_plane":
            mission = self.flown.pop(a.target)
            self.assignments.pop(a.target, None)
            self.grounded.append(a.target)
            planes = self.attackers_on(mission)
            if not planes or self._strength_error(mission, planes):
                self._log("mission_aborted", mission=mission, reason=f"{name}: under strength")
                self._scrub(mission)
        else:  # modifier
            force = a.option if rule.force == "af_or_gf" else rule.force
            self.mission_mods.append({"card": a.card, "name": name, "side": a.side, "force": force,
                                      "amount": rule.amount, "scope": rule.scope, "target": a.target})  # fmt: skip

    def _scrub(self, mission: str) -> None:
        """A mission that will not be flown: its attackers stay home (no
        mission, no experience), its interceptors are released."""
        for p in [p for p, m in self.flown.items() if m == mission]:
            del self.flown[p]
        for p in [p for p, m in self.scrambled.items() if m == mission]:
            del self.scrambled[p]
        current = self.current_mission
        self.flight_queue.remove(mission)
        if mission == current:
            self._next_mission(advance_index=False)

    # -- phases ------------------------------------------------------------------------
    def _enter(self, phase: str) -> None:
        self.phase = phase
        self.step = ""
        self.priority = self.active
        self.passes = 0
        side = self.active
        if phase == EVENT:  # 003 "EVENT PHASE"
            self._draw_events(side, EVENT_DRAW, "event phase")
        elif phase == INDUSTRY:  # 003 "INDUSTRY PHASE": "Gain 1 Production Point."
            self.pp[side] += 1
            self._log("pp", who=side, change=1, pp=self.pp[side], reason="industry")
        elif phase == PRODUCTION:  # 003 "PRODUCTION PHASE"
            n = production_draws(self.pp[side])
            self._put_planes_in_play(side, n, f"production ({self.pp[side]} PP)")
        elif phase == BRIEFING:  # 003 "BRIEFING PHASE"
            self._put_missions_in_play(BRIEFING_DRAW, "briefing")
        elif phase == MISSION:  # 003 "MISSION PHASE"
            self.step = ASSIGN
            if self.turns_taken[side] == 0:
                self._log("first_turn", note="003 SETUP: no missions on a player's first turn")
        elif phase == STRATEGY:
            self._strategy()
        elif phase == EXPERIENCE:
            self._experience()

    def _launch(self) -> None:
        self.flight_queue = [m for m in self.missions_in_play if m in self.assignments.values()]
        self.flown = dict(self.assignments)
        self._log("launch", missions={m: self.attackers_on(m) for m in self.flight_queue})
        self.mission_index = 0
        if self.flight_queue:
            self._start_mission()
        else:
            self._enter(STRATEGY)

    def _start_mission(self) -> None:
        self.step = SCRAMBLE
        self.priority = self.defender  # 003 "SCRAMBLE SEGMENT": the defending player
        self.passes = 0
        self.mission_mods = []
        self.extra_flak = 0
        self.engagement = None
        self.losses_todo = {}
        self.losses_chosen = {}
        self.retreated = []
        m = self.current_mission
        spec = self.mission_spec(m)
        self._log("mission_start", mission=m, name=spec.name, kind=spec.kind, level=spec.level,
                  attackers=self.attackers_on(m))  # fmt: skip

    def _next_mission(self, advance_index: bool = True) -> None:
        if advance_index:
            self.mission_index += 1
        if self.mission_index < len(self.flight_queue):
            self._start_mission()
        else:
            self.step = ""
            self.mission_mods = []
            self.extra_flak = 0
            self._enter(STRATEGY)

    def _close_window(self) -> None:
        if self.step == SCRAMBLE:
            self.step = INTERCEPTION
            self.priority = self.active
            self.passes = 0
        elif self.step == INTERCEPTION:
            self._resolve_interception()
        elif self.step == BOMBING:
            self._resolve_bombing()

    # -- modifiers --------------------------------------------------------------------
    def modifier(self, plane_id: str, force: str) -> int:
        """Everything added to a force roll of ``plane_id`` on the current
        mission: experience (003 "EXPERIENCE PHASE"), defending night fighter
        (+1 AF), and the event cards in play."""
        plane = self.planes[plane_id]
        spec = self.setup.plane_cards[plane["card"]]
        side = plane["side"]
        total = experience_bonus(plane["xm"])
        # 003 "INTERCEPTION SEGMENT": "Defending Night Fighters get AF +1."
        if force == "af" and spec.night_fighter and plane_id in self.scrambled:
            total += 1
        for m in self.mission_mods:
            f = m["force"]
            if not (f == force or f == "all" or (f == "payload" and force in ("sf", "gf"))):
                continue
            scope = m["scope"]
            if scope == "target":
                hit = plane_id == m["target"]
            elif scope == "own_fighters":
                hit = side == m["side"] and spec.is_fighter
            elif scope == "own_bombers":
                hit = side == m["side"] and spec.is_bomber
            elif scope == "own_heavy":
                hit = side == m["side"] and spec.is_heavy
            elif scope == "enemy_planes":
                hit = side != m["side"]
            elif scope == "enemy_fighters":
                hit = side != m["side"] and spec.is_fighter
            elif scope == "all_fighters":
                hit = spec.is_fighter
            else:  # all_planes
                hit = True
            if hit:
                total += m["amount"]
        return total

    def _combatant(self, pid: str) -> Combatant:
        spec = self.plane_spec(pid)
        plane = self.planes[pid]
        return Combatant(pid, plane["side"], spec.name, spec.card_type, spec.af, self.modifier(pid, "af"),
                         spec.night_fighter and pid in self.scrambled, plane["xm"])  # fmt: skip

    # -- interception ------------------------------------------------------------------
    def _resolve_interception(self) -> None:
        """003 "INTERCEPTION SEGMENT" through the one resolution step."""
        m = self.current_mission
        spec = self.mission_spec(m)
        engagement = Engagement(
            mission_id=m,
            mission_name=spec.name,
            mission_kind=spec.kind,
            mission_level=spec.level,
            attacker=self.active,
            defender=self.defender,
            attackers=tuple(self._combatant(p) for p in self.attackers_on(m)),
            defenders=tuple(self._combatant(p) for p in self.defenders_on(m)),
            flak_rolls=1 + self.extra_flak,
            flak_af=FLAK_AF,
        )
        mode = self.mode_overrides.get(m, self.setup.engagement_mode)
        resolver = RESOLVERS.get(mode)
        if resolver is None:  # refused by _check_advance before anything moved
            raise RuleError(
                "engagement-mode", f"no resolver registered for engagement mode {mode!r}"
            )
        self.step = AWAITING_RESULT
        self.priority = None
        self.engagement_input = engagement.to_json()
        self._log("engagement_start", mission=m, mode=mode, engagement=self.engagement_input)
        result = resolver(engagement, self.dice)
        if result is not None:
            self.submit_engagement_result(result)

    def correct(
        self, *, pp: Mapping[str, int] | None = None, st: Mapping[str, int] | None = None
    ) -> None:
        """An umpire's correction of the running totals, logged like any event.

        Not a player's action: the Django layer records it (with who and why)
        in the campaign's action record, so replays apply it in its place.
        """
        for name, values in (("pp", pp), ("st", st)):
            for side, value in (values or {}).items():
                if side not in SIDES or int(value) < 0:
                    raise RuleError("correction", f"{name} of {side!r} cannot be set to {value!r}")
                getattr(self, name)[side] = int(value)
        self._log("correction", pp=dict(pp or {}), st=dict(st or {}))

    def submit_engagement_result(self, result: EngagementResult) -> None:
        """Apply the result the game is waiting for. Players' programs should
        record it as the action ``EnterResult(json.dumps(result.to_json()))``
        so that ``replay`` sees it; this is what that action does."""
        if self.step != AWAITING_RESULT:
            raise RuleError("engagement-pending", "no engagement is waiting for a result")
        err = self._result_error(result)
        if err is not None:
            raise err
        m = self.current_mission
        self.engagement_input = None
        self.engagement = result.to_json()
        self._log("interception", mission=m, mode=result.mode, rolls=[r.to_json() for r in result.rolls],
                  flak_rolls=1 + self.extra_flak, dice=[list(d) for d in result.dice])  # fmt: skip
        if result.pending_hits:
            self.step = LOSSES
            self.losses_todo = {side: list(shooters) for side, shooters in result.pending_hits}
            self.losses_chosen = {side: [] for side in self.losses_todo}
            self._log("losses_to_choose", hits={s: len(v) for s, v in self.losses_todo.items()})
            self._after_loss_choice()
        else:
            self._finish_engagement(result)

    def _finish_engagement(self, result: EngagementResult) -> None:
        m = self.current_mission
        for kill in result.kills:
            record = {"turn": self.turn, "mission": m, "shooter": kill.shooter_id, "victim": kill.victim_id,
                      "credit_rule": kill.credit_rule}  # fmt: skip
            self.kills.append(record)
            if kill.shooter_id in self.planes:
                self.planes[kill.shooter_id]["kills"] += 1
            elif kill.shooter_id in self.lost:
                self.lost[kill.shooter_id]["kills"] += 1
        for pid in result.losses:
            plane = self.planes.pop(pid)
            self.plane_discard[plane["side"]].append(plane["card"])  # "shot down (discarded)"
            killer = next((k.shooter_id for k in result.kills if k.victim_id == pid), None)
            self.lost[pid] = {**plane, "turn": self.turn, "mission": m, "shot_down_by": killer}
        self.retreated = [p for p in result.retreats if p in self.planes]
        final = replace(result, pending_hits=())
        self.engagement = final.to_json()
        self.engagements.append({"turn": self.turn, **final.to_json()})
        self._log("engagement_result", mission=m, losses=list(result.losses),
                  kills=[k.to_json() for k in result.kills], retreats=list(result.retreats))  # fmt: skip
        self.step = BOMBING
        self.priority = self.active
        self.passes = 0
        if not self._bombers_for(m):
            self._resolve_bombing()

    def _bombers_for(self, mission: str) -> list[str]:
        force = "sf" if self.mission_spec(mission).kind == STRATEGIC else "gf"
        return [p for p in self.attackers_on(mission)
                if p not in self.retreated and getattr(self.plane_spec(p), force) is not None]  # fmt: skip

    # -- bombing -------------------------------------------------------------------------
    def _resolve_bombing(self) -> None:
        """003 "BOMBING SEGMENT" and "AIR SUPREMACY RULE"."""
        m = self.current_mission
        spec = self.mission_spec(m)
        force = "sf" if spec.kind == STRATEGIC else "gf"
        supremacy = not any(mm == m for mm in self.scrambled.values())
        rolls = []
        success = False
        for p in self._bombers_for(m):
            target = getattr(self.plane_spec(p), force)
            mod = self.modifier(p, force) + (1 if supremacy else 0)
            die = self._roll(f"bombing {p}")
            ok = die + mod >= target
            success = success or ok
            rolls.append({"plane": p, "die": die, "modifier": mod, "target": target, "success": ok})
        self.results.append(
            {"mission": m, "kind": spec.kind, "level": spec.level, "success": success}
        )
        self._log(
            "bombing", mission=m, force=force, air_supremacy=supremacy, rolls=rolls, success=success
        )
        self._next_mission()

    # -- strategy, experience, end of turn ----------------------------------------------
    def _strategy(self) -> None:
        """003 "STRATEGY PHASE"."""
        side, opp = self.active, self.defender
        gained = sum(r["level"] for r in self.results if r["success"] and r["kind"] == GROUND)
        bombed = sum(r["level"] for r in self.results if r["success"] and r["kind"] == STRATEGIC)
        self.st[side] += gained
        lost = min(bombed, self.pp[opp])
        self.pp[opp] -= lost
        self._log(
            "strategy", st_gained=gained, pp_destroyed=lost, st=dict(self.st), pp=dict(self.pp)
        )
        # 003 "VICTORY"
        if self.pp[opp] <= 0:
            self._end(side, "production")
        elif self.st[side] >= VICTORY_ST_MINIMUM and self.st[side] >= 2 * self.st[opp]:
            self._end(side, "strategy")

    def _experience(self) -> None:
        """003 "EXPERIENCE PHASE": each plane that flew a mission (and each
        fighter that intercepted one) this turn and survived gets 1 XM."""
        got = [p for p in (*self.flown, *self.scrambled) if p in self.planes]
        for p in got:
            self.planes[p]["xm"] += 1
        self._log("experience", planes={p: self.planes[p]["xm"] for p in got})

    def _end_turn(self) -> None:
        # 003 "DEBRIEFING PHASE": "Discard all Missions in Play."
        self.mission_discard.extend(self.missions_in_play)
        self._log("debriefing", discarded_missions=list(self.missions_in_play))
        for m in self.missions_in_play:
            self.mode_overrides.pop(m, None)
        self.missions_in_play = []
        self._clear_turn()
        self._record_history()
        self.turns_taken[self.active] += 1
        self.turn += 1
        self.active = self.defender
        self._enter(EVENT)

    def _clear_turn(self) -> None:
        self.assignments = {}
        self.grounded = []
        self.flight_queue = []
        self.mission_index = 0
        self.scrambled = {}
        self.flown = {}
        self.mission_mods = []
        self.extra_flak = 0
        self.engagement = None
        self.losses_todo = {}
        self.losses_chosen = {}
        self.retreated = []
        self.results = []

    def _record_history(self) -> None:
        self.history.append(
            {"turn": self.turn, "side": self.active, "pp": dict(self.pp), "st": dict(self.st)}
        )

    def _end(self, winner: str, reason: str) -> None:
        self.winner = winner
        self.end_reason = reason
        self._log("victory", winner=winner, reason=reason, pp=dict(self.pp), st=dict(self.st))
        self._record_history()
        self.phase = OVER
        self.step = ""
        self.priority = None
        self.pending = None

    # -- copies and JSON --------------------------------------------------------------
    def clone(self) -> GameState:
        """An independent copy (the append-only records share their entries,
        which are never changed once written)."""
        new = GameState.__new__(GameState)
        new.setup = self.setup
        new.dice = self.dice.clone()
        for name in _STATE_FIELDS:
            value = getattr(self, name)
            setattr(new, name, list(value) if name in _APPEND_ONLY else _copy(value))
        new._dice_buffer = []
        return new

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data (read-only: the log entries are
        shared with the state)."""
        data = {"setup": self.setup.to_json(), "dice": self.dice.to_json()}
        for name in _STATE_FIELDS:
            value = getattr(self, name)
            data[name] = list(value) if name in _APPEND_ONLY else _copy(value)
        return data

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], setup: GameSetup | None = None, *, copy: bool = True
    ) -> GameState:
        """Rebuild a state. ``copy=False`` adopts ``data``'s lists and dicts
        as they are: for data freshly parsed from JSON that nothing else holds."""
        setup = setup or GameSetup.from_json(data["setup"])
        d = data["dice"]
        if "script" in d:
            dice: Dice = ScriptedDice(d["script"])
            dice.position = int(d["position"])
            dice.count = int(d["count"])
        else:
            dice = Dice.from_json(d)
        state = cls(setup, dice)
        for name in _STATE_FIELDS:
            setattr(state, name, _copy(data[name]) if copy else data[name])
        return state


_CHECKS = {
    Advance: GameState._check_advance,
    Assign: GameState._check_assign,
    Unassign: GameState._check_unassign,
    ScrambleFighter: GameState._check_scramble,
    PlayEvent: GameState._check_play,
    ChooseLoss: GameState._check_loss,
    GiveExperience: GameState._check_train,
    Discard: GameState._check_discard,
}  # SetEngagementMode and EnterResult are checked before the side checks
_APPLY = {
    Advance: GameState._do_advance,
    Assign: GameState._do_assign,
    Unassign: GameState._do_unassign,
    ScrambleFighter: GameState._do_scramble,
    PlayEvent: GameState._do_play,
    ChooseLoss: GameState._do_loss,
    GiveExperience: GameState._do_train,
    Discard: GameState._do_discard,
    SetEngagementMode: GameState._do_mode,
    EnterResult: GameState._do_result,
}


def new_game(setup: GameSetup, dice: Dice, *, shuffle: bool = True) -> GameState:
    """003 "SETUP": shuffle the decks, 10 PP each, roll high on 1D10 for the
    first turn (ties re-rolled), and start that side's Event phase.

    ``shuffle=False`` keeps the decks in list order (tests and worked examples
    stack them); the roll-off still uses ``dice``.
    """
    state = GameState(setup, dice)
    state._log("setup", rules_version=RULES_VERSION, pp=dict(state.pp),
               decks={"plane": {s: len(state.plane_deck[s]) for s in SIDES},
                      "mission": len(state.mission_deck), "event": len(state.event_deck)})  # fmt: skip
    if shuffle:
        for side in SIDES:
            state._shuffle(state.plane_deck[side], f"plane:{side}")
        state._shuffle(state.mission_deck, "mission")
        state._shuffle(state.event_deck, "event")
    rolls = []
    while True:
        a = state._roll("first turn allied")
        b = state._roll("first turn axis")
        rolls.append({ALLIED: a, AXIS: b})
        if a != b:  # "Roll high on 1D10 to see who gets the first turn" (ties re-rolled)
            break
    first = ALLIED if a > b else AXIS
    state.first_roll = {"rolls": rolls, "first": first}
    state._log("first_turn_roll", rolls=rolls, first=first)
    state.active = first
    state.priority = first
    state.history.append({"turn": 0, "side": None, "pp": dict(state.pp), "st": dict(state.st)})
    state._enter(EVENT)
    return state


def replay(
    setup: GameSetup,
    seed: int,
    actions: Iterable[Action | Mapping[str, Any]],
    *,
    shuffle: bool = True,
) -> GameState:
    """Rebuild a game from its canonical record ``(setup, seed, actions)``."""
    state = new_game(setup, Dice(seed), shuffle=shuffle)
    for a in actions:
        state.apply(a if not isinstance(a, Mapping) else action_from_json(a))
    return state

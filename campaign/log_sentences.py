"""The card game's log in plain sentences (issue 15, "A campaign page people can read").

Every entry type the card game writes (``GameState._log`` in ``rules/cardgame/``) has
a sentence here: :data:`SENTENCES` maps each type to its builder, and a test reads the
types out of ``rules/cardgame`` so a new type without a sentence fails it. Sentences
name planes with their roster pilots (linked), missions by their card names, event
cards linked to their rules text on the page (``#event-<slug>``), and engagements
linked to their battle reports.

Hidden information stays hidden: the builders read the entry as the viewer's view
gave it (``rules.cardgame.visibility``), so the cards drawn into a hand are named only
to their owner.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from rules.cardgame.cards import EVENT_RULES, GROUND, STRATEGIC, experience_rank
from rules.citations import rule_words

KINDS = {GROUND: "ground support", STRATEGIC: "strategic bombing", "E": "espionage"}
MODES = {
    "card": "the card game's dice",
    "engine": "the tactical engine (a battle flown by the computer pilots)",
    "table": "a battle on the table",
    "web": "a battle flown in the browser",
}
FORCES = {"af": "AF", "sf": "SF", "gf": "GF", "payload": "payload", "all": "every force"}
# 003 "VICTORY": "There are 2 ways to win".
VICTORY_REASONS = {
    "production": "reducing the opponent to zero Production Points",
    "strategy": "holding twice the opponent's Strategy Tokens (minimum 5)",
}


@dataclass
class LogNames:
    """What the sentences name: planes (``id -> {"name", "pilot_id", "pilot"}``), missions
    (``id -> name``) and the battle reports of engagements (``(turn, mission) -> links``)."""

    planes: dict[str, dict[str, Any]] = field(default_factory=dict)
    missions: dict[str, str] = field(default_factory=dict)
    battles: dict[tuple[int | None, str], list[dict[str, str]]] = field(default_factory=dict)
    viewer: str | None = None

    def learn(self, log: Iterable[Mapping[str, Any]]) -> None:
        """Plane and mission names from the public log entries that put them in play."""
        for e in log:
            if e["type"] == "planes_into_play":
                for p in e["planes"]:
                    self.planes.setdefault(p["id"], {}).setdefault("name", p["name"])
            elif e["type"] in ("mission_into_play", "espionage", "mission_start"):
                self.missions.setdefault(e["mission"], e["name"])


def side_word(side: str | None) -> str:
    return {"allied": "Allied", "axis": "Axis"}.get(side or "", side or "the umpire")


def card_link(name: str) -> SafeString:
    """An event card's name, linked to its rules text on the page."""
    return format_html('<a class="card-link" href="#event-{}">{}</a>', slugify(name), name)


def plane(names: LogNames, pid: str) -> SafeString:
    """A plane by its card name and id, with its pilot (linked) when the roster has one."""
    info = names.planes.get(pid, {})
    label = format_html("{} <small>({})</small>", info.get("name", pid), pid)
    if info.get("pilot_id"):
        url = reverse("pilot", args=[info["pilot_id"]])
        return format_html('{}, flown by <a href="{}">{}</a>', label, url, info["pilot"])
    return label


def planes(names: LogNames, ids: Iterable[str]) -> SafeString:
    ids = list(ids)
    if not ids:
        return mark_safe("none")
    return format_html_join("; ", "{}", ((plane(names, p),) for p in ids))


def mission(names: LogNames, mid: str) -> SafeString:
    return format_html("<em>{}</em>", names.missions.get(mid, mid))


def battle_links(names: LogNames, e: Mapping[str, Any]) -> SafeString:
    links = names.battles.get((e.get("turn"), e.get("mission", "")), [])
    if not links:
        return mark_safe("")
    return format_html(
        " (report: {})",
        format_html_join(
            ", ", '<a href="{}">{}</a>', ((link["url"], link["label"]) for link in links)
        ),
    )


def _deck(deck: str) -> str:
    if deck.startswith("plane:"):
        return f"{deck.split(':', 1)[1]} plane deck"
    return f"{deck} deck"


def _reason(reason: str, names: LogNames) -> SafeString:
    """Why something happened: a phase, a production score, an espionage mission or a card."""
    if reason in EVENT_RULES:
        return format_html("the card {}", card_link(reason))
    if reason.startswith("espionage "):
        return format_html("the espionage mission {}", mission(names, reason.split(" ", 1)[1]))
    return format_html("{}", reason)


def _totals(label: str, values: Mapping[str, int]) -> str:
    return f"{label} " + ", ".join(f"{side} {n}" for side, n in values.items())


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _signed(amount: int) -> str:
    return f"+{amount}" if amount >= 0 else f"\u2212{-amount}"


def _roll(die: int, modifier: int, target: int, sources: Any = None) -> str:
    """ "5 +1 (Night Raid) −1 (Inclement Weather) against 7": each term of the
    modifier with its source, as the card game records them (older entries
    record only the sum: "5+1 against 7")."""
    terms = [(str(name), int(amount)) for name, amount in sources or ()]
    if not terms:
        mod = f"{modifier:+d}" if modifier else ""
        return f"{die}{mod} against {target}"
    if rest := modifier - sum(a for _, a in terms):  # a term not named: shown, not lost
        terms.append(("other", rest))
    named = " ".join(f"{_signed(a)} ({name})" for name, a in terms)
    return f"{die} {named} against {target}"


# -- the sentences, one per entry type ---------------------------------------------------
def _setup(e: Mapping[str, Any], n: LogNames) -> SafeString:
    decks = e.get("decks", {})
    plane_decks = ", ".join(f"{s} {c}" for s, c in decks.get("plane", {}).items())
    return format_html(
        "The campaign begins: {}; plane decks {}, mission deck {}, event deck {} cards.",
        _totals("Production Points", e.get("pp", {})),
        plane_decks,
        decks.get("mission", "?"),
        decks.get("event", "?"),
    )


def _shuffle(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html("The {} is shuffled ({}).", _deck(e["deck"]), _count(e["cards"], "card"))


def cite(section: str) -> SafeString:
    """The card game's rule behind a sentence, in small print after it: "rulebook 003,
    Setup" (issue 24 §7: a citation explains, it is not a code inside the sentence)."""
    return format_html('<small class="cite">({})</small>', rule_words("003", section))


def _first_turn_roll(e: Mapping[str, Any], n: LogNames) -> SafeString:
    rolls = "; then ".join(", ".join(f"{s} rolls {v}" for s, v in r.items()) for r in e["rolls"])
    return format_html(
        "Who goes first (the high roll on a d10): {}. {} takes the first turn. {}",
        rolls,
        side_word(e["first"]),
        cite("Setup"),
    )


def _draw_events(e: Mapping[str, Any], n: LogNames) -> SafeString:
    count = e["count"]
    what = f"{count} event card{'s' if count != 1 else ''}"
    if "names" in e:  # the owner's view only (rules.cardgame.visibility)
        cards = format_html_join(", ", "{}", ((card_link(c),) for c in e["names"]))
        return format_html(
            "{} draws {} ({}): {}.", side_word(e["who"]), what, _reason(e["reason"], n), cards
        )
    return format_html("{} draws {} ({}).", side_word(e["who"]), what, _reason(e["reason"], n))


def _pp(e: Mapping[str, Any], n: LogNames) -> SafeString:
    why = "the Industry phase" if e["reason"] == "industry" else _reason(e["reason"], n)
    return format_html(
        "{} gains {} Production Point{} ({}): now {} PP.",
        side_word(e["who"]),
        e["change"],
        "s" if e["change"] != 1 else "",
        why,
        e["pp"],
    )


def _planes_into_play(e: Mapping[str, Any], n: LogNames) -> SafeString:
    ids = [p["id"] for p in e["planes"]]
    if not ids:
        return format_html("{} puts no plane into play ({}).", side_word(e["who"]), e["reason"])
    return format_html(
        "{} puts {} plane{} into play ({}): {}.",
        side_word(e["who"]),
        len(ids),
        "s" if len(ids) != 1 else "",
        _reason(e["reason"], n),
        planes(n, ids),
    )


def _espionage(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "The espionage mission {} is drawn ({}) and discarded for 2 event cards.",
        mission(n, e["mission"]),
        _reason(e["reason"], n),
    )


def _mission_into_play(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "The mission {} ({}, level {}) comes into play ({}).",
        mission(n, e["mission"]),
        KINDS.get(e["kind"], e["kind"]),
        e["level"],
        _reason(e["reason"], n),
    )


def _first_turn(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "{}'s first turn: no missions may be flown. {}", side_word(e.get("side")), cite("Setup")
    )


def _launch(e: Mapping[str, Any], n: LogNames) -> SafeString:
    flights = e["missions"]
    if not flights:
        return format_html("{} flies no missions this turn.", side_word(e.get("side")))
    parts = format_html_join(
        "; ",
        "{} with {}",
        ((mission(n, m), planes(n, ids)) for m, ids in flights.items()),
    )
    return format_html("{} launches: {}.", side_word(e.get("side")), parts)


def _strategy(e: Mapping[str, Any], n: LogNames) -> SafeString:
    side = side_word(e.get("side"))
    if e["st_gained"] or e["pp_destroyed"]:
        done = format_html(
            "{} gains {} Strategy Token{} and destroys {} of the enemy's Production Points",
            side,
            e["st_gained"],
            "s" if e["st_gained"] != 1 else "",
            e["pp_destroyed"],
        )
    else:
        done = format_html("{} completed no mission", side)
    return format_html(
        "Strategy phase: {}. {}; {}.", done, _totals("ST", e["st"]), _totals("PP", e["pp"])
    )


def _experience(e: Mapping[str, Any], n: LogNames) -> SafeString:
    if "plane" in e:  # Pilot Training
        return format_html(
            "{}: {} gains 1 experience marker (now {}).",
            card_link(e.get("reason", "Pilot Training")),
            plane(n, e["plane"]),
            e["xm"],
        )
    got = e["planes"]
    if not got:
        return mark_safe("Experience phase: no plane flew a mission this turn.")
    return format_html(
        "Experience phase: each plane that flew gains 1 experience marker: {}.",
        format_html_join("; ", "{} (now {})", ((plane(n, p), xm) for p, xm in got.items())),
    )


def _debriefing(e: Mapping[str, Any], n: LogNames) -> SafeString:
    gone = e["discarded_missions"]
    if not gone:
        return mark_safe("Debriefing: the turn ends; no mission was left in play.")
    return format_html(
        "Debriefing: the turn ends and the missions in play are discarded: {}.",
        format_html_join(", ", "{}", ((mission(n, m),) for m in gone)),
    )


def _assign(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "{} assigns {} to {}.",
        side_word(e.get("side")),
        plane(n, e["plane"]),
        mission(n, e["mission"]),
    )


def _unassign(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "{} takes {} off {}.",
        side_word(e.get("side")),
        plane(n, e["plane"]),
        mission(n, e["mission"]),
    )


def _scramble(e: Mapping[str, Any], n: LogNames) -> SafeString:
    side = e["plane"].split("-", 1)[0]
    return format_html(
        "{} scrambles {} against {}.",
        side_word(side),
        plane(n, e["plane"]),
        mission(n, e["mission"]),
    )


def _engagement_mode(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "The umpire has the engagement over {} resolved by {}.",
        mission(n, e["mission"]),
        MODES.get(e["mode"], e["mode"]),
    )


def _pass(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html("{} passes ({} segment).", side_word(e["who"]), e.get("step", ""))


def _mission_start(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "Mission {} ({}, level {}) is flown by {}.",
        mission(n, e["mission"]),
        KINDS.get(e["kind"], e["kind"]),
        e["level"],
        planes(n, e["attackers"]),
    )


def _nobody_scrambled(e: Mapping[str, Any]) -> bool:
    """No fighter defends: an engine or browser engagement has no battle to fly,
    only the flak fires, with the card game's dice (campaign.engagements)."""
    engagement = e.get("engagement")
    return (
        e.get("mode") in ("engine", "web")
        and isinstance(engagement, Mapping)
        and "defenders" in engagement
        and not engagement["defenders"]
    )


def _engagement_start(e: Mapping[str, Any], n: LogNames) -> SafeString:
    if _nobody_scrambled(e):
        return format_html(
            "No fighter defends {}: there is no battle to fly, only the flak fires. {}",
            mission(n, e["mission"]),
            cite("Interception Segment"),
        )
    return format_html(
        "The interception over {} is resolved by {}{}.",
        mission(n, e["mission"]),
        MODES.get(e["mode"], e["mode"]),
        battle_links(n, e),
    )


def _interception(e: Mapping[str, Any], n: LogNames) -> SafeString:
    rolls = e.get("rolls", [])

    def shooter(r: Mapping[str, Any]) -> SafeString:
        if r["shooter_id"] == "flak":
            return mark_safe("flak")
        return plane(n, r["shooter_id"])

    flak = [d for d in e.get("dice", ()) if str(d[0]).startswith("flak")]
    if not rolls and flak and e.get("mode") == "card":  # nobody scrambled: the flak alone
        return format_html(
            "The flak over {} rolls {} with the card game's dice{}.",
            mission(n, e["mission"]),
            ", ".join(str(d[2]) for d in flak),
            battle_links(n, e),
        )
    if not rolls:  # a battle flown: its start said how; its losses follow (no repeat)
        return format_html(
            "The battle over {} is over{}.", mission(n, e["mission"]), battle_links(n, e)
        )
    hits: dict[str, list[bool]] = {}
    for r in rolls:
        hits.setdefault(r["side"], []).append(r["hit"])
    score = ", ".join(
        f"{s} {sum(h)} hit{'s' if sum(h) != 1 else ''} in {len(h)}" for s, h in hits.items()
    )
    detail = format_html_join(
        "; ",
        "{} rolls {}: {}",
        ((shooter(r), _roll(r["die"], r["modifier"], r["target"], r.get("modifiers")), "hit" if r["hit"] else "miss") for r in rolls),
    )  # fmt: skip
    return format_html(
        'Interception over {} (air attack rolls): {}{}. <span class="rolls">{}.</span> {}',
        mission(n, e["mission"]),
        score,
        battle_links(n, e),
        detail,
        cite("Interception Segment"),
    )


def _losses_to_choose(e: Mapping[str, Any], n: LogNames) -> SafeString:
    owed = format_html_join(
        " and ",
        "{} must choose {} plane{} shot down",
        ((side_word(s), k, "s" if k != 1 else "") for s, k in e["hits"].items()),
    )
    return format_html(
        "{} (a player determines which of his planes are shot down). {}",
        owed,
        cite("Interception Segment"),
    )


def _loss_chosen(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html("{} gives up {} as shot down.", side_word(e["who"]), plane(n, e["plane"]))


def _loss_default(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "{} left the choice to the game, which takes the least experienced: {}.",
        side_word(e["who"]),
        planes(n, e["planes"]),
    )


def _engagement_result(e: Mapping[str, Any], n: LogNames) -> SafeString:
    killers = {k["victim_id"]: k["shooter_id"] for k in e.get("kills", [])}

    def lost(pid: str) -> SafeString:
        by = killers.get(pid)
        if by and by != "flak":
            return format_html("{} shot down by {}", plane(n, pid), plane(n, by))
        if by == "flak":
            return format_html("{} shot down by flak", plane(n, pid))
        return format_html("{} shot down", plane(n, pid))

    losses = e.get("losses", [])
    parts = (
        format_html_join("; ", "{}", ((lost(p),) for p in losses))
        if losses
        else mark_safe("no plane shot down")
    )
    retreats = e.get("retreats", [])
    gone = format_html("; retreated: {}", planes(n, retreats)) if retreats else ""
    return format_html(
        "Over {}: {}{}{}.", mission(n, e["mission"]), parts, gone, battle_links(n, e)
    )


def _bombing(e: Mapping[str, Any], n: LogNames) -> SafeString:
    force = FORCES.get(e["force"], e["force"])
    result = "succeeds" if e["success"] else "fails"
    if not e["rolls"]:
        return format_html(
            "Bombing {}: no bomber is left to bomb; the mission {}.",
            mission(n, e["mission"]),
            result,
        )
    rolls = format_html_join(
        "; ",
        "{} rolls {}: {}",
        ((plane(n, r["plane"]), _roll(r["die"], r["modifier"], r["target"], r.get("modifiers")), "hit" if r["success"] else "miss") for r in e["rolls"]),
    )  # fmt: skip
    supremacy = " with air supremacy (+1, no defending fighters)" if e["air_supremacy"] else ""
    return format_html(
        "Bombing {} ({} rolls{}): the mission {}. {}.",
        mission(n, e["mission"]),
        force,
        supremacy,
        result,
        rolls,
    )


def _mission_discarded(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "The mission {} is discarded ({}).", mission(n, e["mission"]), _reason(e["reason"], n)
    )


def _mission_aborted(e: Mapping[str, Any], n: LogNames) -> SafeString:
    reason = e["reason"]
    card, _, why = reason.partition(": ")
    shown = format_html("{}: {}", card_link(card), why) if card in EVENT_RULES else reason
    return format_html("The mission {} is called off ({}).", mission(n, e["mission"]), shown)


def _play_event(e: Mapping[str, Any], n: LogNames) -> SafeString:
    target = e.get("target") or ""
    on = ""
    if target in n.missions:
        on = format_html(" on {}", mission(n, target))
    elif target:
        on = format_html(" on {}", plane(n, target))
    option = format_html(" ({})", FORCES.get(e["option"], e["option"])) if e.get("option") else ""
    return format_html("{} plays {}{}{}.", side_word(e["who"]), card_link(e["name"]), on, option)


def _discard(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "{} discards {} (over the hand limit). {}",
        side_word(e["who"]),
        card_link(e["name"]),
        cite("Debriefing phase"),
    )


def _reshuffle(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "The {} ran out: its {} discarded {} shuffled into a new deck.",
        _deck(e["deck"]),
        e["cards"],
        "card is" if e["cards"] == 1 else "cards are",
    )


def _deck_exhausted(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "The {} and its discard pile are empty: {} of {} cards drawn.",
        _deck(e["deck"]),
        e["drawn"],
        e["wanted"],
    )


def _correction(e: Mapping[str, Any], n: LogNames) -> SafeString:
    parts = [_totals(label, e[key]) for key, label in (("pp", "PP"), ("st", "ST")) if e.get(key)]
    return format_html(
        "The umpire corrects the running totals: {}.", "; ".join(parts) or "no change"
    )


def _pilot_experience(e: Mapping[str, Any], n: LogNames) -> SafeString:
    """The markers planes start with because of who flies them (campaign.pilot_experience)."""
    return format_html(
        "Pilots bring their experience to the planes they were given: {}.",
        format_html_join(
            "; ", "{} starts with {} XM ({})",
            ((plane(n, p), xm, experience_rank(int(xm))) for p, xm in e["planes"].items()),
        ),
    )  # fmt: skip


def _victory(e: Mapping[str, Any], n: LogNames) -> SafeString:
    return format_html(
        "{} wins the campaign by {}. {}; {}. {}",
        side_word(e["winner"]),
        VICTORY_REASONS.get(e["reason"], e["reason"]),
        _totals("ST", e["st"]),
        _totals("PP", e["pp"]),
        cite("Victory"),
    )


Builder = Callable[[Mapping[str, Any], LogNames], SafeString]

SENTENCES: dict[str, Builder] = {
    "setup": _setup,
    "shuffle": _shuffle,
    "first_turn_roll": _first_turn_roll,
    "draw_events": _draw_events,
    "pp": _pp,
    "planes_into_play": _planes_into_play,
    "espionage": _espionage,
    "mission_into_play": _mission_into_play,
    "first_turn": _first_turn,
    "launch": _launch,
    "strategy": _strategy,
    "experience": _experience,
    "debriefing": _debriefing,
    "assign": _assign,
    "unassign": _unassign,
    "scramble": _scramble,
    "engagement_mode": _engagement_mode,
    "pass": _pass,
    "mission_start": _mission_start,
    "engagement_start": _engagement_start,
    "interception": _interception,
    "losses_to_choose": _losses_to_choose,
    "loss_chosen": _loss_chosen,
    "loss_default": _loss_default,
    "engagement_result": _engagement_result,
    "bombing": _bombing,
    "mission_discarded": _mission_discarded,
    "mission_aborted": _mission_aborted,
    "play_event": _play_event,
    "discard": _discard,
    "reshuffle": _reshuffle,
    "deck_exhausted": _deck_exhausted,
    "correction": _correction,
    "pilot_experience": _pilot_experience,
    "victory": _victory,
}

# Book-keeping entries a reader can skip: shown smaller, left out of "what just happened".
MINOR = frozenset({"shuffle", "pass", "first_turn"})


def log_sentence(entry: Mapping[str, Any], names: LogNames) -> SafeString:
    """One log entry as a sentence (HTML, escaped). An entry of a type this module does not
    know (a newer rules version) is still shown, by its type, never as a raw dict."""
    builder = SENTENCES.get(entry["type"])
    if builder is None:
        return format_html(
            "{} ({}).", entry["type"].replace("_", " ").capitalize(), "no sentence yet"
        )
    return builder(entry, names)

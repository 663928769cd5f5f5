"""A pilot's career log in plain sentences.

Every kind of career entry (:class:`careers.models.PilotEventKind`) has a sentence
here: :data:`SENTENCES` maps each kind to its builder, and a test fails when a kind
has none. The builders read the entry's ``details`` (written by ``careers.services``
and ``campaign``) and keep what the product always shows: the rulebook section
behind a result ("001 XIX") and the dice (the survival roll's own words; the pages
list each die beside the sentence). Links: the victim pilot of a kill, a card-game
plane resolved to the pilot who flew it (``roster.campaign_hooks``: ``plane_crews``).

Nothing is lost: a detail key a builder does not read (written by a newer service,
or by hand in the admin) is still shown after the sentence, in words. Keys left out
on purpose are in :data:`_SHOWN_ELSEWHERE` (the page shows them in another column,
or they are ids the sentence links with).

The CSV/JSON exports keep the raw ``details``: machines read those.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from roster.campaign_hooks import current
from roster.models import PILOT_QUALITY_CHOICES, QUALITY_SCALES, QualityScale
from rules.citations import citation_words

from .models import PilotEvent, PilotEventKind
from .selectors import PLANE_ID, indefinite

# Shown by the page elsewhere (campaign column, dice column) or used for a link.
_SHOWN_ELSEWHERE = frozenset({"campaign", "rolls", "modifiers", "victim_pilot_id", "claim"})

_QUALITY = dict(PILOT_QUALITY_CHOICES)
_SCALE = {
    QualityScale.CARD_GAME: "the card game's experience rules",
    QualityScale.AIR_FORCE: "the Air Force rules",
    QualityScale.AIR_PIRATES: "the Air Pirates rules",
    "angels20": "the Angels 20 rules",
}
_MODES = {
    "table": "table battle",
    "engine": "battle flown by the computer pilots",
    "web": "battle flown in the browser",
    "card": "card-game engagement",
}
_OUTCOMES = {
    "returned": "returned safely",
    "wounded": "wounded",
    "seriously_wounded": "seriously wounded",
    "captured": "captured",
    "killed": "killed",
    "missing": "missing",
}
_STATUS_WORDS = {
    "active": "on duty",
    "wounded": "wounded",
    "captured": "captured",
    "killed": "killed",
    "missing": "missing",
    "retired": "retired",
}
# "001 XIX: last aircraft to fire" -> ("001 XIX", "last aircraft to fire")
_CITATION = re.compile(r"(?P<cite>\d{3}(?: [\w.]+)?)\s*:\s*(?P<words>.+)")
# "000 'RESOLVING ATTACKS'": a section heading alone
_HEADING = re.compile(r"(?P<book>\d{3}) '(?P<section>[^']+)'")
_CREDIT_WORDS = {
    "organiser": "credited by the organiser",
    "before the roster": "credited before joining the roster",
    "engine:last-attack": "credited by the battle's own result (the last attack on the aircraft)",
    "card:roll-order": "credited in the card game's roll order (the n-th plane lost goes to the "
    "n-th successful shooter; rulebook 003, Interception)",
}
# the rulebooks by file number: a page names the game, the citation is its tooltip
_BOOKS = {"000": "Angels 20", "001": "Air Force", "002": "Air Pirates", "003": "card game"}
# a rule's own words as a sentence about a pilot says them
_RULE_PHRASES = {"last aircraft to fire": "the last pilot to fire"}


class _Details:
    """The entry's details, remembering which keys the sentence used."""

    def __init__(self, details: Mapping[str, Any] | None) -> None:
        self.data: Mapping[str, Any] = details if isinstance(details, Mapping) else {}
        self.read: set[str] = set(_SHOWN_ELSEWHERE)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        value = self.data.get(key, default)
        return default if value in ("", None) else value

    def has(self, key: str) -> bool:
        return self.get(key) is not None

    def unread(self) -> list[tuple[str, Any]]:
        return [
            (k, v)
            for k, v in self.data.items()
            if k not in self.read and v not in ("", None, [], {})
        ]


class _Entry:
    """What a builder reads: the details, the entry's dice and the names resolved."""

    def __init__(self, event: PilotEvent, crews: Mapping[tuple[Any, str], dict[str, Any]]) -> None:
        self.event = event
        self.d = _Details(event.details)
        self.dice = list(event.dice or [])
        self._crews = crews

    def crew(self, plane: str) -> dict[str, Any]:
        """Who flew a card-game plane of this entry's campaign, if resolved."""
        return self._crews.get((_campaign_ref(self.event), plane), {})


def _campaign_ref(event: PilotEvent) -> Any:
    return event.campaign_id or (event.details or {}).get("campaign")


# -- words ------------------------------------------------------------------


def _plural(n: Any, noun: str, plural: str | None = None) -> str:
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def _quality(value: Any) -> str:
    return _QUALITY.get(str(value), str(value)).lower()


def _sentence(text: str | SafeString) -> SafeString:
    """Capitalised, ending with a full stop (escaped unless already safe)."""
    text = text if isinstance(text, SafeString) else format_html("{}", text)
    text = text.strip()
    if not text:
        return mark_safe("")
    if text[0].islower():
        text = text[0].upper() + text[1:]
    if text[-1] not in ".!?":
        text += "."
    return mark_safe(text)


def _join(parts: Iterable[str]) -> str:
    items = [p for p in parts if p]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _pilot_link(name: str, pilot_id: Any) -> SafeString:
    if isinstance(pilot_id, int) and not isinstance(pilot_id, bool):
        return format_html('<a href="{}">{}</a>', reverse("pilot", args=[pilot_id]), name)
    return format_html("{}", name)


def _rules_of(cite: str) -> SafeString:
    """The game whose rulebook ``cite`` is, its section as a tooltip: "Air Force rules"
    (hover: "rulebook 001, XIX")."""
    book = cite.strip()[:3]
    name = _BOOKS.get(book)
    if name is None:
        return format_html("{}", citation_words(cite))
    return format_html('<span class="cite" title="{}">{} rules</span>', citation_words(cite), name)


def _citation(rule: str) -> SafeString:
    """A rule citation in words: "five missions completed (Air Force rules)"."""
    rule = rule.strip()
    if m := _CITATION.fullmatch(rule):
        words = _RULE_PHRASES.get(m["words"], m["words"])
        return format_html("{} ({})", words, _rules_of(m["cite"]))
    if _HEADING.fullmatch(rule):
        return format_html("{}", citation_words(rule))
    return format_html("{}", rule)


def credit_words(rule: str) -> SafeString:
    """A kill's credit rule in words: "credited to the last pilot to fire (Air Force
    rules)", the rulebook's section in the tooltip."""
    return _credit(rule)


def _credit(rule: str) -> SafeString:
    if rule in _CREDIT_WORDS:
        return format_html("{}", _CREDIT_WORDS[rule])
    if rule.startswith("engine:"):
        how = citation_words(rule.split(":", 1)[1])
        return format_html("credited by the battle's own result ({})", how)
    if m := _CITATION.fullmatch(rule.strip()):
        words = _RULE_PHRASES.get(m["words"], m["words"])
        the = "" if words.split(" ", 1)[0].lower() in ("the", "a", "an") else "the "
        return format_html("credited to {}{} ({})", the, words, _rules_of(m["cite"]))
    if m := _HEADING.fullmatch(rule.strip()):
        return format_html("credited under the {}", _rules_of(rule))
    return format_html("credited: {}", rule)


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{str(k).replace('_', ' ')} {_value_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value_words(v) for v in value)
    return str(value)


def _rest(d: _Details) -> SafeString:
    """The keys the sentence did not use, in words: nothing recorded is lost."""
    rest = d.unread()
    if not rest:
        return mark_safe("")
    return format_html(
        ' <span class="entry-more">Also recorded: {}.</span>',
        format_html_join("; ", "{}: {}", ((k.replace("_", " "), _value_words(v)) for k, v in rest)),
    )


def _text_and_reason(e: _Entry) -> SafeString:
    """The free words of an entry (``text``, ``reason``) as sentences of their own."""
    parts = [_sentence(str(e.d.get(k))) for k in ("text", "reason") if e.d.has(k)]
    return format_html_join("", " {}", ((p,) for p in parts))


def _victim(e: _Entry) -> SafeString:
    """The aircraft shot down: "Sgt X's Spitfire" (linked), "a Spitfire", "plane axis-4"."""
    victim = str(e.d.get("victim", ""))
    aircraft = str(e.d.get("victim_aircraft", ""))
    pilot_id = e.d.get("victim_pilot_id")
    plane = ""
    if PLANE_ID.fullmatch(victim):
        crew = e.crew(victim)
        plane, victim, pilot_id = victim, crew.get("pilot") or "", crew.get("pilot_id")
        aircraft = crew.get("aircraft") or aircraft
    if victim:
        who = _pilot_link(victim, pilot_id)
        text = format_html("{}'s {}", who, aircraft) if aircraft else who
    else:
        text = format_html("{}", indefinite(aircraft) if aircraft else "an unidentified aircraft")
    return format_html("{} (plane {})", text, plane) if plane else text


def _flying(aircraft: Any) -> str:
    return f" in {indefinite(str(aircraft))}" if aircraft else ""


# -- one builder per kind -----------------------------------------------------


def _joined(e: _Entry) -> SafeString:
    d = e.d
    squadron, quality = d.get("squadron", "the squadron"), d.get("quality")
    as_what = f" as {indefinite(_quality(quality))} pilot" if quality else ""
    if d.get("replacement"):
        rules = (
            f" under {_SCALE.get(d.get('rule_set'), d.get('rule_set'))}"
            if d.has("rule_set")
            else ""
        )
        text = _sentence(
            f"joined {squadron} as a replacement{as_what.replace(' as ', ', ', 1)}{rules}"
        )
    elif d.get("added_by_organiser"):
        text = _sentence(f"enlisted by the organiser in {squadron}{as_what}")
    else:
        text = _sentence(f"joined {squadron}{as_what}")
    if d.has("characteristics"):
        text = format_html(
            "{} Characteristics rolled: {}", text, _sentence(str(d.get("characteristics")))
        )
    return text


def _mission(e: _Entry) -> SafeString:
    d = e.d
    n = d.get("missions", d.get("experience_markers"))
    what = f"flew mission {n}" if n is not None else "flew a mission"
    mode = d.get("mode")
    plane = d.get("plane")
    where = (
        f" ({_MODES.get(mode, mode)})" if mode else (f" (card-game plane {plane})" if plane else "")
    )
    if mode and plane:
        where = f" ({_MODES.get(mode, mode)}, plane {plane})"
    retreated = " and retreated" if d.get("retreated") else ""
    return _sentence(f"{what}{_flying(d.get('aircraft'))}{where}{retreated}")


def _battle(e: _Entry) -> SafeString:
    d = e.d
    mode = d.get("mode")
    where = f" ({_MODES.get(mode, mode)})" if mode else ""
    return _sentence(f"fought a battle{_flying(d.get('aircraft'))}{where}")


def _kill(e: _Entry) -> SafeString:
    d = e.d
    text = format_html("Shot down {}", _victim(e))
    if d.has("aircraft"):  # the aircraft he flew (the statistics count the kill under it)
        text = format_html(
            "Flying {}, shot down {}", indefinite(str(d.get("aircraft"))), _victim(e)
        )
    if d.has("plane"):  # the card game's plane he flew
        text = format_html("Flying plane {}, shot down {}", d.get("plane"), _victim(e))
    before = d.get("credit_rule") == "before the roster"  # the demo's kills before the roster
    if before:
        d.read.add(
            "text"
        )  # ("a kill claimed before the pilot joined the roster": no more than this)
        text = format_html("{} before joining the roster", text)
    if d.has("turn"):
        text = format_html("{} in game turn {}", text, d.get("turn"))
    if d.has("credit_rule") and not before:
        credit = _credit(str(d.get("credit_rule")))
        explanation = d.get("credit")
        if explanation and e.dice:  # a tie for the last shot, settled by the dice beside it
            credit = format_html(
                "{}, a tie settled by the dice: {}", credit, explanation.rstrip(".")
            )
        elif explanation:
            credit = format_html('<span title="{}">{}</span>', explanation, credit)
        text = format_html("{}; {}", text, credit)
    text = _sentence(text)
    if d.has("reason"):
        reason = str(d.get("reason"))
        text = format_html(
            "{} {}",
            text,
            _sentence(reason if reason.lower().startswith("confirmed") else f"confirmed: {reason}"),
        )
    if d.has("text") and not before:
        text = format_html("{} {}", text, _sentence(str(d.get("text"))))
    return text


def _ground_credit(e: _Entry) -> SafeString:
    n = e.d.get("targets", 1)
    return _sentence(f"credited with {_plural(n, 'ground target')} destroyed")


def _bombing_success(e: _Entry) -> SafeString:
    return _sentence(f"bombed the target successfully{_flying(e.d.get('aircraft'))}")


def _damaged(e: _Entry) -> SafeString:
    d = e.d
    hits = _join(
        [
            _plural(d.get("damage"), "point") + " of damage" if d.get("damage") else "",
            _plural(d.get("crew_hits"), "crew hit") if d.get("crew_hits") else "",
            _plural(d.get("cockpit_hits"), "cockpit hit") if d.get("cockpit_hits") else "",
            _plural(d.get("fires"), "fire") if d.get("fires") else "",
        ]
    )
    aircraft = d.get("aircraft")
    return _sentence(f"the {aircraft or 'aircraft'} took {hits or 'damage'}")


def _shot_down(e: _Entry) -> SafeString:
    d = e.d
    text = format_html("Shot down{}", _flying(d.get("aircraft")))
    if d.has("plane"):  # the card game's plane he flew
        text = format_html("{} in card-game plane {}", text, d.get("plane"))
    by = str(d.get("shot_down_by", ""))
    if by == "flak":
        text = format_html("{} by flak", text)
    elif PLANE_ID.fullmatch(by):
        crew = e.crew(by)
        who = _pilot_link(crew["pilot"], crew.get("pilot_id")) if crew.get("pilot") else ""
        text = format_html(
            "{} by {}", text, format_html("{} (plane {})", who, by) if who else f"plane {by}"
        )
    elif by:
        text = format_html("{} by {}", text, by)
    if d.has("airframe"):
        text = format_html("{}; airframe {} lost", text, d.get("airframe"))
    return format_html("{}{}", _sentence(text), _text_and_reason(e))


def _survival_roll(e: _Entry) -> SafeString:
    d = e.d
    rules = d.get("rule_set")
    where = d.get("territory")
    outcome = d.get("outcome")
    d.get("wounded_turns")  # said by the wounded entry that follows
    if d.has("explanation"):
        head, sep, rest = str(d.get("explanation")).partition(": ")
        if sep and "=" not in head:  # "Angels 20 pilot survival: d6=6-1 = 5 against 4+; ..."
            text = _sentence(f"survival roll ({head}): {rest}")
        else:
            text = _sentence(f"survival roll: {head}{sep}{rest}")
        d.read.update({"total", "target"})  # the explanation gives the roll
    else:  # an outcome the record brought (decided at the table, or by another program)
        if rules in _MODES:
            head = f"survival decided in the {_MODES[rules]}"
        else:
            head = f"survival roll ({_SCALE.get(rules, rules)})" if rules else "survival roll"
        roll = f", {d.get('total')} against {d.get('target')}+" if d.has("total") else ""
        over = f", over {where} territory" if where else ""
        fate = _OUTCOMES.get(outcome, outcome or "no result")
        text = _sentence(f"{head}{roll}{over}: {fate}")
    if d.get("victory_point_reduction"):
        text = format_html(
            "{} The aircraft's victory points are reduced by {} (rulebook 002, 13c2).",
            text,
            d.get("victory_point_reduction"),
        )
    if d.get("aircraft_lost") is False:
        text = format_html("{} The aircraft was not lost.", text)
    return format_html("{}{}", text, _text_and_reason(e))


def _wounded(e: _Entry) -> SafeString:
    d = e.d
    how = "seriously wounded" if d.get("severity") == "seriously_wounded" else "wounded"
    out = f": out for {_plural(d.get('turns_out'), 'campaign turn')}" if d.has("turns_out") else ""
    back = f", back on turn {d.get('returns_on_turn')}" if d.has("returns_on_turn") else ""
    return _sentence(f"{how}{out}{back}")


def _fate(words: str) -> Callable[[_Entry], SafeString]:
    def build(e: _Entry) -> SafeString:
        e.d.get("outcome")
        return format_html("{}{}", _sentence(words), _text_and_reason(e))

    return build


def _returned(e: _Entry) -> SafeString:
    d = e.d
    due = f" (due back on turn {d.get('was_due')})" if d.has("was_due") else ""
    if d.get("enrolment") == "released":
        return format_html(
            "{} Back on duty{}.", _sentence(str(d.get("text", "campaign ended"))), due
        )
    return format_html("{}{}", _sentence(f"returned to duty{due}"), _text_and_reason(e))


def _quality_changed(e: _Entry) -> SafeString:
    d = e.d
    old, new, scale = d.get("from"), d.get("to"), d.get("rule_set")
    order = QUALITY_SCALES.get(scale, tuple(_QUALITY))
    up = old in order and new in order and order.index(new) > order.index(old)
    verb = "promoted" if up else "quality lowered"
    counts = _join(
        [
            _plural(d.get("missions"), "mission") if d.has("missions") else "",
            _plural(d.get("air_kills"), "confirmed kill") if d.has("air_kills") else "",
            _plural(d.get("kill_credits"), "kill credit") if d.has("kill_credits") else "",
        ]
    )
    text = f"{verb} from {_quality(old)} to {_quality(new)}"
    if scale:
        text += f" under {_SCALE.get(scale, scale)}"
    if counts:
        text += f" ({counts})"
    return format_html("{}{}", _sentence(text), _text_and_reason(e))


def _transfer(e: _Entry) -> SafeString:
    d = e.d
    text = format_html(
        "{}{}",
        _sentence(f"transferred from {d.get('from', '?')} to {d.get('to', '?')}"),
        _text_and_reason(e),
    )
    if d.has("airframe_left"):
        text = format_html("{} His airframe {} stayed behind.", text, d.get("airframe_left"))
    return text


def _status_change(words: str) -> Callable[[_Entry], SafeString]:
    def build(e: _Entry) -> SafeString:
        d = e.d
        was = f" (was {_STATUS_WORDS.get(d.get('was'), d.get('was'))})" if d.has("was") else ""
        return format_html("{}{}", _sentence(f"{words}{was}"), _text_and_reason(e))

    return build


def _award(e: _Entry) -> SafeString:
    d = e.d
    award, kind, n = d.get("award", "an award"), d.get("threshold_kind"), d.get("threshold")
    why = ""
    if n is not None and kind in ("kills", "missions"):
        why = f" for {_plural(n, 'kill' if kind == 'kills' else 'mission')}"
    elif n is not None:
        why = f" for {n} {kind or ''}".rstrip()
    return format_html("{}{}", _sentence(f"awarded the {award}{why}"), _text_and_reason(e))


def _award_revoked(e: _Entry) -> SafeString:
    text = _sentence(f"the {e.d.get('award', 'award')} was taken back")
    return format_html("{}{}", text, _text_and_reason(e))


def _ace(e: _Entry) -> SafeString:
    n = e.d.get("confirmed_air_kills")
    return _sentence(
        "became an ace" + (f" with {_plural(n, 'confirmed kill')}" if n is not None else "")
    )


def _ace_lost(e: _Entry) -> SafeString:
    n = e.d.get("confirmed_air_kills")
    text = _sentence(
        "lost ace status" + (f": down to {_plural(n, 'confirmed kill')}" if n is not None else "")
    )
    return format_html("{}{}", text, _text_and_reason(e))


def _kill_denied(e: _Entry) -> SafeString:
    d = e.d
    was = d.get("was")
    if was == "confirmed":
        flew = d.get("aircraft")
        flying = format_html(" (flying {})", indefinite(str(flew))) if flew else ""
        text = format_html("The confirmed kill of {}{} was taken back", _victim(e), flying)
        if d.has("air_kills"):
            text = format_html("{}: {} now", text, _plural(d.get("air_kills"), "confirmed kill"))
    else:
        state = f" ({was})" if was else ""
        text = format_html("The claim on {}{} was denied", _victim(e), state)
    return format_html("{}{}", _sentence(text), _text_and_reason(e))


def _characteristic(e: _Entry) -> SafeString:
    d = e.d
    text = format_html("Gained the {} characteristic", d.get("characteristic", "?"))
    if d.has("rule"):
        text = format_html("{}: {}", text, _citation(str(d.get("rule"))))
    return format_html("{}{}", _sentence(text), _text_and_reason(e))


def _note(e: _Entry) -> SafeString:
    d = e.d
    d.get("enrolment")  # said by the text ("enrolled in campaign ...")
    d.get("assigned_by")  # the action that assigned a pilot to a plane: for its undo only
    note = str(d.get("text", "note"))
    if d.has("renamed_from"):  # issue 24: the old name kept in the log
        note = f"Renamed from {d.get('renamed_from')} to {d.get('renamed_to')}"
    if d.has("aircraft") or d.has("plane"):
        plane = f"plane {d.get('plane')}" if d.has("plane") else ""
        what = (
            f"{d.get('aircraft')} ({plane})"
            if d.has("aircraft") and plane
            else d.get("aircraft") or plane
        )
        note = f"{note.rstrip('.')}: {what}"
    text = _sentence(note)
    counts = _join(
        [
            f"missions {d.get('experience_markers'):+d}"
            if isinstance(d.get("experience_markers"), int)
            else "",
            f"kills {d.get('air_kills'):+d}" if isinstance(d.get("air_kills"), int) else "",
        ]
    )
    if counts:
        text = format_html("{} Counts changed: {}.", text, counts)
    if d.has("reason"):
        text = format_html("{} {}", text, _sentence(str(d.get("reason"))))
    return text


SENTENCES: dict[str, Callable[[_Entry], SafeString]] = {
    PilotEventKind.JOINED: _joined,
    PilotEventKind.MISSION: _mission,
    PilotEventKind.BATTLE: _battle,
    PilotEventKind.KILL: _kill,
    PilotEventKind.GROUND_CREDIT: _ground_credit,
    PilotEventKind.BOMBING_SUCCESS: _bombing_success,
    PilotEventKind.DAMAGED: _damaged,
    PilotEventKind.SHOT_DOWN: _shot_down,
    PilotEventKind.SURVIVAL_ROLL: _survival_roll,
    PilotEventKind.WOUNDED: _wounded,
    PilotEventKind.CAPTURED: _fate("captured by the enemy"),
    PilotEventKind.KILLED: _fate("killed in action"),
    PilotEventKind.MISSING: _fate("missing in action"),
    PilotEventKind.RETURNED: _returned,
    PilotEventKind.QUALITY: _quality_changed,
    PilotEventKind.TRANSFER: _transfer,
    PilotEventKind.RETIRED: _status_change("retired"),
    PilotEventKind.REVIVED: _status_change("brought back on duty by the organiser"),
    PilotEventKind.AWARD: _award,
    PilotEventKind.AWARD_REVOKED: _award_revoked,
    PilotEventKind.ACE: _ace,
    PilotEventKind.ACE_LOST: _ace_lost,
    PilotEventKind.KILL_DENIED: _kill_denied,
    PilotEventKind.CHARACTERISTIC: _characteristic,
    PilotEventKind.NOTE: _note,
}


def plane_crews_of(events: Iterable[PilotEvent]) -> dict[tuple[Any, str], dict[str, Any]]:
    """Who flew the card-game planes the entries name (victims, shooters): one
    query per campaign named, none when no entry names a plane."""
    wanted: dict[Any, set[str]] = {}
    for event in events:
        details = event.details if isinstance(event.details, Mapping) else {}
        for key in ("victim", "shot_down_by"):
            value = str(details.get(key) or "")
            if PLANE_ID.fullmatch(value):
                wanted.setdefault(_campaign_ref(event), set()).add(value)
    crews: dict[tuple[Any, str], dict[str, Any]] = {}
    resolve = current().plane_crews
    for ref, planes in wanted.items():
        crews.update({(ref, k): v for k, v in resolve(ref, planes).items()})
    return crews


def entry_sentence(
    event: PilotEvent, *, crews: Mapping[tuple[Any, str], dict[str, Any]] | None = None
) -> SafeString:
    """One career entry as a sentence (HTML, escaped), with the detail keys it does
    not know after it in words. ``crews`` (:func:`plane_crews_of`) names the pilots
    of card-game planes; without it a plane is named by its id."""
    entry = _Entry(event, crews or {})
    builder = SENTENCES.get(event.kind)
    if builder is None:  # a kind newer than this module: its label, and every detail
        label = dict(PilotEventKind.choices).get(event.kind, str(event.kind).replace("_", " "))
        text = _sentence(label)
    else:
        text = builder(entry)
    return format_html("{}{}", text, _rest(entry.d))


def outcome_sentence(summary: Mapping[str, Any]) -> SafeString:
    """What happened to one pilot of an applied result (an entry of
    ``AppliedResult.summary``, written by ``careers.services.engagement_apply``)
    as a sentence: "F/O Tony Bartley was shot down and captured." Keys it does
    not know follow in words, as for the career entries."""
    d = _Details(summary)
    pilot = str(d.get("pilot", "The pilot"))
    done = []
    if d.get("kills"):
        done.append(f"shot down {_plural(d.get('kills'), 'aircraft', 'aircraft')}")
    if d.get("damage"):
        done.append(f"took {_plural(d.get('damage'), 'hit')}")
    if d.get("retreated"):
        done.append("broke off and retreated")
    if d.get("shot_down"):
        outcome = d.get("outcome")
        fate = _OUTCOMES.get(str(outcome), str(outcome).replace("_", " ")) if outcome else ""
        turns = d.get("wounded_turns")
        if outcome in ("wounded", "seriously_wounded") and turns:
            fate += f" (out for {_plural(turns, 'turn')})"
        else:
            d.get("wounded_turns")  # none to tell: 0 for every other outcome
        done.append(f"was shot down and {fate}" if fate else "was shot down")
    text = f"{pilot}{_flying(d.get('aircraft'))} {_join(done) or 'flew and came back unharmed'}"
    return format_html("{}{}", _sentence(text), _rest(d))


def table_battle_outcomes(battle: Any) -> list[dict[str, Any]]:
    """Each pilot's outcome of a table battle's applied result, as a sentence
    (``{"pilot_id", "pilot", "sentence"}``); none before it is applied."""
    applied = battle.applied_result
    summary = (
        applied.summary if applied is not None and isinstance(applied.summary, Mapping) else {}
    )
    return [
        {"pilot_id": int(pid), "pilot": s.get("pilot", ""), "sentence": outcome_sentence(s)}
        for pid, s in summary.items()
        if str(pid).isdigit() and isinstance(s, Mapping)
    ]


def with_sentences(events: Iterable[PilotEvent]) -> list[PilotEvent]:
    """The entries, each with ``sentence`` set (kept if already set), the planes
    they name resolved once for all of them."""
    events = list(events)
    todo = [e for e in events if not hasattr(e, "sentence")]
    if todo:
        crews = plane_crews_of(todo)
        for event in todo:
            event.sentence = entry_sentence(event, crews=crews)  # type: ignore[attr-defined]
    return events

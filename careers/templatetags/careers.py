"""Small filters for career logs: entries as sentences, dice and details as readable text."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from careers import entry_sentences
from careers import quality_reason as quality_reasons
from careers.models import PilotEvent
from roster.models import QUALITY_SCALES

register = template.Library()

_HIDDEN = {"rolls", "modifiers", "victim_pilot_id", "campaign", "rule_set"}


@register.filter
def dice_text(dice: list[Any]) -> str:
    """``[[purpose, sides, value], ...]`` as ``purpose: d6=4; ...``."""
    return "; ".join(f"{d[0]}: d{d[1]}={d[2]}" for d in dice or [] if len(d) == 3)


@register.filter
def details_text(details: dict[str, Any]) -> str:
    if not details:
        return ""
    if details.get("explanation"):
        return str(details["explanation"])
    parts = []
    for key, value in details.items():
        if key in _HIDDEN or value in ("", None, [], {}):
            continue
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return ", ".join(parts)


@register.filter
def with_sentences(events: Any) -> list[PilotEvent]:
    """The career entries, each with ``.sentence`` (careers.entry_sentences), the
    card-game planes they name resolved once for the whole list."""
    return entry_sentences.with_sentences(events)


@register.filter
def entry_sentence(event: PilotEvent) -> SafeString:
    """One career entry as a sentence (its ``.sentence`` if the list was prepared)."""
    return getattr(event, "sentence", None) or entry_sentences.entry_sentence(event)


@register.filter
def credit_words(rule: str) -> SafeString:
    """A kill's credit rule in words, the rulebook in a tooltip: "credited to the last pilot to
    fire (Air Force rules)"."""
    return entry_sentences.credit_words(str(rule)) if rule else SafeString("")


_SCALE_WORDS = {"card_game": "card game", "air_force": "Air Force", "air_pirates": "Air Pirates"}


@register.filter
def quality_words(pilot: Any) -> str:
    """A pilot's quality with its scale, the same words on every page (issue 24):
    "Ace (card game scale)"."""
    scale = str(getattr(pilot, "quality_scale", "") or "")
    words = _SCALE_WORDS.get(scale, scale.replace("_", " "))
    return f"{pilot.get_quality_display()} ({words} scale)"


@register.filter
def quality_reason(pilot: Any) -> str:
    """What the quality rests on, for small print beside it (careers.quality_reason):
    "by experience markers, not kills: 4 XM (veteran at 5)"."""
    return quality_reasons.quality_reason(pilot)


@register.filter
def quality_ladder(pilot: Any) -> str:
    """The qualities of the pilot's scale, lowest first: "poor, average, veteran, ace"."""
    return ", ".join(QUALITY_SCALES.get(str(getattr(pilot, "quality_scale", "")), ()))

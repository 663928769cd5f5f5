"""Filters that put a campaign's stored codes in words on the lists (the campaign page
itself builds them in campaign.page): ``{{ c.phase|phase_words }}``, ``{{ c.current_side|side_words }}``."""

from __future__ import annotations

from django import template

from campaign.decisions import PHASE_NAMES
from campaign.log_sentences import side_word
from campaign.page import STEP_NAMES

register = template.Library()


@register.filter
def phase_words(phase: str) -> str:
    """ "mission:assign" -> "Mission (assigning planes)"; a code it does not know, as it is."""
    name, _, step = (phase or "").partition(":")
    words = PHASE_NAMES.get(name, name)
    return f"{words} ({STEP_NAMES.get(step, step)})" if step else words


@register.filter
def side_words(side: str | None) -> str:
    return side_word(side) if side else "—"

"""A rulebook citation in the words a page shows (issue 24 §7).

The code cites rules as ``003 'MISSION PHASE'`` (comments, :class:`angels.errors.RuleViolation`,
the battle log's ``000 "CLOUDS", "RANDOM CLOUD ARRANGEMENT"``); a page says "rulebook 003,
Mission phase" instead, in small print beside the sentence it explains, never as a bare
code inside the sentence.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"^(?P<book>\d{3})(?:\s+(?P<rest>.*))?$")
_QUOTED = re.compile(r"['\"]([^'\"]+)['\"]")
_ROMAN = re.compile(r"[IVXLC]+[0-9a-z]*")


def rule_words(book: str, section: str = "") -> str:
    """``("003", "Mission phase")`` -> "rulebook 003, Mission phase"; the book alone ->
    "rulebook 003"."""
    section = section.strip()
    return f"rulebook {book}, {section}" if section else f"rulebook {book}"


def _heading(section: str) -> str:
    """A heading printed in capitals as a phrase: "MISSION PHASE" -> "Mission phase"
    (a section number such as "XIX" or "13c2" as it is)."""
    section = section.strip()
    if section.isupper() and not _ROMAN.fullmatch(section):
        return section.capitalize()
    return section


def citation_words(citation: str) -> str:
    """A citation as the code writes it in words: ``003 'MISSION PHASE'`` -> "rulebook
    003, Mission phase"; ``001 XIX`` -> "rulebook 001, XIX"; ``000 "CLOUDS", "RANDOM
    CLOUD ARRANGEMENT"`` -> "rulebook 000, Clouds; Random cloud arrangement". Anything
    else comes back as given."""
    m = _CODE.match(citation.strip())
    if not m:
        return citation
    rest = m["rest"] or ""
    sections = _QUOTED.findall(rest) or ([rest] if rest else [])
    return rule_words(m["book"], "; ".join(_heading(s) for s in sections))

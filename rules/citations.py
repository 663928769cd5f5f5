"""A rulebook citation in the words a page shows (issue 24 §7).

The code cites rules as ``003 'MISSION PHASE'`` (comments, :class:`angels.errors.RuleViolation`);
a page says "rulebook 003, Mission phase" instead, in small print beside the sentence it
explains, never as a bare code inside the sentence.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"^(?P<book>\d{3})(?:\s+'?(?P<section>[^']*?)'?)?$")


def rule_words(book: str, section: str = "") -> str:
    """``("003", "Mission phase")`` -> "rulebook 003, Mission phase"; the book alone ->
    "rulebook 003"."""
    section = section.strip()
    return f"rulebook {book}, {section}" if section else f"rulebook {book}"


def citation_words(citation: str) -> str:
    """A citation as the code writes it (``003 'MISSION PHASE'``, ``001 XIX``) in words:
    "rulebook 003, Mission phase", "rulebook 001, XIX". Anything else comes back as given."""
    m = _CODE.match(citation.strip())
    if not m:
        return citation
    section = m["section"] or ""
    if section.isupper() and not re.fullmatch(r"[IVXLC]+[A-Z0-9]*", section):
        section = section.capitalize()  # a heading as printed, in capitals
    return rule_words(m["book"], section)

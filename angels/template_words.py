"""Template filters every page has without ``{% load %}`` (``TEMPLATES`` builtins).

``rule_words``: a rulebook citation as a page says it (issue 24 §7): ``000 'YEAR
RESTRICTIONS'`` -> "rulebook 000, Year restrictions", never the code.
"""

from __future__ import annotations

from typing import Any

from django import template

from rules.citations import citation_words

register = template.Library()


@register.filter
def rule_words(rule: Any) -> str:
    return citation_words(str(rule)) if rule else ""

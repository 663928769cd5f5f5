"""Whole numbers typed by hand (query parameters, form fields), ASCII digits only.

``str.isdigit()`` also accepts superscript and other Unicode digits that
``int()`` then refuses (``'²'``), so hand-parsed input goes through here.
"""

from __future__ import annotations

import re

from .errors import RuleViolation

DIGITS = re.compile(r"[0-9]{1,18}")
MAX_ID = 2**31 - 1  # the largest primary key / integer column value on every database
MAX_TURN = 10_000  # the largest campaign turn the product accepts


def digits(value: object) -> int | None:
    """``value`` as a whole number 0..MAX_ID if it is plain ASCII digits, else None."""
    if not isinstance(value, str) or not DIGITS.fullmatch(value):
        return None
    number = int(value)
    return number if number <= MAX_ID else None


def whole_number(value: object, *, field: str, low: int = 0, high: int = MAX_ID) -> int:
    """``value`` (text of ASCII digits) as an int in ``low..high``, or a RuleViolation."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]+", value):
        raise RuleViolation(f"{field} must be a whole number", field=field, code="format")
    if len(value) > 18 or not low <= int(value) <= high:
        raise RuleViolation(f"{field} must be between {low} and {high}", field=field, code="range")
    return int(value)

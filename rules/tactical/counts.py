"""The one value test the shape checks share: a whole number of 0 or more."""

from __future__ import annotations

from typing import Any


def is_count(value: Any) -> bool:
    """``value`` is a whole number of 0 or more (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0

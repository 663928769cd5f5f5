"""Hooks the apps above careers fill in, so careers never imports them.

``campaign`` sits above ``careers`` (``rules <- roster <- careers <- campaign``);
who organises a campaign is its business. Its ``AppConfig.ready()`` appends its
check to :data:`ORGANISER_CHECKS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (campaign, user) -> is this user an organiser of this campaign?
ORGANISER_CHECKS: list[Callable[[Any, Any], bool]] = []


def is_campaign_organiser(campaign: Any, user: Any) -> bool:
    """True if any registered check says the user organises the campaign."""
    return any(check(campaign, user) for check in ORGANISER_CHECKS)

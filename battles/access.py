"""Who may act on a battle that exists: resolve a draft, ask its odds, retry it.

Its creator (``Battle.requested_by``), staff, or anyone a registered check
admits: the campaign app answers "the organiser of the campaign the battle
was flown for" through ``roster.campaign_hooks`` (battles never imports campaign).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from angels.errors import RuleViolation
from roster.campaign_hooks import current

from .models import Battle


def may_manage(battle: Battle, user: Any) -> bool:
    """Creator, staff, or a registered check (a campaign battle's organiser)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or (battle.requested_by_id is not None and battle.requested_by_id == user.pk):
        return True
    return bool(current().battle_organised_by(battle, user))


def require_manager(battle: Battle, user: Any, *, what: str) -> None:
    """Refuse (403, code ``permission``) unless ``user`` may manage ``battle``."""
    if not may_manage(battle, user):
        raise RuleViolation(
            f"only the battle's creator, its campaign's organiser or staff may {what} it",
            code="permission",
        )


def require_batch_size(runs: Any, user: Any) -> None:
    """A batch's size per request: ``BATTLE_BATCH_MAX_RUNS`` for users, the service's bound for staff."""
    limit = settings.BATTLE_BATCH_MAX_RUNS
    if isinstance(runs, int) and runs > limit and not getattr(user, "is_staff", False):
        raise RuleViolation(
            f"a batch is at most {limit} battles (staff may ask for more)",
            field="runs",
            code="range",
        )

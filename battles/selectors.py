"""Battle reads other apps show."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Battle, BattleStatus


def battles_not_applied(*, source_key_prefix: str) -> QuerySet[Battle]:
    """Finished battles asked for by ``source_key_prefix`` (a campaign's) whose result could not be applied."""
    return (
        Battle.objects.filter(
            source_key__startswith=source_key_prefix,
            status=BattleStatus.FINISHED,
            applied_at__isnull=True,
        )
        .exclude(apply_error="")
        .only("pk", "source_key", "apply_error", "finished_at", "status", "applied_at")
        .order_by("finished_at")
    )

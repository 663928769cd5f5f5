"""The Celery app of the soak's workers (bench/soak_workers.py): the project's app, plus
a finished-battle hook that records each application in the table ``soak_applied``
inside the apply step's transaction, so the soak can count results applied twice."""

from __future__ import annotations

import django

from angels.celery import app

django.setup()

from django.db import connection  # noqa: E402 - after django.setup()

from roster.campaign_hooks import current, install, with_answer  # noqa: E402


def record_applied(battle) -> None:
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO soak_applied (battle_id) VALUES (%s)", [battle.pk])


_campaign_finished = current().battle_finished


def finished(battle) -> None:
    """The campaign's own answer, then the soak's record of the battle applied."""
    _campaign_finished(battle)
    record_applied(battle)


install(with_answer(battle_finished=finished))

__all__ = ["app"]

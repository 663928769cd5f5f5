"""The Celery app of the soak's workers (bench/soak_workers.py): the project's app, plus
a finished-battle hook that records each application in the table ``soak_applied``
inside the apply step's transaction, so the soak can count results applied twice."""

from __future__ import annotations

import django

from angels.celery import app

django.setup()

from django.db import connection  # noqa: E402 - after django.setup()

from battles.services import BATTLE_FINISHED_HOOKS  # noqa: E402


def record_applied(battle) -> None:
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO soak_applied (battle_id) VALUES (%s)", [battle.pk])


if record_applied not in BATTLE_FINISHED_HOOKS:
    BATTLE_FINISHED_HOOKS.append(record_applied)

__all__ = ["app"]

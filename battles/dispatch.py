"""Handing work to the broker: the outbox on the battle row.

A battle is stored with ``dispatched_at`` null ("queued"); after commit its
task is published and, once the broker has accepted it, ``dispatched_at`` is
set. Publishing never raises and never waits long: the broker's connect and
socket timeouts are short (``CELERY_BROKER_*`` in settings) and a publish is
not retried here, so with the broker refusing connections or frozen a web
request still answers within a few seconds and the battle stays queued.
Without a broker (eager Celery, the embedded default) the battles are flown
by background threads of the web process (:mod:`angels.background`). The
sweep (beat, every 10 s) and ``manage.py dispatch_queued`` send queued
battles when the broker is back; nobody has to ask again.

Sending a battle twice is harmless: the worker's claim is a conditional
update (``battles.services.battle_claim``), so a second message finds
nothing to do.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.utils import timezone

from .models import Battle

logger = logging.getLogger(__name__)
MARK_EVERY = 200  # battles marked dispatched per UPDATE while a batch is published


def _mark_dispatched(ids: Iterable[int]) -> None:
    Battle.objects.filter(pk__in=list(ids), dispatched_at__isnull=True).update(
        dispatched_at=timezone.now()
    )


def publish_battles(battle_ids: list[int], *, queue: str | None = None) -> list[int]:
    """Publish ``battles.run_battle`` for each battle; mark those the broker accepted.

    ``queue`` overrides the task's route: the sweep sends battles it took back
    from dead workers on the small housekeeping queue, so they are flown next
    instead of waiting behind a backlog. Returns the ids accepted. On a broker error the rest stay queued, and a
    warning says how many.
    """
    from .tasks import run_battle

    if not battle_ids:
        return []
    app = run_battle.app
    if app.conf.task_always_eager:
        # Embedded mode (no broker): each battle is flown by the web process's
        # background threads, not in the request (angels.background; the claim
        # marks it dispatched). Called after commit, so the thread sees the row.
        from angels.background import submit

        for pk in battle_ids:
            submit(run_battle.delay, pk, what=f"battle {pk}")
        return list(battle_ids)
    sent: list[int] = []
    try:
        with app.producer_or_acquire() as producer:
            for pk in battle_ids:
                if queue:
                    run_battle.apply_async((pk,), producer=producer, retry=False, queue=queue)
                else:
                    run_battle.apply_async((pk,), producer=producer, retry=False)
                sent.append(pk)
                if len(sent) % MARK_EVERY == 0:
                    _mark_dispatched(sent[-MARK_EVERY:])
    except Exception as exc:  # noqa: BLE001 - the broker is down: the rows stay queued
        logger.warning(
            "broker did not accept battles (%s: %s); %d stay queued for the dispatcher",
            type(exc).__name__, exc, len(battle_ids) - len(sent),
        )  # fmt: skip
    _mark_dispatched(sent[len(sent) - len(sent) % MARK_EVERY :])
    return sent


def publish_apply(battle_ids: list[int]) -> list[int]:
    """Publish ``battles.apply_result`` for finished battles; the sweep resends any lost."""
    from .tasks import apply_result

    sent: list[int] = []
    try:
        if apply_result.app.conf.task_always_eager:
            for pk in battle_ids:
                apply_result.delay(pk)
                sent.append(pk)
            return sent
        with apply_result.app.producer_or_acquire() as producer:
            for pk in battle_ids:
                apply_result.apply_async((pk,), producer=producer, retry=False)
                sent.append(pk)
    except Exception as exc:  # noqa: BLE001 - the sweep sends it later
        logger.warning(
            "broker did not accept %d apply steps (%s: %s); the sweep will resend them",
            len(battle_ids) - len(sent), type(exc).__name__, exc,
        )  # fmt: skip
    return sent

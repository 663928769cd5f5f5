"""Celery tasks of campaigns: thin wrappers around :mod:`campaign.clock`.

``watch_deadlines`` runs every minute (beat, ``CELERY_BEAT_SCHEDULE``). It is
idempotent: campaigns are taken with ``select_for_update(skip_locked=True)`` and
their conditions (reminder due, deadline passed and not yet handled) are read
again under the lock, so a second run, or two at once, does nothing twice.
"""

from celery import shared_task

from angels.history import history_task

from . import clock


@shared_task(name="campaign.watch_deadlines", soft_time_limit=50, time_limit=58)
def watch_deadlines() -> dict[str, int]:
    with history_task("task campaign.watch_deadlines"):
        return clock.watch_deadlines()

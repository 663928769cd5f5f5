"""Slow work off the request thread when there is no broker (issue 15, "Feedback for slow work").

With a broker (``REDIS_URL`` or ``CELERY_BROKER_URL``) battles are flown by
Celery workers: the services store the rows and publish the tasks after commit
(``transaction.on_commit``, :mod:`battles.dispatch`), so a request never waits
on a battle. Without one (the embedded default) Celery runs tasks eagerly, in
the caller's thread, and the request that started an engine engagement waited
for the battle (3.6 s) and an odds preview for its whole batch (10.6 s).

In that mode :func:`submit` hands the work to a small pool of threads in the
web process instead (``ANGELS_BACKGROUND_WORK = "thread"``, the default;
``ANGELS_BACKGROUND_THREADS`` of them, 2 by default). Why threads and not a
second process or an in-memory queue of Celery's own:

* the work is already idempotent and keyed by the row: the thread runs the
  same eager task a worker would (claim with a lease, fly, write once, hand the
  result on), so nothing about battles changes but which thread flies them;
* the row stays the source of truth: a battle given to a thread is a pending
  row; if the process dies before or while it is flown, the row is left pending
  (claimed never, or claimed with a lease that expires) and the existing sweep
  (``manage.py dispatch_queued``, beat's ``battles.sweep``) recovers it as it
  does a dead worker's. Nothing is lost that a page cannot show;
* a thread needs no broker, no extra command and no shared memory; the pages
  read the progress from the rows like every other reader.

Work is submitted after commit by the callers (the rows must be visible to
the thread's own database connection), and each job closes its thread's
database connections when it ends (Django closes connections at the end of a
request; a pool thread has no requests). ``"inline"`` runs the work in the
caller's thread, as before: the test settings use it so that tests read
results at once; the tests of this module switch to threads.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_idle = threading.Condition(_lock)
_pending = 0
_executor: ThreadPoolExecutor | None = None


_here = threading.local()


def in_threads() -> bool:
    """Is slow work run by this process's background threads (rather than in the caller's)?"""
    if getattr(_here, "inline", False):
        return False
    return getattr(settings, "ANGELS_BACKGROUND_WORK", "thread") == "thread"


@contextmanager
def inline() -> Iterator[None]:
    """Within it (or a function it decorates) this thread's slow work runs here and now:
    for commands that fly battles themselves in order (``manage.py demo``)."""
    before = getattr(_here, "inline", False)
    _here.inline = True
    try:
        yield
    finally:
        _here.inline = before


def submit(fn: Callable[..., Any], *args: Any, what: str) -> None:
    """Run ``fn(*args)`` in a background thread (or here and now, in ``"inline"`` mode).

    Call it after commit. ``what`` names the work in the log if it fails (the
    failure is also on the row: a battle that raised is stored failed).
    """
    global _executor, _pending
    if not in_threads():
        fn(*args)
        return
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=max(1, int(getattr(settings, "ANGELS_BACKGROUND_THREADS", 2))),
                thread_name_prefix="angels-background",
            )
        _pending += 1
        try:
            _executor.submit(_run, fn, args, what)
        except RuntimeError:  # the interpreter is shutting down: the row waits for the sweep
            _pending -= 1
            logger.warning("background work not started (shutting down): %s", what)


def _run(fn: Callable[..., Any], args: tuple[Any, ...], what: str) -> None:
    global _pending
    try:
        fn(*args)
    except Exception:  # noqa: BLE001 - logged; the row says what became of the work
        logger.exception("background work failed: %s", what)
    finally:
        connections.close_all()  # this thread's connections only (they are per thread)
        with _lock:
            _pending -= 1
            if _pending == 0:
                _idle.notify_all()


def pending() -> int:
    """Jobs submitted and not yet ended in this process."""
    with _lock:
        return _pending


def wait_idle(timeout: float) -> bool:
    """Wait until every submitted job has ended (tests, shutdown); False if ``timeout`` passed first."""
    with _idle:
        return _idle.wait_for(lambda: _pending == 0, timeout)


def shutdown() -> None:
    """Stop this process's background threads after the work submitted (tests; a new
    submission starts them again, with the settings of that moment)."""
    global _executor
    with _lock:
        executor, _executor = _executor, None
    if executor is not None:
        executor.shutdown(wait=True)

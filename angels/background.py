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
  (claimed never, or claimed with a lease that expires) and the sweep recovers
  it as it does a dead worker's. Nothing is lost that a page cannot show;
* a thread needs no broker, no extra command and no shared memory; the pages
  read the progress from the rows like every other reader.

Work is submitted after commit by the callers (the rows must be visible to
the thread's own database connection), and each job closes its thread's
database connections when it ends (Django closes connections at the end of a
request; a pool thread has no requests). ``"inline"`` runs the work in the
caller's thread, as before: the test settings use it so that tests read
results at once; the tests of this module switch to threads.

With no broker there is no ``celery beat`` either, so the web process runs the
beat's schedule itself (:class:`EmbeddedBeatMiddleware` starts it with the
server; ``ANGELS_EMBEDDED_BEAT``, on by default, off in the tests): one daemon
thread calls the tasks of ``CELERY_BEAT_SCHEDULE`` at their own intervals (the
sweep every 10 s: a crashed process's battles, running with an expired lease
or stored and never flown, are flown again by the pool; the deadlines; the
notifications due). Several web processes each run it: every one of those
tasks is a set of conditional updates and row locks that workers and beats may
already run side by side. A request pays nothing for it; ``manage.py
dispatch_queued`` still does one sweep by hand.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import connections

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_idle = threading.Condition(_lock)
_pending = 0
_executor: ThreadPoolExecutor | None = None
_waiting: set[str] = set()  # the ``what`` of jobs submitted and not yet started


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
    failure is also on the row: a battle that raised is stored failed). It is
    also the work's key: while a job of the same ``what`` waits for a thread,
    submitting it again does nothing (the sweep sends every queued battle, and
    a battle waiting behind a batch is still queued; the waiting job claims it).
    """
    global _executor, _pending
    if not in_threads():
        fn(*args)
        return
    with _lock:
        if what in _waiting:
            return
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=max(1, int(getattr(settings, "ANGELS_BACKGROUND_THREADS", 2))),
                thread_name_prefix="angels-background",
            )
        _pending += 1
        _waiting.add(what)
        try:
            _executor.submit(_run, fn, args, what)
        except RuntimeError:  # the interpreter is shutting down: the row waits for the sweep
            _pending -= 1
            _waiting.discard(what)
            logger.warning("background work not started (shutting down): %s", what)


def _run(fn: Callable[..., Any], args: tuple[Any, ...], what: str) -> None:
    global _pending
    with _lock:
        _waiting.discard(what)  # started: a new submission is new work (a retried battle)
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


# -- the embedded beat -----------------------------------------------------------------
# Without a broker there is no ``celery beat``: nothing would take back a battle whose
# process died while flying it (its lease runs out), send a battle stored but never given
# to a thread (the process died first), let the computer decide where a person's time ran
# out, or retry a notification. The web process runs the beat's own schedule
# (``CELERY_BEAT_SCHEDULE``: the same tasks, at the same intervals) in one daemon thread.


class _Beat(threading.Thread):
    """Runs each task of ``schedule`` (name -> seconds) at once, then every so many seconds."""

    def __init__(self, schedule: dict[str, float]) -> None:
        super().__init__(name="angels-beat", daemon=True)
        self.schedule = schedule
        self.stopping = threading.Event()
        self.passes = 0
        self.passed = threading.Condition()
        self._last_error: dict[str, str] = {}

    def run(self) -> None:
        from angels.celery import app

        app.loader.import_default_modules()  # the apps' tasks modules (what a worker does)
        due = dict.fromkeys(self.schedule, 0.0)
        while not self.stopping.is_set():
            for name, every in self.schedule.items():
                if due[name] <= time.monotonic() and not self.stopping.is_set():
                    self._run(app, name)
                    due[name] = time.monotonic() + every
            connections.close_all()  # this thread's connections (no request closes them)
            with self.passed:
                self.passes += 1
                self.passed.notify_all()
            self.stopping.wait(max(0.0, min(due.values()) - time.monotonic()))

    def _run(self, app: Any, name: str) -> None:
        try:
            app.tasks[name]()  # the task's body, here (eager: its battles go to the pool)
        except Exception as exc:  # noqa: BLE001 - logged; the next pass tries again
            error = f"{type(exc).__name__}: {exc}"
            # a database not migrated yet fails every pass: its traceback is logged once
            repeated = self._last_error.get(name) == error
            logger.warning("embedded beat: %s failed: %s", name, error, exc_info=not repeated)
            self._last_error[name] = error
        else:
            self._last_error.pop(name, None)


_beat: _Beat | None = None
_beat_pid = 0


def beat_schedule() -> dict[str, float]:
    """Task name -> seconds, from ``CELERY_BEAT_SCHEDULE`` (entries with a plain interval)."""
    schedule: dict[str, float] = {}
    for key, entry in getattr(settings, "CELERY_BEAT_SCHEDULE", {}).items():
        every = entry["schedule"]
        seconds = every.total_seconds() if isinstance(every, timedelta) else every
        if isinstance(seconds, int | float) and seconds > 0:
            schedule[entry["task"]] = float(seconds)
        else:
            logger.warning("embedded beat: %s has no plain interval; not run", key)
    return schedule


def beat_wanted() -> bool:
    """Should this process run the beat's schedule: no broker (Celery eager) and
    ``ANGELS_EMBEDDED_BEAT`` on (off in the tests' settings). With a broker, beat does it."""
    from angels.celery import app

    return bool(getattr(settings, "ANGELS_EMBEDDED_BEAT", False)) and bool(
        app.conf.task_always_eager
    )


def beat_start() -> bool:
    """Start this process's beat thread unless it runs already (and unless not wanted);
    True if one runs. A process forked from one with a beat starts its own."""
    global _beat, _beat_pid
    with _lock:
        if _beat is not None and _beat_pid == os.getpid() and _beat.is_alive():
            return True
        if not beat_wanted():
            return False
        _beat, _beat_pid = _Beat(beat_schedule()), os.getpid()
        _beat.start()
    logger.info("embedded beat started: %s", ", ".join(_beat.schedule))
    return True


def beat_running() -> bool:
    return _beat is not None and _beat_pid == os.getpid() and _beat.is_alive()


def beat_wait(passes: int, timeout: float) -> bool:
    """Wait until the running beat has made ``passes`` more passes (tests); False on timeout."""
    beat = _beat
    if beat is None:
        return False
    with beat.passed:
        target = beat.passes + passes
        return beat.passed.wait_for(lambda: beat.passes >= target, timeout)


def beat_stop(timeout: float = 30) -> None:
    """Stop the beat thread after its current task (tests)."""
    global _beat
    with _lock:
        beat, _beat = _beat, None
    if beat is not None:
        beat.stopping.set()
        if beat.is_alive() and beat is not threading.current_thread():
            beat.join(timeout)


class EmbeddedBeatMiddleware:
    """Starts the embedded beat with the web process (Django builds the middleware when
    the server loads the application); not used at all when no beat is wanted, so a
    request costs nothing. Per request it only checks that the process is the one that
    started it (a server that forks its workers after loading the application)."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        if not beat_start():
            raise MiddlewareNotUsed("no embedded beat: a broker is configured, or it is off")
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        if _beat_pid != os.getpid():
            beat_start()
        return self.get_response(request)

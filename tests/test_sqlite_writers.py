"""Two writers at once on the embedded default's SQLite (a request and a background
thread flying battles, or the embedded beat): the second waits for the first to commit
instead of failing with "database is locked". A transaction that reads before it writes
(most services: check, then store) took only a read lock at its start, and SQLite
refuses at once, without waiting, to promote it while another transaction writes; so
every transaction begins as a writer (settings: ``transaction_mode`` IMMEDIATE).
On PostgreSQL the same two transactions never meet (row locks)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connections, transaction

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 30


def test_a_transaction_that_reads_then_writes_waits_for_another_writer():
    wrote, reading = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def other_writer() -> None:  # a background thread storing a battle's result
        try:
            with transaction.atomic():
                User.objects.create(username="written-by-the-thread")
                wrote.set()
                reading.wait(2)  # the request has begun, and read, meanwhile (if it could)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            failures.append(exc)
            wrote.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_writer)
    thread.start()
    assert wrote.wait(WAIT)
    with transaction.atomic():  # the request: check, then store
        taken = User.objects.filter(username="written-by-the-request").exists()
        reading.set()
        User.objects.create(username="written-by-the-request")
    thread.join(WAIT)
    assert not failures and not taken
    assert set(User.objects.values_list("username", flat=True)) >= {
        "written-by-the-thread", "written-by-the-request"
    }  # fmt: skip

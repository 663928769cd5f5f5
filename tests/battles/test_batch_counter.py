"""Issue 17: a batch's summary costs O(1) per finished battle. Each battle a worker
ends adds one to the batch's ``done``; the worker that makes it reach ``runs``
writes the summary, equal to ``batch_summary`` over the battles. The sweep still
summarises a batch whose battles all ended without being counted."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles import services
from battles.models import Battle, BattleBatch

pytestmark = pytest.mark.django_db

POLICIES = {"policies": {"axis": "tactical", "allied": "random"}}


def _flown_batch(capture, runs=5, seed=100) -> BattleBatch:
    with capture(execute=True):
        batch = services.batch_create(scenario="dogfight", runs=runs, seed=seed, settings=POLICIES)
    batch.refresh_from_db()
    return batch


def test_the_last_worker_writes_the_summary_equal_to_the_battles(
    catalog, django_capture_on_commit_callbacks
):
    batch = _flown_batch(django_capture_on_commit_callbacks)
    assert batch.done == 5 and batch.finished_at is not None
    results = [b.result for b in batch.battles.filter(status="finished")]
    assert len(results) == 5
    assert batch.summary == services.batch_summary(results, failed=0)


def test_a_battle_that_is_not_the_last_does_not_read_the_batch(
    catalog, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        batch = services.batch_create(scenario="dogfight", runs=30, seed=7, settings=POLICIES)
    first = batch.battles.order_by("pk").first()
    with CaptureQueriesContext(connection) as queries:
        services._batch_battle_done(batch.pk)
    batch.refresh_from_db()
    assert batch.done == 1 and batch.summary is None
    # a counter update and one look: no battle statuses read, no row lock
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert len(queries.captured_queries) == 2
    assert '"battles_battle"' not in sql and "FOR UPDATE" not in sql
    assert first is not None


def test_the_sweep_summarises_a_complete_batch_the_counter_missed(
    catalog, django_capture_on_commit_callbacks
):
    batch = _flown_batch(django_capture_on_commit_callbacks, runs=3, seed=11)
    expected = batch.summary
    # as if the workers died after writing their battles, before counting them
    BattleBatch.objects.filter(pk=batch.pk).update(done=1, summary=None, finished_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        services.battles_sweep(now=timezone.now() + timedelta(hours=1))
    batch.refresh_from_db()
    assert batch.summary == expected and batch.finished_at is not None
    assert Battle.objects.filter(batch=batch, status="finished").count() == 3

"""The OpenAPI schema tells the truth: schemathesis calls every operation of
``/api/schema/`` (through WSGI, no server) with generated input, valid and
invalid, anonymously, as a plain user (API token) and as staff (Basic), against a database with
a roster, careers, a campaign played a few turns (engine battles included) and
finished battles, and checks each answer: never a 5xx, its status documented,
its content type and body as documented.

Bounded: a fixed number of examples per operation, derandomised, no shrinking,
so the run is the same every time and takes about a minute of CPU.
"""

from __future__ import annotations

import base64
import time

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from battles.models import Battle
from battles.services import batch_create
from campaign.models import Campaign
from careers.models import Claim, TableBattle
from demo.battles import demo_battles_create
from demo.campaign import demo_campaign_play
from demo.roster import demo_careers_create, demo_roster_create
from roster.models import AircraftType, Pilot, Squadron
from tests.conftest import catalog_fill

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# reads that are not for everyone: who never gets a 200 from them (a 401 or 403 is right)
NOT_OPEN_TO = {
    "GET /api/campaigns/{id}/export/": ("anonymous", "player"),  # organiser or staff (issue 16)
    # a user's own notifications and choices (issue 15); a campaign's webhook is its organiser's
    "GET /api/notifications/": ("anonymous",),
    "GET /api/notifications/preferences/": ("anonymous",),
    "GET /api/notifications/campaigns/{id}/webhook/": ("anonymous", "player"),
    # what waits for the signed-in user (issue 24): nobody's for anonymous
    "GET /api/me/invitations/": ("anonymous",),
    "GET /api/me/waiting/": ("anonymous",),
}
RANDOM_IDS = 4  # examples per operation with generated ids (mostly 404s)
KNOWN_IDS = 10  # examples per operation on a seeded object (bodies checked)
PASSWORD = "pw-schema-123"


def _sign_in(who: str) -> dict[str, str]:
    """Staff sends Basic credentials, the plain user an API token: both ways are tried."""
    if who == "anonymous":
        return {}
    user = get_user_model().objects.get(username=who)
    if who == "player":
        return {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}
    token = base64.b64encode(f"{who}:{PASSWORD}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the three users, in a transaction rolled back after the last:
    each test runs in a savepoint inside it, and each request in a savepoint too."""
    with django_db_blocker.unblock(), transaction.atomic():
        ids = _world()
        yield ids
        transaction.set_rollback(True)


def _world():
    """Users and a filled database: what the generated requests run against."""
    catalog_fill()
    User = get_user_model()
    staff = User.objects.create_user("staff", password=PASSWORD, is_staff=True, is_superuser=True)
    User.objects.create_user("player", password=PASSWORD)
    demo_roster_create()
    careers = demo_careers_create(organiser=staff)
    campaign = Campaign.objects.get(name=careers.campaign)
    demo_campaign_play(campaign=campaign, organiser=staff, until_turn=3)
    demo_battles_create(requested_by=staff)
    battle = Battle.objects.filter(status="finished").order_by("-pk").first()
    batch = batch_create(scenario="dogfight", runs=2, seed=1943, requested_by=staff)
    assert battle is not None
    return {
        # the first path segments after /api/ that name an object -> a seeded id
        "battles": battle.pk,
        "battles/batches": batch.pk,
        "campaigns": campaign.pk,
        "roster/campaigns": campaign.pk,
        "notifications/campaigns": campaign.pk,
        "roster/aircraft-types": AircraftType.objects.order_by("pk").first().pk,
        "roster/squadrons": Squadron.objects.order_by("pk").first().pk,
        "roster/pilots": Pilot.objects.order_by("pk").first().pk,
        "roster/table-battles": TableBattle.objects.order_by("pk").first().pk,
        "roster/claims": (Claim.objects.order_by("pk").first() or TableBattle.objects.first()).pk,
    }


def _seeded_id(path: str, ids: dict[str, int]) -> int | None:
    if "{id}" not in path:
        return None
    prefix = path.removeprefix("/api/").split("/{id}")[0]
    return ids.get(prefix)


def _run(operation, *, headers, path_parameters, examples, statuses) -> str | None:
    """Run ``examples`` generated cases (valid and invalid) of one operation; the first failure."""
    strategy = st.one_of(
        operation.as_strategy(
            generation_mode=mode, headers=headers or None, path_parameters=path_parameters
        )
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    )

    @given(case=strategy)
    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    def check(case):
        # each request in a savepoint rolled back afterwards: the seeded world stays as it
        # was, and on PostgreSQL one failed statement cannot abort the test's transaction
        savepoint = transaction.savepoint()
        try:
            response = case.call_and_validate(headers=headers, checks=CHECKS)
        finally:
            transaction.savepoint_rollback(savepoint)
        statuses.setdefault(operation.label, set()).add(response.status_code)

    try:
        check()
    except (Exception, BaseExceptionGroup) as exc:  # every failure, named by its operation
        return f"{operation.label}: {exc}"
    return None


@pytest.fixture
def connection_kept():
    """The WSGI app closes the database connection at the end of each request (as a
    server does), which on PostgreSQL would end the test's transaction; Django's own
    test client holds it open the same way."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
def test_every_answer_of_every_operation_matches_the_schema(world, connection_kept, who):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    headers = _sign_in(who)
    failures = []
    statuses: dict[str, set[int]] = {}
    started = time.monotonic()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 30
    for operation in operations:
        failure = _run(
            operation, headers=headers, path_parameters=None, examples=RANDOM_IDS, statuses=statuses
        )
        seeded = _seeded_id(operation.path, world)
        if failure is None and seeded is not None:
            failure = _run(
                operation,
                headers=headers,
                path_parameters={"id": seeded},
                examples=KNOWN_IDS,
                statuses=statuses,
            )
        if failure:
            failures.append(failure)
    print(f"{who}: {len(operations)} operations in {time.monotonic() - started:.1f}s")
    assert not failures, "\n\n".join(failures)
    # the bodies checked were real ones: every read answered 200 at least once
    unread = [
        label
        for label, seen in statuses.items()
        if label.startswith("GET ") and 200 not in seen and who not in NOT_OPEN_TO.get(label, ())
    ]
    assert not unread, f"reads that never answered 200: {unread}"

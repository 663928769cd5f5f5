"""Shared fixtures. Services (PostgreSQL, Redis) are probed once; tests that need
them skip with the reason when they do not answer."""

from __future__ import annotations

import contextlib
import os
import socket

import pytest

# the browser fixtures, defined once for every folder (a second Playwright per process fails);
# the migration tests' fixtures, defined once for every folder
pytest_plugins = ["tests.browser_fixtures", "tests.migrations_helper"]


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


# The slowest files, slowest first (per-file totals of a PostgreSQL run, 2 workers, Nov 2026).
# pytest-xdist's --dist loadfile hands out files in collection order, so these go first:
# a long file started last would keep one worker busy while the other sits idle.
SLOWEST_FILES = (
    "tests/test_one_truth_property.py",
    "tests/campaign/test_campaign_api.py",
    "tests/campaign/test_clock.py",
    "tests/test_permissions.py",
    "tests/battles/test_optional_rules_settings.py",
    "tests/battles/test_play_by_web.py",
    "tests/campaign/test_exchange.py",
    "tests/careers/test_apply.py",
    "tests/test_hidden_information.py",
    "tests/test_bad_input.py",
    "tests/campaign/test_enrolment.py",
    "tests/campaign/test_campaign_services.py",
    "tests/test_schemathesis.py",
    "tests/campaign/test_history.py",
    "tests/rules/angels20/pilots/test_pilots.py",
    "tests/rules/cardgame/test_play.py",
    "tests/battles/test_battle_lifecycle.py",
    "tests/battles/test_play_page.py",
    "tests/campaign/test_campaign_engine_rules.py",
    "tests/rules/angels20/test_properties.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slowest files first, each file's tests in their own order (a stable sort)."""
    rank = {path: i for i, path in enumerate(SLOWEST_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


REDIS_TEST_URL = os.environ.get("ANGELS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture(scope="session")
def redis_url() -> str:
    host_port = REDIS_TEST_URL.split("//", 1)[1].split("/", 1)[0]
    host, _, port = host_port.rpartition(":")
    if not _answers(host, int(port)):
        pytest.skip(f"Redis does not answer at {host_port}: broker tests need a real Redis")
    return REDIS_TEST_URL


# The shipped catalog's rows as the first real load in this process wrote them (no ids).
_CATALOG_ROWS: list[dict] = []


def catalog_fill():
    """Load the shipped catalog into an empty database: what ``catalog_load()`` returns.

    The first call in a process runs the real loader (reads and checks every CSV row,
    validates and saves each type: seconds); later ones insert the rows it wrote, with
    their "created" history records, in two queries, in the same order, and return the
    report it would give. The loader itself is tested in tests/roster/, where it is
    called directly."""
    from simple_history.utils import bulk_create_with_history

    from roster.catalog import CatalogReport, catalog_load
    from roster.models import AircraftType

    was_empty = not AircraftType.objects.exists()
    if not (was_empty and _CATALOG_ROWS):
        report = catalog_load()
        if was_empty and not _CATALOG_ROWS:
            _CATALOG_ROWS.extend(AircraftType.objects.order_by("pk").values())
            for row in _CATALOG_ROWS:
                del row["id"]
        return report
    # with each type's "created" history record, as its save() would have written
    bulk_create_with_history([AircraftType(**row) for row in _CATALOG_ROWS], AircraftType)
    return CatalogReport(created=[row["name"] for row in _CATALOG_ROWS])


@pytest.fixture
def catalog(db):
    """The shipped catalog (see :func:`catalog_fill`)."""
    return catalog_fill()


@contextlib.contextmanager
def celery_on_broker(url: str):
    """Point the Celery app at a real broker for one test, then restore eager mode.

    The app caches its connection and producer pools for one broker URL, so
    they are dropped (not closed: kombu's shared producer pools may still hold
    them) on the way in and on the way out.
    """
    from angels.celery import app

    def reset_pools() -> None:
        app._pool = None
        app.amqp._producer_pool = None

    old = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    reset_pools()
    app.conf.update(task_always_eager=False, broker_url=url)
    try:
        yield app
    finally:
        reset_pools()
        app.conf.update(**old)


#: the names a test's webhook host may have, and their addresses (no test asks real DNS)
FAKE_DNS: dict[str, list[str]] = {
    "discord.com": ["162.159.135.232", "2606:4700::6810:1234"],
    "example.org": ["93.184.215.14"],
    "localhost": ["127.0.0.1", "::1"],
}


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch):
    """Webhook hosts are looked up in :data:`FAKE_DNS` (a test may add names to the
    dict it gets); an address is itself, any other name is not found."""
    import ipaddress

    from notifications import webhooks

    names = {k: list(v) for k, v in FAKE_DNS.items()}

    def resolve(host: str, port: int) -> list[str]:
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:
            pass
        if host.lower() not in names:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return names[host.lower()]

    monkeypatch.setattr(webhooks, "resolve", resolve)
    return names

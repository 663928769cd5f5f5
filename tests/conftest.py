"""Shared fixtures. Services (PostgreSQL, Redis) are probed once; tests that need
them skip with the reason when they do not answer."""

from __future__ import annotations

import os
import socket

import pytest


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


REDIS_TEST_URL = os.environ.get("ANGELS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture(scope="session")
def redis_url() -> str:
    host_port = REDIS_TEST_URL.split("//", 1)[1].split("/", 1)[0]
    host, _, port = host_port.rpartition(":")
    if not _answers(host, int(port)):
        pytest.skip(f"Redis does not answer at {host_port}: broker tests need a real Redis")
    return REDIS_TEST_URL


@pytest.fixture
def catalog(db):
    from roster.catalog import catalog_load

    return catalog_load()

import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_suite_runs_on_the_configured_database():
    """CI points DATABASE_URL at PostgreSQL; the suite must then really use it."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL is not PostgreSQL: this run uses the embedded SQLite database")
    assert connection.vendor == "postgresql"

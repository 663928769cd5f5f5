"""Settings for the test suite.

The database comes from ``DATABASE_URL`` like everywhere else (CI points it at
PostgreSQL); Celery runs eagerly and propagates errors, except in the tests
that exercise the real broker, which configure it themselves.
"""

import os
from pathlib import Path

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = "memory://"
# Slow work runs in the caller (tests read results at once); tests/campaign/test_slow_work.py
# runs it in the background threads the embedded default uses.
ANGELS_BACKGROUND_WORK = "inline"
# No beat thread behind the tests' backs; tests/test_embedded_beat.py turns it on.
ANGELS_EMBEDDED_BEAT = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not SQLite's shared in-memory database: there a second connection that
    # meets a writer fails at once ("database table is locked") instead of waiting, so
    # the tests of the background threads and the beat would not see what a server sees.
    # pytest-django gives each xdist worker its own file (a "_gw0" suffix).
    _TEST_DIR = Path("/dev/shm") if Path("/dev/shm").is_dir() else VAR_DIR  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(_TEST_DIR / f"angels-test-{os.getpid()}.sqlite3")}  # noqa: F405
LOGGING = {"version": 1, "disable_existing_loggers": False}
BATTLE_ODDS_RUNS = 6
# Throttling is tested where it is the subject (tests/test_throttling.py lowers these);
# elsewhere no test should meet a limit.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(
        ("battles", "batches", "odds", "token"), "100000/minute"
    ),
}
# Password guessing (angels.signin_limits) likewise: tests/security/test_sign_in_limits.py
# lowers these.
ANGELS_SIGNIN_FAILURE_LIMIT = 100000
ANGELS_PASSWORD_RESET_LIMIT = 100000

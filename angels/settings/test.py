"""Settings for the test suite.

The database comes from ``DATABASE_URL`` like everywhere else (CI points it at
PostgreSQL); Celery runs eagerly and propagates errors, except in the tests
that exercise the real broker, which configure it themselves.
"""

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

"""A public site's settings pass Django's own deployment check (issue 23, item 11).

``manage.py check --deploy`` runs in a subprocess with the production settings and the
environment a public site sets (README "Deploying"): no warning at all. Each HTTPS switch,
turned off for a site whose proxy does that job, gives the setting it says; production
refuses to start without the settings it needs, naming them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

PUBLIC_SITE = {
    "DJANGO_SETTINGS_MODULE": "angels.settings.production",
    "DJANGO_SECRET_KEY": "k7Qm2vXh9LpR4sTz8wYb3nCd6fGj1HaEuViKoPqWrStUxYzAbCdEfGhIjKlMnOp",
    "DJANGO_ALLOWED_HOSTS": "angels.example.org",
    "DATABASE_URL": "postgres://angels@db.example.org:5432/angels",
    "REDIS_URL": "redis://redis.example.org:6379/0",
    "ANGELS_SITE_URL": "https://angels.example.org",
}

_SHOW = """
import json
from django.conf import settings  # the settings alone: no app is loaded
print(json.dumps({name: getattr(settings, name) for name in (
    "DEBUG", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SECURE_PROXY_SSL_HEADER", "CSRF_TRUSTED_ORIGINS", "SILENCED_SYSTEM_CHECKS")}))
"""


_START = "import django; django.setup()"  # what every start of the site does first


def _run(args: list[str], **env: str | None) -> subprocess.CompletedProcess[str]:
    """``args`` run by Python with the public site's environment, changed by ``env``
    (a name given None is left unset)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ANGELS_"))}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "SITE_URL"):
        clean.pop(name, None)
    merged = {**clean, **PUBLIC_SITE, **env}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={k: v for k, v in merged.items() if v is not None},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _settings(**env: str) -> dict:
    result = _run(["-c", _SHOW], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_deploy_check_is_clean_for_a_public_site():
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"])
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues (0 silenced)" in output
    assert "WARNING" not in output and "Enum" not in output


def test_a_public_site_gets_https_hsts_and_secure_cookies():
    seen = _settings()
    assert seen["DEBUG"] is False
    assert seen["SECURE_SSL_REDIRECT"] is True
    assert seen["SECURE_HSTS_SECONDS"] == 31_536_000
    assert seen["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert seen["SECURE_HSTS_PRELOAD"] is True
    assert seen["SESSION_COOKIE_SECURE"] is True and seen["CSRF_COOKIE_SECURE"] is True
    assert seen["SECURE_PROXY_SSL_HEADER"] is None
    assert seen["CSRF_TRUSTED_ORIGINS"] == ["https://angels.example.org"]


def test_each_switch_turned_off_for_a_proxy_that_does_the_job():
    seen = _settings(
        ANGELS_SECURE_SSL_REDIRECT="off",
        ANGELS_HSTS_SECONDS="0",
        ANGELS_SECURE_COOKIES="no",
        ANGELS_PROXY_SSL_HEADER="X-Forwarded-Proto: https",
    )
    assert seen["SECURE_SSL_REDIRECT"] is False
    assert seen["SECURE_HSTS_SECONDS"] == 0
    assert seen["SESSION_COOKIE_SECURE"] is False and seen["CSRF_COOKIE_SECURE"] is False
    assert seen["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    # each switch silences only the warning about the measure it turns off
    assert sorted(seen["SILENCED_SYSTEM_CHECKS"]) == [
        "security.W004",
        "security.W008",
        "security.W012",
        "security.W016",
    ]
    assert _settings(ANGELS_HSTS_SECONDS="600")["SECURE_HSTS_SECONDS"] == 600


def test_production_refuses_to_start_without_what_it_needs():
    result = _run(
        ["-c", _START],
        DJANGO_SECRET_KEY=None,
        DJANGO_ALLOWED_HOSTS=None,
        DATABASE_URL="",
        REDIS_URL=None,
        ANGELS_SITE_URL=None,
    )
    assert result.returncode != 0
    assert (
        "production settings need DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL, "
        "ANGELS_SITE_URL, REDIS_URL (or CELERY_BROKER_URL) set" in result.stderr
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"ANGELS_PROXY_SSL_HEADER": "https"}, "ANGELS_PROXY_SSL_HEADER='https' is not like"),
        ({"ANGELS_HSTS_SECONDS": "a year"}, "ANGELS_HSTS_SECONDS='a year' is not an integer"),
        ({"ANGELS_SECURE_SSL_REDIRECT": "maybe"}, "ANGELS_SECURE_SSL_REDIRECT='maybe' is not"),
        ({"ANGELS_SITE_URL": "https:///angels"}, "ANGELS_SITE_URL='https:///angels' is not an"),
    ],
)
def test_a_bad_switch_is_refused_naming_it(env: dict[str, str], message: str):
    result = _run(["-c", _START], **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_bin_serve_refuses_to_start_without_what_production_needs():
    stamp, project = ROOT / ".venv" / ".angels-installed", ROOT / "pyproject.toml"
    if not stamp.exists() or stamp.stat().st_mtime < project.stat().st_mtime:
        pytest.skip("bin/_setup would install the project first (run ./bin/test or ./bin/demo)")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ANGELS_"))}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "SITE_URL"):
        clean.pop(name, None)
    result = subprocess.run(
        [str(ROOT / "bin" / "serve")],
        cwd=ROOT,
        env={**clean, "DJANGO_SECRET_KEY": PUBLIC_SITE["DJANGO_SECRET_KEY"]},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "bin/serve: not started: django.core.exceptions.ImproperlyConfigured: production "
        "settings need DJANGO_ALLOWED_HOSTS, DATABASE_URL, ANGELS_SITE_URL, "
        "REDIS_URL (or CELERY_BROKER_URL) set"
    )

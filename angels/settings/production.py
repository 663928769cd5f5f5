"""Settings for a deployed site: a real secret, database, broker, host names and address are
required, and HTTPS is enforced (README "Deploying").

Each HTTPS measure is on by default and can be turned off by a site whose proxy does it
instead; turning one off also silences the deployment check's warning about it, so
``manage.py check --deploy`` stays quiet on a site configured on purpose.
"""

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import CELERY_TASK_ALWAYS_EAGER, SECRET_KEY
from .env import ImproperSetting, env_bool, env_int, env_str

DEBUG = False

# What a public site must set (README "Deploying"); all the missing ones are named at once.
REQUIRED = ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "ANGELS_SITE_URL")
# the site's address, in links of mails and webhook posts (SITE_URL is its older name)
_site_url = env_str("ANGELS_SITE_URL", env_str("SITE_URL")).strip()
_missing = [
    name
    for name in REQUIRED
    if not (_site_url if name == "ANGELS_SITE_URL" else env_str(name).strip())
]
if CELERY_TASK_ALWAYS_EAGER:
    _missing.append("REDIS_URL (or CELERY_BROKER_URL)")
if _missing:
    raise ImproperlyConfigured(f"production settings need {', '.join(_missing)} set")
if SECRET_KEY.startswith("dev-only"):
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be a secret of your own")
_site = urlsplit(_site_url)
if _site.scheme not in ("http", "https") or not _site.netloc:
    raise ImproperSetting(
        f"ANGELS_SITE_URL={_site_url!r} is not an address like https://angels.example.org"
    )
# Forms posted from the site's own address pass the CSRF origin check behind a proxy too.
CSRF_TRUSTED_ORIGINS = [f"{_site.scheme}://{_site.netloc}"]

SILENCED_SYSTEM_CHECKS: list[str] = []

# Plain HTTP is redirected to HTTPS (off: the proxy redirects).
SECURE_SSL_REDIRECT = env_bool("ANGELS_SECURE_SSL_REDIRECT", True)
if not SECURE_SSL_REDIRECT:
    SILENCED_SYSTEM_CHECKS.append("security.W008")

# Browsers told to use HTTPS only, for a year (0: off, e.g. the proxy sends the header).
SECURE_HSTS_SECONDS = env_int("ANGELS_HSTS_SECONDS", 31_536_000)
if SECURE_HSTS_SECONDS < 0:
    raise ImproperSetting(f"ANGELS_HSTS_SECONDS={SECURE_HSTS_SECONDS} is below 0")
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("ANGELS_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("ANGELS_HSTS_PRELOAD", True)
if not SECURE_HSTS_SECONDS:
    SILENCED_SYSTEM_CHECKS.append("security.W004")
if not SECURE_HSTS_INCLUDE_SUBDOMAINS:
    SILENCED_SYSTEM_CHECKS.append("security.W005")
if not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS.append("security.W021")

# Session and CSRF cookies travel over HTTPS only (off: a site served over plain HTTP).
SESSION_COOKIE_SECURE = env_bool("ANGELS_SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
if not SESSION_COOKIE_SECURE:
    SILENCED_SYSTEM_CHECKS += ["security.W012", "security.W016"]


def proxy_ssl_header(raw: str) -> tuple[str, str] | None:
    """``X-Forwarded-Proto: https`` -> ("HTTP_X_FORWARDED_PROTO", "https"); "" -> None.

    Set it only behind a proxy that terminates HTTPS and always sets (never passes on)
    that header: requests carrying it are then taken as made over HTTPS.
    """
    if not raw.strip():
        return None
    header, sep, value = raw.partition(":")
    if not sep or not header.strip() or not value.strip():
        raise ImproperSetting(
            f"ANGELS_PROXY_SSL_HEADER={raw!r} is not like 'X-Forwarded-Proto: https'"
        )
    return "HTTP_" + header.strip().upper().replace("-", "_"), value.strip()


SECURE_PROXY_SSL_HEADER = proxy_ssl_header(env_str("ANGELS_PROXY_SSL_HEADER"))

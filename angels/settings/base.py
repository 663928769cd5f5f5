"""Settings shared by every environment.

With nothing configured the project runs embedded: SQLite and Celery in eager
mode. ``DATABASE_URL`` switches to PostgreSQL (or any database dj-database-url
understands); ``REDIS_URL`` (or ``CELERY_BROKER_URL``) switches Celery to a
real broker with real workers.
"""

from __future__ import annotations

import ipaddress
import warnings
from pathlib import Path

import dj_database_url

from .env import ImproperSetting, env_bool, env_choice, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(env_str("ANGELS_VAR_DIR", str(BASE_DIR / "var")))

SECRET_KEY = env_str("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",  # API tokens (README "Signing in to the API")
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from our static files (no CDN)
    "simple_history",  # issue 16: who changed what, when and why (angels.history)
    "django_filters",  # issue 16: search and filters of the lists (the API's filter form)
    "roster",
    "careers",
    "battles",
    "campaign",
    "accounts",  # issue 15: sign-up, invitations, user settings
    "notifications",  # issue 15: e-mail, webhook, in-app list
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # /static/ in every setting (no web server needed)
    "angels.security_headers.SecurityHeadersMiddleware",  # issue 23: CSP, private caching
    "angels.middleware.RefuseNulMiddleware",  # before sessions and auth read the input
    "angels.background.EmbeddedBeatMiddleware",  # no broker: the beat's tasks in a thread
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.TimeZoneMiddleware",  # issue 15: pages in the user's own time zone
    "simple_history.middleware.HistoryRequestMiddleware",  # history records name the request's user
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "angels.urls"
WSGI_APPLICATION = "angels.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["angels.template_words"],
        },
    },
]

_DEFAULT_SQLITE = f"sqlite:///{VAR_DIR / 'angels.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", _DEFAULT_SQLITE) or _DEFAULT_SQLITE,
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite serialises writers; wait for the lock instead of failing at once. Each
    # transaction begins as a writer (IMMEDIATE): one that read first under a deferred
    # BEGIN is refused at once, without waiting, when it then writes while another
    # thread writes ("database is locked": background battles, the embedded beat).
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's ModelBackend, checking no password while an address waits (angels.signin_limits)
AUTHENTICATION_BACKENDS = ["angels.signin_limits.SignInLimitBackend"]

# --- Client address and password guessing (issue 23) -------------------------------
# The client's address is REMOTE_ADDR; X-Forwarded-For is read only behind proxies
# named here (angels.throttling.client_address): how many there are, or their
# addresses/networks (comma-separated, e.g. "10.0.0.0/8,127.0.0.1").
ANGELS_TRUSTED_PROXY_COUNT = env_int("ANGELS_TRUSTED_PROXY_COUNT", 0)
ANGELS_TRUSTED_PROXIES = env_list("ANGELS_TRUSTED_PROXIES", [])
for _proxy in ANGELS_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperSetting(f"ANGELS_TRUSTED_PROXIES: {_proxy!r} is not an address") from None
if ANGELS_TRUSTED_PROXY_COUNT < 0:
    raise ImproperSetting("ANGELS_TRUSTED_PROXY_COUNT is the number of proxies (0 or more)")
# Wrong passwords one address may send in a window, then it waits (angels.signin_limits);
# password reset requests likewise.
ANGELS_SIGNIN_FAILURE_LIMIT = env_int("ANGELS_SIGNIN_FAILURE_LIMIT", 10)
ANGELS_SIGNIN_WINDOW_MINUTES = env_int("ANGELS_SIGNIN_WINDOW_MINUTES", 15)
ANGELS_PASSWORD_RESET_LIMIT = env_int("ANGELS_PASSWORD_RESET_LIMIT", 5)

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# served from the apps' static folders as they are: no collectstatic step to forget
WHITENOISE_USE_FINDERS = True
# ...so STATIC_ROOT exists only after an optional collectstatic; WhiteNoise warns at every start without it
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/campaigns/"
LOGOUT_REDIRECT_URL = "/"

# --- E-mail (issue 15: invitations, password reset, reminders) ---------------
# Embedded default: mails are printed on the console. EMAIL_HOST set: sent by SMTP.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Angels <angels@localhost>")
# The site's address: every link in a notification mail or webhook post starts with it
# (issue 24; e.g. https://angels.example.org). SITE_URL is its older name.
_site = env_str("ANGELS_SITE_URL", env_str("SITE_URL", "http://127.0.0.1:8000"))
ANGELS_SITE_URL = _site.strip().rstrip("/")
if not ANGELS_SITE_URL.startswith(("http://", "https://")):
    raise ImproperSetting(f"ANGELS_SITE_URL={_site!r} must start with http:// or https://")
# The hour (0-23, TIME_ZONE) from which the day's digest goes to users who chose one.
ANGELS_DIGEST_HOUR = env_int("ANGELS_DIGEST_HOUR", 7)
if not 0 <= ANGELS_DIGEST_HOUR <= 23:
    raise ImproperSetting(f"ANGELS_DIGEST_HOUR={ANGELS_DIGEST_HOUR} is not an hour from 0 to 23")
# Webhooks post only to public addresses (notifications.webhooks): a host on this machine
# (127.x, ::1, localhost) is allowed only with this, which the tests' local receivers use.
NOTIFICATIONS_WEBHOOK_ALLOW_LOOPBACK = False
# How long an invitation link works (accounts.Invitation).
ANGELS_INVITATION_DAYS = env_int("ANGELS_INVITATION_DAYS", 14)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "angels.api.AngelsAutoSchema",
    "EXCEPTION_HANDLER": "angels.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "angels.pagination.Pagination",
    # DRF's own JSON parser answered 500 to a body nested too deeply (RecursionError);
    # the form and multipart parsers are DRF's defaults, kept.
    "DEFAULT_PARSER_CLASSES": [
        "angels.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # A token costs one indexed query; Basic auth pays a password hash on every request
    # (kept for old clients, the README recommends tokens); sessions are the pages'.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "angels.authentication.BasicAuthentication",  # DRF's, limited (issue 23)
    ],
    # Per user (ScopedRateThrottle on the views of each scope); the counts live in the
    # default cache: Redis where REDIS_URL is set (shared by every web process), else memory.
    "DEFAULT_THROTTLE_RATES": {
        "battles": env_str("ANGELS_THROTTLE_BATTLES", "120/hour"),
        "batches": env_str("ANGELS_THROTTLE_BATCHES", "20/hour"),
        "odds": env_str("ANGELS_THROTTLE_ODDS", "60/hour"),
        "token": env_str("ANGELS_THROTTLE_TOKEN", "20/minute"),
    },
}

# The most battles one batch request may ask for (staff: up to battles.services.MAX_BATCH_RUNS).
BATTLE_BATCH_MAX_RUNS = env_int("BATTLE_BATCH_MAX_RUNS", 200)

# Who may start a campaign, on the page and through the API: "signed-in" (any
# signed-in user) or "staff".
ANGELS_CAMPAIGN_CREATORS = env_choice(
    "ANGELS_CAMPAIGN_CREATORS", "signed-in", choices=("signed-in", "staff")
)

SPECTACULAR_SETTINGS = {
    "TITLE": "Angels API",
    "DESCRIPTION": "Campaign manager and pilot roster for WWII air-war miniatures campaigns.",
    "VERSION": "0.1.0",
    # /api/docs/ and /api/redoc/ work offline: their scripts come with drf-spectacular-sidecar.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name per choice set, said for what it is: without these, choice sets that share a
    # field name ("side", "status", "territory") got hashed names (Side0deEnum) that a
    # generated client would inherit. A set is matched by its values and labels, so the
    # plain lists here are the serializers' own label-less choices.
    "ENUM_NAME_OVERRIDES": {
        "SideEnum": "roster.models.Side",
        "CampaignSideEnum": ["allied", "axis"],
        "QualityEnum": "roster.models.PILOT_QUALITY_CHOICES",
        "CardQualityEnum": "roster.models.CardQuality",
        "AircraftKindEnum": "roster.models.AircraftKind",
        "PilotStatusEnum": "roster.models.PilotStatus",
        "PilotEventKindEnum": "careers.models.PilotEventKind",
        "TableBattleTerritoryEnum": "careers.models.Territory",
        "EngagementTerritoryEnum": "careers.records.TERRITORIES",
        "BattleStatusEnum": "battles.models.BattleStatus",
        "CampaignStatusEnum": "campaign.models.CampaignStatus",
        "InvitationStatusEnum": ["pending", "accepted", "expired", "revoked"],
        "ResultModeEnum": "careers.models.ResultMode",
        "ClaimStateEnum": "careers.models.ClaimState",
        "CampaignRoleEnum": "campaign.models.Role",
        "NotificationKindEnum": "notifications.models.KIND_CHOICES",
    },
}

# --- Security headers (issue 23, angels.security_headers) ------------------------
# The Content-Security-Policy of every response: scripts from this site only, never
# inline (the pages' scripts are static files reading json_script data), so user text
# that ever reached a page as markup still could not run. Styles may be inline
# (<style> blocks and style= attributes in the templates): CSS cannot run script.
ANGELS_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],  # ReDoc (/api/redoc/) searches in a blob: worker
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
SECURE_CONTENT_TYPE_NOSNIFF = True  # X-Content-Type-Options: nosniff (SecurityMiddleware)
SECURE_REFERRER_POLICY = "same-origin"  # no address of ours in a link to another site
X_FRAME_OPTIONS = "DENY"  # frame-ancestors 'none' for browsers without CSP

# Battles flown for an odds preview before an engagement is resolved.
BATTLE_ODDS_RUNS = env_int("BATTLE_ODDS_RUNS", 40)

# --- Celery -----------------------------------------------------------------
# A real broker when one is configured; otherwise tasks run eagerly in-process.
REDIS_URL = env_str("REDIS_URL", "")
# Counts every web process must share (the sign-in limits, the API's throttles) live in
# the cache: with Redis configured it is Redis, so N gunicorn workers do not give a
# guesser N times the limit; embedded, one process, memory is enough.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env_str("ANGELS_CACHE_URL", REDIS_URL),
            "KEY_PREFIX": "angels",
        }
    }
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
# Without a broker (eager Celery) slow work (battles, batches) runs in this many
# threads of the web process, off the request thread ("thread"), or in the
# request itself ("inline", the tests' default). See angels.background.
ANGELS_BACKGROUND_WORK = env_choice(
    "ANGELS_BACKGROUND_WORK", "thread", choices=("thread", "inline")
)
ANGELS_BACKGROUND_THREADS = env_int("ANGELS_BACKGROUND_THREADS", 2)
# Without a broker the web process also runs CELERY_BEAT_SCHEDULE's tasks itself (the
# sweep that recovers battles after a crash, deadlines, notifications), in one thread;
# with a broker it never does (beat does). See angels.background.
ANGELS_EMBEDDED_BEAT = env_bool("ANGELS_EMBEDDED_BEAT", True)
# The battle row is the source of truth; results are not kept in a backend.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 240)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 300)
# With acks_late a task unacknowledged for this long is re-delivered; keep it
# well above the hard time limit so a running task is never handed out twice.
# (A dead worker's battle does not wait for it: the sweep takes it back when
# its lease expires, see battles.services "flying".)
# Short connect and read timeouts and no publish retries: with the broker
# refusing or frozen, a web request that creates work answers within a few
# seconds and leaves the work queued (the outbox, battles.dispatch).
BROKER_SOCKET_TIMEOUT = float(env_int("BROKER_SOCKET_TIMEOUT_MS", 1000)) / 1000
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_SOCKET_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "socket_timeout": BROKER_SOCKET_TIMEOUT,
    "socket_connect_timeout": BROKER_SOCKET_TIMEOUT,
    "max_retries": 0,
}
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Run with `celery -A angels beat` beside the workers. Every 10 s the sweep
# sends queued battles (outbox), takes back battles whose worker died (lease
# expired), resends lost apply steps and summarises finished batches. A sweep
# not started within 10 s is dropped (the next one does the same work).
CELERY_BEAT_SCHEDULE = {
    "sweep-battles": {"task": "battles.sweep", "schedule": 10.0, "options": {"expires": 10.0}},
    # issue 14: a person's time per decision ran out: the side's computer pilot decides
    "pass-deadlines": {
        "task": "battles.pass_deadlines",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
    # issue 15: campaign deadlines (reminders, the computer commander for absent sides)
    "watch-deadlines": {
        "task": "campaign.watch_deadlines",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # issue 15: notification e-mails and webhook posts due again after a failure
    "send-notifications": {
        "task": "notifications.send_due",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # issue 24: the daily digests (sent once a day per user, from ANGELS_DIGEST_HOUR)
    "send-digests": {
        "task": "notifications.send_digests",
        "schedule": 600.0,
        "options": {"expires": 600.0},
    },
}
# The sweep and the apply steps have a queue of their own, which every worker
# also consumes (no -Q needed): behind a backlog of battles in the default
# queue they would wait their turn, and a dead worker's battle with them.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES: dict[str, dict[str, str]] = {"celery": {}, "housekeeping": {}}
CELERY_TASK_ROUTES = {
    "battles.sweep": {"queue": "housekeeping"},
    "battles.pass_deadlines": {"queue": "housekeeping"},
    "battles.apply_result": {"queue": "housekeeping"},
    "campaign.watch_deadlines": {"queue": "housekeeping"},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

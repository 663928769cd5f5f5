"""Settings for a deployed site: a real secret, a real database and broker are required."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import CELERY_TASK_ALWAYS_EAGER, SECRET_KEY
from .env import env_bool

DEBUG = False
if SECRET_KEY.startswith("dev-only"):
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set in production")
if CELERY_TASK_ALWAYS_EAGER:
    raise ImproperlyConfigured("REDIS_URL (or CELERY_BROKER_URL) must be set in production")
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

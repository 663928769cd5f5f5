"""Settings for running the product on a workstation (the README's first command)."""

from .base import *  # noqa: F403
from .env import env_bool

DEBUG = env_bool("DJANGO_DEBUG", True)
WHITENOISE_AUTOREFRESH = DEBUG  # a static file edited while the server runs is served as edited

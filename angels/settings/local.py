"""Settings for running the product on a workstation (the README's first command, bin/demo).

``DEBUG`` stays off, as in production: an unknown address or an error shows the product's
own page, never Django's technical page (URL list, settings, SQL). ``DJANGO_DEBUG=1``
turns it on for a developer. Static files are served by WhiteNoise either way.
"""

from .base import *  # noqa: F403
from .env import env_bool

DEBUG = env_bool("DJANGO_DEBUG", False)
# a static file edited while the server runs is served as edited (WhiteNoise looks each up)
WHITENOISE_AUTOREFRESH = True

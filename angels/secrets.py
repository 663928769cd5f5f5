"""Keys derived from the server's secret, one per purpose; never the raw secret.

A campaign's child seeds (its engine battles) are derived with such a key, so
a battle's seed, which its report shows, reveals nothing about the campaign's
seed (and so nothing about the card game's hands and deck order) to anyone
who lacks ``settings.SECRET_KEY``.
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

_DOMAIN = "angels seed key v1"


def seed_key(purpose: str) -> bytes:
    """A 32-byte key for keyed seed derivation (``rules.dice.derive_seed(key=...)``).

    HMAC-BLAKE2b of the domain and ``purpose`` under ``settings.SECRET_KEY``:
    a different purpose or secret gives an unrelated key, and the key does not
    reveal the secret.
    """
    if not purpose:
        raise ValueError("a seed key needs a purpose")
    secret = str(settings.SECRET_KEY).encode()
    message = f"{_DOMAIN}|{purpose}".encode()
    return hmac.new(secret, message, hashlib.blake2b).digest()[:32]

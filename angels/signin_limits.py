"""Password guessing limited per client address (issue 23).

Every check of a password counts here: the login form, the admin's, the API's
token endpoint and HTTP Basic (all through ``django.contrib.auth.authenticate``:
its ``user_login_failed`` signal records the failure and :class:`SignInLimitBackend`,
the project's one backend, refuses while the address waits), and the old password of a password change.
Password reset requests have a limit of their own (they mail, they check nothing).

An address may get ``ANGELS_SIGNIN_FAILURE_LIMIT`` wrong passwords in any
``ANGELS_SIGNIN_WINDOW_MINUTES``; then every attempt from it, the right password
included, is refused until the oldest of those failures is a window old. The
count is per address, whatever the username, and a refusal reads the same for
a name that exists and one that does not, so a lockout tells nothing about
accounts. A success does not wipe the count: with it, a guesser who owns one
account could sign in to it every few guesses and guess for ever.

The address is :func:`angels.throttling.client_address` (trusted proxies only).
The counts live in the default cache, like DRF's throttles: per web process
unless ``CACHES`` names a shared one (Redis) for several processes.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver

from .throttling import client_address

PASSWORD = "password"  # wrong passwords
RESET = "reset"  # password reset requests (each one counts)

_WHAT = {
    PASSWORD: "Too many wrong passwords from your address",
    RESET: "Too many password reset requests from your address",
}


def _limit(scope: str) -> tuple[int, float]:
    """(how many, in how many seconds) for ``scope``."""
    window = float(settings.ANGELS_SIGNIN_WINDOW_MINUTES) * 60
    if scope == RESET:
        return int(settings.ANGELS_PASSWORD_RESET_LIMIT), window
    return int(settings.ANGELS_SIGNIN_FAILURE_LIMIT), window


def _key(scope: str, request: Any) -> str:
    return f"angels:signin:{scope}:{client_address(request)}"


def _recent(scope: str, request: Any, now: float) -> list[float]:
    _, window = _limit(scope)
    return [t for t in cache.get(_key(scope, request), []) if t > now - window]


def wait_seconds(request: Any, scope: str = PASSWORD) -> int:
    """Seconds until the request's address may try again; 0 when it may now."""
    now = time.time()
    count, window = _limit(scope)
    recent = _recent(scope, request, now)
    if len(recent) < count:
        return 0
    return max(1, math.ceil(recent[-count] + window - now))


def record(request: Any, scope: str = PASSWORD) -> None:
    """Count one attempt (a wrong password; a reset request) from the request's address."""
    now = time.time()
    count, window = _limit(scope)
    recent = [*_recent(scope, request, now), now][-max(count, 1) :]
    cache.set(_key(scope, request), recent, timeout=math.ceil(window) + 1)


def refusal(wait: int, scope: str = PASSWORD) -> str:
    """The refusal in plain words, naming the wait in minutes."""
    minutes = max(1, math.ceil(wait / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return f"{_WHAT[scope]}: try again in {minutes} {unit}."


class SignInLimitBackend(ModelBackend):
    """Django's ModelBackend, refusing while the client's address waits: the password
    is then not checked at all, right or wrong. A call without a request (``manage.py``
    commands, the test client's ``login``) is not limited."""

    def authenticate(self, request: Any, username: Any = None, password: Any = None, **kwargs: Any):
        if request is not None and (wait := wait_seconds(request)):
            raise PermissionDenied(refusal(wait))  # authenticate() stops; no other backend
        return super().authenticate(request, username=username, password=password, **kwargs)


@receiver(user_login_failed, dispatch_uid="angels.signin_limits.count_failure")
def _count_failure(sender: Any, credentials: Any, request: Any = None, **kwargs: Any) -> None:
    """A wrong password (or unknown name) through ``authenticate()``: counted, unless the
    address already waits (a refused attempt checked no password)."""
    if request is not None and not wait_seconds(request):
        record(request)

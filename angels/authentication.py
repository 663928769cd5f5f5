"""HTTP Basic on the API with password guessing limited (issue 23): while the client's
address waits (angels.signin_limits) the answer is 429 in the API's error shape, with
``Retry-After``, and the password is not checked. Its own module, not angels.auth:
DRF imports the classes of ``DEFAULT_AUTHENTICATION_CLASSES`` while it builds its
views, and angels.auth is made of views."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions

from . import signin_limits


def refuse_while_waiting(request: Any) -> None:
    """Raise DRF's 429 (``Throttled``) when the request's address may not try a password now."""
    wait = signin_limits.wait_seconds(request)
    if wait:
        raise exceptions.Throttled(wait=wait, detail=signin_limits.refusal(wait))


class BasicAuthentication(authentication.BasicAuthentication):
    def authenticate_credentials(self, userid: str, password: str, request: Any = None) -> Any:
        if request is not None:
            refuse_while_waiting(request)
        return super().authenticate_credentials(userid, password, request)

"""URL path converters shared by every app's URLs.

``<id:pk>`` is Django's ``<int:pk>`` bounded to what a database id can hold: a number
beyond 64 bits (``/api/roster/pilots/99999999999999999999999/``) does not match, so the
address is a plain 404 instead of an ``OverflowError`` from the database driver (a 500).
Registered as ``id`` in angels/urls.py; every ``<int:`` in the apps' URLs is an ``<id:``
(tests/security/test_technical_pages.py checks).
"""

from __future__ import annotations

MAX_ID = 2**63 - 1  # the largest value of a signed 64-bit column (BigAutoField)


class BoundedIdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("beyond a 64-bit id")  # Django: no match, so a 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)

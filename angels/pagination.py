"""The API's pages (its own module: DRF's settings import it while angels.api loads)."""

from __future__ import annotations

import re
from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

_WHOLE_NUMBER = re.compile(r"[0-9]+")


class Pagination(LimitOffsetPagination):
    """Limit/offset pages of at most ``max_limit`` rows: an unbounded ``?limit=10**25``
    reached the database as an integer it cannot hold (a 500); now it is capped.

    A ``limit`` or ``offset`` that is not a whole number in range (``limit=0``,
    ``limit=-1``, ``limit=abc``, ``offset=-5``) is a 400 naming the parameter; DRF's
    own class silently answered the default page instead. An empty value is no value."""

    max_limit = 500

    def get_limit(self, request: Request) -> int | None:
        limit = _whole_number(
            request,
            self.limit_query_param,
            least=1,
            message=f"limit must be a whole number from 1 to {self.max_limit} "
            f"(a larger one gives pages of {self.max_limit})",
        )
        if limit is None:
            return self.default_limit
        return min(limit, self.max_limit) if self.max_limit else limit

    def get_offset(self, request: Request) -> int:
        offset = _whole_number(
            request,
            self.offset_query_param,
            least=0,
            message="offset must be a whole number, 0 or more (the rows to skip)",
        )
        return offset or 0

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """DRF's two parameters, with their least values (a smaller one is a 400)."""
        parameters = super().get_schema_operation_parameters(view)
        least = {self.limit_query_param: 1, self.offset_query_param: 0}
        for parameter in parameters:
            if parameter["name"] in least:
                parameter["schema"]["minimum"] = least[parameter["name"]]
        return parameters


def _whole_number(request: Request, name: str, *, least: int, message: str) -> int | None:
    """The query parameter ``name`` as a whole number of at least ``least``; None when
    it is absent or empty; a 400 naming it (``field`` is the parameter) otherwise."""
    raw = request.query_params.get(name, "")
    if raw == "":
        return None
    if not _WHOLE_NUMBER.fullmatch(raw):
        raise ValidationError({name: [message]}, code="range")
    # digits past any table's size read as that size: int() refuses over 4,300 of them
    digits = raw.lstrip("0")
    value = int(digits or "0") if len(digits) <= 40 else 10**40
    if value < least:
        raise ValidationError({name: [message]}, code="range")
    return value

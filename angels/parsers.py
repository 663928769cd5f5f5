"""The API's JSON parser: a body nested too deeply to read is a 400, not a 500; a body
larger than the server reads is a 413 in the API's error shape."""

from __future__ import annotations

import io
from typing import Any

from rest_framework import exceptions, status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as DRFJSONParser

DEEP_JSON = "JSON parse error - the body is nested too deeply to read"


def body_limit() -> int | None:
    """The most bytes of a request body the server reads (``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""
    from django.conf import settings

    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def too_large_detail() -> str:
    limit = body_limit()
    return (
        f"the request body is larger than this server reads: at most {limit:,} bytes "
        f"({limit / 1024 / 1024:.1f} MB)"
        if limit is not None
        else "the request body is larger than this server reads"
    )


class BodyTooLarge(exceptions.APIException):
    """A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: Django answered its own HTML 400 page
    (``RequestDataTooBig``); the API answers 413 in its one error shape, naming the limit."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self) -> None:
        super().__init__(too_large_detail(), self.default_code)


class JSONParser(DRFJSONParser):
    """DRF's JSON parser, plus: JSON nested deeper than Python's decoder can follow
    (``"[" * 5000``) raised RecursionError, which DRF does not turn into a ParseError
    as it does a ValueError, so every JSON endpoint answered 500, even signed out.
    Now it is a 400 in the API's one error shape (``code`` "parse_error")."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        # DRF reads the body as a stream, which Django does not limit (only request.body
        # checks DATA_UPLOAD_MAX_MEMORY_SIZE): read one byte past the limit, at most
        limit = body_limit()
        if limit is not None:
            body = stream.read(limit + 1)
            if len(body) > limit:
                raise BodyTooLarge()
            stream = io.BytesIO(body)
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(DEEP_JSON) from exc

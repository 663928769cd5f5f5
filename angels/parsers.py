"""The API's JSON parser: a body nested too deeply to read is a 400, not a 500."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as DRFJSONParser

DEEP_JSON = "JSON parse error - the body is nested too deeply to read"


class JSONParser(DRFJSONParser):
    """DRF's JSON parser, plus: JSON nested deeper than Python's decoder can follow
    (``"[" * 5000``) raised RecursionError, which DRF does not turn into a ParseError
    as it does a ValueError, so every JSON endpoint answered 500, even signed out.
    Now it is a 400 in the API's one error shape (``code`` "parse_error")."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(DEEP_JSON) from exc

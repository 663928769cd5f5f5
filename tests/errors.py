"""Reading the API's one error shape in tests."""

from __future__ import annotations

from typing import Any

from angels.errors import is_citation

ERROR_KEYS = {"detail", "field", "rule", "code", "errors"}


def reason(body: dict[str, Any]) -> str:
    """Why an input was refused: the rulebook citation if a rulebook rule was broken,
    else the kind of problem (``range``, ``exists``, ...). Checks the shape on the way."""
    assert set(body) == ERROR_KEYS, body
    assert body["errors"] and body["errors"][0] == {k: body[k] for k in ERROR_KEYS - {"errors"}}
    assert body["rule"] is None or is_citation(body["rule"]), body["rule"]
    return body["rule"] or body["code"]

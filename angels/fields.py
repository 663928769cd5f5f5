"""Model fields shared by the apps."""

from __future__ import annotations

import json
from typing import Any

from django.db import models


class OrderedJSONField(models.TextField):
    """JSON kept as text, so its objects keep their key order on every database.

    PostgreSQL's ``jsonb`` (behind ``JSONField``) reorders object keys; a game
    state whose behaviour follows the insertion order of its dicts (planes in
    play, for one) would then replay differently from how it was played.
    """

    # For the django-stubs plugin: it takes and gives any JSON value, as JSONField
    # does, not the str of the TextField it is stored in (annotations only).
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    def get_prep_value(self, value: Any) -> str | None:
        return None if value is None else json.dumps(value, separators=(",", ":"))

    def value_to_string(self, obj: Any) -> str:
        return self.get_prep_value(self.value_from_object(obj)) or ""

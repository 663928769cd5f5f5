"""The one domain exception of Angels.

Services raise :class:`RuleViolation` when input breaks a rule of the product
or of a rulebook. The DRF exception handler (``angels.api``) turns it into an
HTTP 400 naming the field and the rule; management commands print it.
"""

from __future__ import annotations


class RuleViolation(Exception):
    """Input that breaks a rule. Nothing has been stored when this is raised."""

    def __init__(self, message: str, *, field: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule

    def as_dict(self) -> dict[str, str]:
        data = {"detail": self.message}
        if self.field:
            data["field"] = self.field
        if self.rule:
            data["rule"] = self.rule
        return data

    def __str__(self) -> str:
        where = f"{self.field}: " if self.field else ""
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{where}{self.message}{rule}"

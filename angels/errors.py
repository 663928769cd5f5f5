"""The one domain exception of Angels.

Services raise :class:`RuleViolation` when input breaks a rule of the product
or of a rulebook. The DRF exception handler (``angels.api``) turns it into an
HTTP 400 in the one error shape (``detail``, ``field``, ``rule``, ``code``);
forms and management commands print it.

``rule`` is only ever a rulebook citation, in one format: the rulebook's file
number and the section heading as printed, ``000 'TAILING'`` or
``003 'MISSION PHASE'``. A product rule that no rulebook states (a number out
of range, an unknown id, a permission) has no ``rule``; its ``code`` says what
kind of problem it is.
"""

from __future__ import annotations

import re

from rules.citations import citation_words

CITATION = re.compile(r"^\d{3} '.+'$")
# the usual codes; DRF's own (min_value, invalid_choice, blank, ...) pass through too
CODES = ("invalid", "format", "range", "required", "exists", "permission", "state", "conflict")
CODE = re.compile(r"^[a-z][a-z_]*$")


def is_citation(rule: str) -> bool:
    """True for a rulebook citation such as ``000 'TAILING'``."""
    return bool(CITATION.match(rule))


class RuleViolation(Exception):
    """Input that breaks a rule. Nothing has been stored when this is raised."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        rule: str | None = None,
        code: str = "invalid",
    ) -> None:
        if rule is not None and not is_citation(rule):
            raise ValueError(
                f"rule must be a rulebook citation like \"000 'TAILING'\", not {rule!r}"
            )
        if not CODE.match(code):
            raise ValueError(f"an error code is a snake_case word such as {CODES}, not {code!r}")
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule
        self.code = code

    def as_dict(self) -> dict[str, str | None]:
        return {"detail": self.message, "field": self.field, "rule": self.rule, "code": self.code}

    @property
    def rule_words(self) -> str:
        """The rule as a page says it: "rulebook 003, Mission phase" ("" without one)."""
        return citation_words(self.rule) if self.rule else ""

    def __str__(self) -> str:
        """As a page or a command says it: the rule in words ("rulebook 003, Mission
        phase"), never its code (issue 24 §7); the API gives ``rule`` as a citation."""
        where = f"{self.field}: " if self.field else ""
        rule = f" ({self.rule_words})" if self.rule else ""
        return f"{where}{self.message}{rule}"

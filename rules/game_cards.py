"""One game's aircraft card as data: a schema of fields and the one check of a block.

Every game keeps its own card schema in its own package (``rules.airpirates.card``,
``rules.airforce.card``); this module is the shape they share, so a block of any
game is checked the same way by the catalog loader, the admin and the API.

A block is either a card::

    {"values": {"defence_factor": 4, ...},
     "provenance": {"defence_factor": {"kind": "printed", "source": "002 ..."}, ...}}

or, where a type has no card in that game, the reason why: ``{"reason": "..."}``.
Every value carries its provenance: printed (a rulebook states it) or estimated (a
formula of docs/rulings.md from historical facts), and where it comes from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

KINDS = ("printed", "estimated")


@dataclass(frozen=True)
class CardField:
    """One field of a card: its type (``int``, ``bool`` or ``choice``), range and rule."""

    name: str
    kind: str
    rule: str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    help: str = ""

    def problem(self, value: Any) -> str | None:
        """Why ``value`` cannot stand in this field, or None."""
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"{value!r} is not true or false"
        if self.kind == "choice":
            if value in self.choices:
                return None
            return f"{value!r} is not one of {', '.join(self.choices)}"
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{value!r} is not a whole number"
        if not self.low <= value <= self.high:
            return f"{value} is outside {self.low}..{self.high}"
        return None

    def parse(self, raw: str) -> Any:
        """A value from its text in a catalog file (``yes``/``no`` for true or false)."""
        if self.kind == "bool":
            return {"yes": True, "no": False}.get(raw.strip().lower(), raw)
        if self.kind == "choice":
            return raw.strip().lower()
        try:
            return int(raw)
        except ValueError:
            return raw


@dataclass(frozen=True)
class CardProblem:
    """A refused value: the path inside the block (``values.defence_factor``), why, the rule."""

    path: str
    message: str
    rule: str | None = None


CrossCheck = Callable[[Mapping[str, Any]], list[CardProblem]]


@dataclass(frozen=True)
class CardSchema:
    """A game's card: its fields in printed order, plus checks across fields."""

    game: str
    title: str
    fields: tuple[CardField, ...]
    cross_checks: tuple[CrossCheck, ...] = field(default=())

    def field_named(self, name: str) -> CardField | None:
        return next((f for f in self.fields if f.name == name), None)

    def check(self, block: Any) -> list[CardProblem]:
        """Every problem of one block (empty when it may be stored)."""
        if not isinstance(block, dict):
            return [CardProblem("", "a card (values and provenance) or a reason")]
        if "reason" in block:
            return _check_reason(block)
        extra = sorted(set(block) - {"values", "provenance"})
        if extra:
            return [CardProblem(extra[0], "not part of a card (values, provenance)")]
        values, provenance = block.get("values"), block.get("provenance")
        if not isinstance(values, dict):
            return [CardProblem("values", "the card's values, by field name")]
        if not isinstance(provenance, dict):
            return [CardProblem("provenance", "where each value comes from, by field name")]
        problems = self._check_values(values)
        problems += _check_provenance(values, provenance)
        if not problems:
            for cross in self.cross_checks:
                problems += cross(values)
        return problems

    def _check_values(self, values: Mapping[str, Any]) -> list[CardProblem]:
        problems = []
        for name in sorted(set(values) - {f.name for f in self.fields}):
            problems.append(CardProblem(f"values.{name}", f"not a field of the {self.title}"))
        for spec in self.fields:
            if spec.name not in values:
                problems.append(CardProblem(f"values.{spec.name}", "missing", spec.rule))
                continue
            message = spec.problem(values[spec.name])
            if message:
                problems.append(CardProblem(f"values.{spec.name}", message, spec.rule))
        return problems


def _check_reason(block: Mapping[str, Any]) -> list[CardProblem]:
    if set(block) != {"reason"}:
        return [CardProblem("reason", "a type without a card has only the reason")]
    if not isinstance(block["reason"], str) or not block["reason"].strip():
        return [CardProblem("reason", "say why the type has no card in this game")]
    return []


def _check_provenance(
    values: Mapping[str, Any], provenance: Mapping[str, Any]
) -> list[CardProblem]:
    problems = []
    for name in sorted(set(provenance) - set(values)):
        problems.append(CardProblem(f"provenance.{name}", "no such value on the card"))
    for name in values:
        entry = provenance.get(name)
        at = f"provenance.{name}"
        if not isinstance(entry, dict) or set(entry) != {"kind", "source"}:
            problems.append(CardProblem(at, "each value says its kind and source"))
        elif entry["kind"] not in KINDS:
            problems.append(
                CardProblem(f"{at}.kind", f"{entry['kind']!r} is not printed or estimated")
            )
        elif not isinstance(entry["source"], str) or not entry["source"].strip():
            problems.append(CardProblem(f"{at}.source", "say where the value comes from"))
    return problems


def ordered(lower: str, higher: str, rule: str) -> CrossCheck:
    """A cross check: ``values[lower] <= values[higher]``."""

    def check(values: Mapping[str, Any]) -> list[CardProblem]:
        if values[lower] <= values[higher]:
            return []
        return [
            CardProblem(
                f"values.{lower}",
                f"{values[lower]} is above the {higher.replace('_', ' ')} ({values[higher]})",
                rule,
            )
        ]

    return check

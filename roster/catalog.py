"""The aircraft catalog that ships with the product, and its loader.

Files in ``rules/catalog/``:

- ``angels20_aircraft.csv``: the 31 Angels 20 cards and the two bomber tokens
  (from ``shared/data/angels20_aircraft.tsv``; blanks filled by documented
  estimates, named per row in ``estimated_fields``);
- ``card_game_planes.csv``: both plane decks of the card game, exactly as
  listed in 003 "ALLIED PLANE DECK CARD LIST" / "LUFTWAFFEN PLANE DECK CARD LIST";
- ``card_game_tactical.csv``: the estimated tactical card of each of those
  planes (docs/rulings.md, "Aircraft catalog");
- ``airpirates_cards.csv`` / ``airforce_cards.csv``: every type's *Air Pirates* control
  card and *Air Force* data card, one value a line with its kind (printed or estimated)
  and source, written by ``python -m rules.build_game_cards`` (docs/rulings.md);
- ``airpirates_named_types.csv`` / ``airpirates_named_cards.csv``: the 24 aircraft *Air
  Pirates* (002) names by its own names (the CR.42, the Nate ...), each a type with its
  facts, an estimated Angels 20 card and its estimated control card, written by the same
  command (ruling "Air Pirates: the aircraft 002 names as roster types").

:func:`catalog_load` validates every row before it writes anything, and
writes in one transaction: a bad row stops the load with the file, line and
field named, and the database is left as it was.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

import rules
from angels.errors import RuleViolation
from rules.angels20.aircraft import TACTICAL_COLUMNS as CARD_COLUMNS
from rules.angels20.aircraft import CardFieldError, card_fields

from .game_cards import SCHEMAS
from .models import (
    TACTICAL_FIELDS,
    AircraftType,
    CardType,
    CatalogOrigin,
    Deck,
    Side,
)

CATALOG_DIR = Path(rules.__file__).resolve().parent / "catalog"
ANGELS20_FILE = "angels20_aircraft.csv"
CARD_GAME_FILE = "card_game_planes.csv"
CARD_GAME_TACTICAL_FILE = "card_game_tactical.csv"

TACTICAL_COLUMNS = (*CARD_COLUMNS, "estimated_fields")
ANGELS20_COLUMNS = ("name", "side", *TACTICAL_COLUMNS, "source")
CARD_GAME_COLUMNS = (
    "name",
    "side",
    "deck",
    "card_type",
    "copies",
    "af",
    "sf",
    "gf",
    "night_fighter",
    "source",
)
CARD_GAME_TACTICAL_COLUMNS = ("name", *TACTICAL_COLUMNS, "basis")
NAMED_TYPES_FILE = "airpirates_named_types.csv"  # the aircraft 002 names (same columns)
# Issue 25: the other games' cards, one value a line (rules/build_game_cards.py writes them).
GAME_CARD_FILES = {
    "airpirates": ("airpirates_cards.csv", "airpirates_named_cards.csv"),
    "airforce": ("airforce_cards.csv",),
}
GAME_CARD_COLUMNS = ("name", "field", "value", "kind", "source")

# The columns of a catalog file that may name an estimated model field.
_ESTIMABLE = {*TACTICAL_FIELDS, "nation", "year", "kind", "side"}
_COLUMN_TO_FIELD = {"pilot": "pilot_quality"}


class CatalogError(RuleViolation):
    """A catalog row that cannot be loaded; names the file, line and field."""

    def __init__(self, path: Path | str, line: int, column: str, message: str) -> None:
        self.path = Path(path)
        self.line = line
        self.column = column
        super().__init__(
            f"{self.path.name}, line {line}, field '{column}': {message}",
            field=column,
            code="state",
        )


@dataclass
class CatalogReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    differing: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.created) + len(self.updated) + len(self.unchanged) + len(self.differing)


# -- reading and checking rows --------------------------------------------------
def _read(path: Path, columns: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    if not path.exists():
        raise CatalogError(path, 0, "-", "file not found")
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in columns if c not in (reader.fieldnames or [])]
        if missing:
            raise CatalogError(path, 1, missing[0], "column missing from the header")
        for row in reader:
            line = reader.line_num
            if None in row:
                raise CatalogError(path, line, "-", "more values than columns")
            yield line, {k: (v or "").strip() for k, v in row.items()}


class _Row:
    """Typed access to one CSV row; each failure names the file, line and column."""

    def __init__(self, path: Path, line: int, data: dict[str, str]) -> None:
        self.path, self.line, self.data = path, line, data

    def fail(self, column: str, message: str) -> CatalogError:
        return CatalogError(self.path, self.line, column, message)

    def text(self, column: str, *, required: bool = True) -> str:
        value = self.data.get(column, "")
        if required and not value:
            raise self.fail(column, "a value is required")
        return value

    def integer(
        self, column: str, *, required: bool = True, low: int = 0, high: int = 100
    ) -> int | None:
        raw = self.data.get(column, "")
        if raw in ("", "-"):
            if required:
                raise self.fail(column, "a value is required")
            return None
        try:
            value = int(raw)
        except ValueError:
            raise self.fail(column, f"{raw!r} is not a whole number") from None
        if not low <= value <= high:
            raise self.fail(column, f"{value} is outside {low}..{high}")
        return value

    def choice(
        self, column: str, choices: Iterable[str], *, normalise: Callable[[str], str] = str.lower
    ) -> str:
        raw = self.text(column)
        value = normalise(raw)
        allowed = list(choices)
        if value not in allowed:
            raise self.fail(column, f"{raw!r} is not one of {', '.join(allowed)}")
        return value

    def names(self, column: str) -> list[str]:
        return [part.strip() for part in self.data.get(column, "").split(";") if part.strip()]


def _side(row: _Row) -> str:
    raw = row.text("side")
    if raw.lower() in ("either", "any"):
        return ""
    return row.choice("side", Side.values)


def _tactical(row: _Row) -> dict[str, Any]:
    """The tactical columns, read and checked by the engine's own reader (one mapping)."""
    try:
        card = card_fields(row.data)
    except CardFieldError as exc:
        raise row.fail(exc.column, exc.message) from None
    values = {_COLUMN_TO_FIELD.get(k, k): v for k, v in card.items()}
    estimated = []
    for name in row.names("estimated_fields"):
        model_field = _COLUMN_TO_FIELD.get(name, name)
        if model_field not in _ESTIMABLE:
            raise row.fail("estimated_fields", f"{name!r} is not a catalog field")
        estimated.append(model_field)
    values["estimated_fields"] = sorted(set(estimated))
    return values


def card_columns(aircraft_type: AircraftType) -> dict[str, Any]:
    """An aircraft type's tactical values keyed by catalog column, for the engine's
    :func:`rules.angels20.aircraft.stats_from_fields`."""
    return {c: getattr(aircraft_type, _COLUMN_TO_FIELD.get(c, c)) for c in CARD_COLUMNS}


def read_catalog(directory: Path = CATALOG_DIR) -> list[dict[str, Any]]:
    """Read and validate the whole catalog; return model field values for every type."""
    types: dict[str, dict[str, Any]] = {}
    _typed_rows(directory / ANGELS20_FILE, CatalogOrigin.ANGELS20, types)

    deck_path = directory / CARD_GAME_FILE
    deck: dict[str, dict[str, Any]] = {}
    for line, data in _read(deck_path, CARD_GAME_COLUMNS):
        row = _Row(deck_path, line, data)
        name = row.text("name")
        if name in types or name in deck:
            raise row.fail("name", f"{name!r} appears twice")
        deck[name] = {
            "name": name,
            "side": _side(row),
            "deck": row.choice("deck", Deck.values),
            "card_type": row.choice("card_type", CardType.values, normalise=str.upper),
            "deck_copies": row.integer("copies", low=1, high=20),
            "card_af": row.integer("af", low=1, high=10),
            "card_sf": row.integer("sf", required=False, low=1, high=10),
            "card_gf": row.integer("gf", required=False, low=1, high=10),
            "night_fighter": row.choice("night_fighter", ("yes", "no")) == "yes",
            "origin": CatalogOrigin.CARD_GAME,
            "source": row.text("source"),
        }

    tactical_path = directory / CARD_GAME_TACTICAL_FILE
    seen: set[str] = set()
    for line, data in _read(tactical_path, CARD_GAME_TACTICAL_COLUMNS):
        row = _Row(tactical_path, line, data)
        name = row.text("name")
        if name not in deck:
            raise row.fail("name", f"{name!r} is not a plane of {CARD_GAME_FILE}")
        if name in seen:
            raise row.fail("name", f"{name!r} appears twice")
        seen.add(name)
        deck[name].update(_tactical(row))
        deck[name]["source"] += f"; tactical card estimated: {row.text('basis')}"
    missing = sorted(set(deck) - seen)
    if missing:
        raise CatalogError(tactical_path, 0, "name", f"no tactical card for {missing[0]!r}")
    types.update(deck)

    _typed_rows(directory / NAMED_TYPES_FILE, CatalogOrigin.AIR_PIRATES, types)
    for game, file_names in GAME_CARD_FILES.items():
        blocks = _read_game_cards([directory / f for f in file_names], game, types)
        for name, block in blocks.items():
            types[name].setdefault("game_cards", {})[game] = block
    return list(types.values())


def _typed_rows(path: Path, origin: CatalogOrigin, types: dict[str, dict[str, Any]]) -> None:
    """Add to ``types`` the types of a file in the Angels 20 columns (Angels 20's own
    types, or Air Pirates' named ones), each with ``origin``; a name already in
    ``types`` (from this file or one read before) is refused."""
    for line, data in _read(path, ANGELS20_COLUMNS):
        row = _Row(path, line, data)
        name = row.text("name")
        if name in types:
            raise row.fail("name", f"{name!r} appears twice")
        types[name] = {
            "name": name,
            "side": _side(row),
            **_tactical(row),
            "origin": origin,
            "source": row.text("source"),
        }


def _game_card_rows(paths: list[Path]) -> Iterator[tuple[Path, int, dict[str, str]]]:
    for path in paths:
        for line, data in _read(path, GAME_CARD_COLUMNS):
            yield path, line, data


def _read_game_cards(
    paths: list[Path], game: str, types: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """One game's cards by type name, from its files in turn, each value checked by the
    game's schema in rules/; a bad value names the file, line and field (and the rule).
    Every type has a card or a ``reason`` line."""
    schema = SCHEMAS[game]
    blocks: dict[str, dict[str, Any]] = {}
    lines: dict[tuple[str, str], tuple[Path, int]] = {}
    for path, line, data in _game_card_rows(paths):
        row = _Row(path, line, data)
        name, field_name = row.text("name"), row.text("field")
        if name not in types:
            raise row.fail("name", f"{name!r} is not an aircraft type of the catalog")
        if (name, field_name) in lines:
            raise row.fail("field", f"{field_name!r} of {name!r} appears twice")
        lines[(name, field_name)] = (path, line)
        if field_name == "reason":
            blocks[name] = {"reason": row.text("value")}
            continue
        spec = schema.field_named(field_name)
        if spec is None:
            raise row.fail("field", f"{field_name!r} is not a field of the {schema.title}")
        block = blocks.setdefault(name, {"values": {}, "provenance": {}})
        block["values"][field_name] = spec.parse(row.text("value"))
        block["provenance"][field_name] = {"kind": data["kind"], "source": data["source"]}
    for name in types:
        if name not in blocks:
            raise CatalogError(
                paths[0], 0, "name", f"no {schema.title} (nor a reason) for {name!r}"
            )
        problems = schema.check(blocks[name])
        if problems:
            first = problems[0]
            parts = first.path.split(".")  # values.<field> or provenance.<field>[.kind]
            field_name = parts[1] if len(parts) > 1 else parts[0]
            path, line = lines.get((name, field_name), lines.get((name, "reason"), (paths[0], 0)))
            if parts[0] == "provenance":
                field_name = f"{field_name}.{parts[2] if len(parts) > 2 else 'kind'}"
            rule = f" [{first.rule}]" if first.rule else ""
            raise CatalogError(path, line, field_name, f"{name}: {first.message}{rule}")
    return blocks


# -- writing ----------------------------------------------------------------------
def _add_missing_game_cards(
    current: AircraftType, values: dict[str, Any], report: CatalogReport
) -> None:
    """A game's card the type does not have yet is added (no organiser edit is lost);
    a card it has is kept, like every other edited value, unless ``--reset``."""
    have = current.game_cards if isinstance(current.game_cards, dict) else {}
    missing = {g: b for g, b in values.get("game_cards", {}).items() if g not in have}
    if missing:
        current.game_cards = {**have, **missing}
        _validate_instance(values, current)
        current.save(update_fields=["game_cards"])


def _validate_instance(values: dict[str, Any], instance: AircraftType) -> None:
    try:
        instance.full_clean(validate_unique=False)
    except ValidationError as exc:
        field_name, messages = next(iter(exc.message_dict.items()))
        raise RuleViolation(
            f"{values['name']}: {'; '.join(messages)}", field=field_name, code="state"
        ) from exc


def catalog_load(*, directory: Path = CATALOG_DIR, reset: bool = False) -> CatalogReport:
    """Load the shipped catalog. Idempotent: a second run changes nothing.

    Types missing from the database are created. A type the organiser has
    edited is left as it is (listed in ``differing``) unless ``reset`` is set,
    which restores the shipped values. Everything happens in one transaction.
    """
    rows = read_catalog(directory)
    report = CatalogReport()
    with transaction.atomic():
        existing = {
            t.name: t
            for t in AircraftType.objects.select_for_update().filter(
                name__in=[r["name"] for r in rows]
            )
        }
        for values in rows:
            current = existing.get(values["name"])
            if current is None:
                instance = AircraftType(**values)
                _validate_instance(values, instance)
                instance.save()
                report.created.append(values["name"])
                continue
            _add_missing_game_cards(current, values, report)
            changed = {k: v for k, v in values.items() if getattr(current, k) != v}
            if not changed:
                report.unchanged.append(values["name"])
            elif reset:
                for key, value in changed.items():
                    setattr(current, key, value)
                _validate_instance(values, current)
                current.save(update_fields=list(changed))
                report.updated.append(values["name"])
            else:
                report.differing.append(values["name"])
    return report

"""The stat cards: the product's shipped catalog, read without Django.

``rules/catalog/angels20_aircraft.csv`` is the one aircraft table: the 31
Angels 20 cards and the two bomber tokens, each row citing its source and
naming its estimated fields (ruling "One aircraft table" in docs/rulings.md).
This module turns its rows into :class:`AircraftStats`; :data:`CATALOGUE`
is that file, by card name. The roster's loader checks the same rows with
:func:`card_fields`, and the battles app maps the database's rows to the
engine with :func:`stats_from_fields`, so the mapping is written once.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .abilities import unknown_ability_message
from .stats import AIRCRAFT_KINDS, PILOT_QUALITIES, AircraftStats

CATALOG_DIR = Path(__file__).resolve().parents[1] / "catalog"
ANGELS20_FILE = "angels20_aircraft.csv"

# The tactical columns of the catalog files, in the order they are checked.
TACTICAL_COLUMNS = (
    "nation", "year", "kind", "cost", "pilot", "speed_min", "speed_max", "high_speed_min",
    "high_speed_max", "attack_1", "attack_2", "attack_3", "armor", "vital_armor", "hits", "turn",
    "roll", "climb", "dive", "abilities",
)  # fmt: skip

# The catalog's kinds are the engine's, but for the bomber tokens: 000 "BOMBER STATS"
# makes the He 111 tokens medium bombers (ruling "Bomber classes").
BOMBER_TOKEN = "bomber token"
CATALOG_KINDS = (*AIRCRAFT_KINDS, BOMBER_TOKEN)
_ENGINE_KIND = {BOMBER_TOKEN: "medium bomber"}

# column: (low, high, required) for every whole-number column.
_INTEGERS: dict[str, tuple[int, int, bool]] = {
    "year": (1930, 1950, False),
    "cost": (1, 200, True),
    "speed_min": (1, 10, True),
    "speed_max": (1, 10, True),
    "high_speed_min": (1, 12, False),
    "high_speed_max": (1, 12, False),
    "attack_1": (0, 20, True),
    "attack_2": (0, 20, True),
    "attack_3": (0, 20, True),
    "armor": (1, 20, True),
    "vital_armor": (1, 20, True),
    "hits": (1, 20, True),
    "turn": (0, 10, True),
    "roll": (0, 10, True),
    "climb": (0, 10, True),
    "dive": (0, 10, True),
}


class CardFieldError(ValueError):
    """One column of a catalog row that cannot be read; names the column."""

    def __init__(self, column: str, message: str) -> None:
        self.column = column
        self.message = message
        super().__init__(f"field '{column}': {message}")


def _integer(row: Mapping[str, str], column: str) -> int | None:
    low, high, required = _INTEGERS[column]
    raw = (row.get(column) or "").strip()
    if raw in ("", "-"):
        if required:
            raise CardFieldError(column, "a value is required")
        return None
    try:
        value = int(raw)
    except ValueError:
        raise CardFieldError(column, f"{raw!r} is not a whole number") from None
    if not low <= value <= high:
        raise CardFieldError(column, f"{value} is outside {low}..{high}")
    return value


def _choice(row: Mapping[str, str], column: str, allowed: tuple[str, ...]) -> str:
    raw = (row.get(column) or "").strip()
    if not raw:
        raise CardFieldError(column, "a value is required")
    if raw.lower() not in allowed:
        raise CardFieldError(column, f"{raw!r} is not one of {', '.join(allowed)}")
    return raw.lower()


def card_fields(row: Mapping[str, str]) -> dict[str, Any]:
    """The tactical columns of one catalog row, read and checked, keyed by column.

    Raises :class:`CardFieldError` naming the first bad column. ``abilities``
    is a list of names, each one the engine implements (never a silent no-op).
    """
    nation = (row.get("nation") or "").strip()
    if not nation:
        raise CardFieldError("nation", "a value is required")
    values: dict[str, Any] = {"nation": nation, "year": _integer(row, "year")}
    values["kind"] = _choice(row, "kind", CATALOG_KINDS)
    values["cost"] = _integer(row, "cost")
    values["pilot"] = _choice(row, "pilot", PILOT_QUALITIES)
    for column in TACTICAL_COLUMNS[5:-1]:
        values[column] = _integer(row, column)
    values["abilities"] = [a.strip() for a in (row.get("abilities") or "").split(";") if a.strip()]
    _check_card(values)
    return values


def _check_card(values: Mapping[str, Any]) -> None:
    if values["speed_min"] > values["speed_max"]:
        raise CardFieldError("speed_max", "the top of the speed range is below its bottom")
    if (values["high_speed_min"] is None) != (values["high_speed_max"] is None):
        raise CardFieldError("high_speed_max", "give both ends of the high-speed range, or neither")
    if values["high_speed_min"] is not None and values["high_speed_min"] <= values["speed_max"]:
        raise CardFieldError("high_speed_min", "high speed must start above the normal speed range")
    if values["vital_armor"] <= values["armor"]:
        raise CardFieldError("vital_armor", "vital armor must be higher than armor")
    for name in values["abilities"]:
        message = unknown_ability_message(name)
        if message is not None:
            raise CardFieldError("abilities", message)


def stats_from_fields(name: str, values: Mapping[str, Any]) -> AircraftStats:
    """The engine's stat card from catalog values keyed by column (see :data:`TACTICAL_COLUMNS`)."""
    return AircraftStats(
        name=name,
        nation=values["nation"],
        kind=_ENGINE_KIND.get(values["kind"], values["kind"]),
        cost=values["cost"],
        pilot=values["pilot"],
        speed_min=values["speed_min"],
        speed_max=values["speed_max"],
        high_speed_min=values["high_speed_min"],
        high_speed_max=values["high_speed_max"],
        attack=(values["attack_1"], values["attack_2"], values["attack_3"]),
        armor=values["armor"],
        vital_armor=values["vital_armor"],
        hits=values["hits"],
        turn=values["turn"],
        roll=values["roll"],
        climb=values["climb"],
        dive=values["dive"],
        abilities=tuple(values["abilities"]),
        year=values["year"],
    )


def catalog_rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, row) of a catalog CSV file, every value stripped."""
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        for row in reader:
            if None in row:
                raise CardFieldError(
                    "-", f"{path.name}, line {reader.line_num}: more values than columns"
                )
            yield reader.line_num, {k: (v or "").strip() for k, v in row.items()}


def read_cards(path: Path = CATALOG_DIR / ANGELS20_FILE) -> dict[str, AircraftStats]:
    """Every stat card of a catalog file, by name."""
    cards: dict[str, AircraftStats] = {}
    for line, row in catalog_rows(path):
        try:
            cards[row["name"]] = stats_from_fields(row["name"], card_fields(row))
        except CardFieldError as exc:
            raise CardFieldError(exc.column, f"{path.name}, line {line}: {exc.message}") from exc
    return cards


CATALOGUE: dict[str, AircraftStats] = read_cards()


def medium_bomber(nation: str) -> AircraftStats:
    """The Bomber Escort scenario's bomber token, flying for ``nation``."""
    d = CATALOGUE["Medium bomber token"].to_json()
    d["nation"] = nation
    return AircraftStats.from_json(d)

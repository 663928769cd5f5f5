"""Pilot characteristics for a new pilot: Vision, Reflex, Training, Experience.

Source: ``001_51eb6fd84fe43c42.txt`` section XIX, PILOT CHARACTERISTICS,
"Characteristics Determination", and the PILOT CHARACTERISTICS DETERMINATION
TABLE (OPT) printed on the charts page (scan lines ~1905-1925). The scan
garbles the table; :data:`DETERMINATION_TABLE` and :data:`NATION_COLUMNS` are
the reconstruction written down in ``docs/rulings.md``.

Procedure (001 XIX): decide the pilot's nationality and the year, roll a d6 on
the matching column; the letter codes are the characteristics (E Experience,
T Training, TT doubled Training, R Reflex, V Vision, "•" none). If E is shown,
roll again: a 1 makes the pilot an Ace.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.dice import Dice, Roll

# The table as reconstructed. Columns 1 (best trained) to 4 (worst); rows die 1-6.
#   Die  col 1   col 2   col 3   col 4
#   1    ETTRV   ETTRV   ETRV    ETR
#   2    ETRV    ETRV    ETR     T
#   3    ETTR    TR      T       RV
#   4    ETT     ET      RV      R
#   5    RV      RV      R       -
#   6    -       -       -       -
# Row 6 is printed as a single "•" in the scan; every column is read as "none".
DETERMINATION_TABLE: dict[int, tuple[str, str, str, str]] = {
    1: ("ETTRV", "ETTRV", "ETRV", "ETR"),
    2: ("ETRV", "ETRV", "ETR", "T"),
    3: ("ETTR", "TR", "T", "RV"),
    4: ("ETT", "ET", "RV", "R"),
    5: ("RV", "RV", "R", ""),
    6: ("", "", "", ""),
}

# Column headers as printed (GERMANY / AMERICA / BRITAIN rows); the first cell
# of the Germany and America rows is illegible ("Survey then") and is read as
# Germany 1939-'42 and America 1944-'45.
#   col 1: Germany 1939-'42 | America 1944-'45     | Britain 1939 & late '42-'45
#   col 2: Germany early '43 | America late '42-'43 | Britain 1940-early '42
#   col 3: Germany late '43-'44 | America early '42 (and before)
#   col 4: Germany 1945
#
# Each schedule: ((year, half), column) from that half-year on; half 0 = early
# (January-June), 1 = late (July-December). Nations not in the printed table
# are rulings (docs/rulings.md "Characteristics columns for other nations").
_Schedule = tuple[tuple[tuple[int, int], int], ...]

_BRITAIN: _Schedule = (((0, 0), 1), ((1940, 0), 2), ((1942, 1), 1))
_AMERICA: _Schedule = (((0, 0), 3), ((1942, 1), 2), ((1944, 0), 1))
_GERMANY: _Schedule = (((0, 0), 1), ((1943, 0), 2), ((1943, 1), 3), ((1945, 0), 4))

NATION_COLUMNS: dict[str, _Schedule] = {
    "Germany": _GERMANY,
    "United States": _AMERICA,
    "United Kingdom": _BRITAIN,
    "Italy": (((0, 0), 1), ((1942, 0), 2), ((1943, 0), 3)),
    "Japan": (((0, 0), 1), ((1942, 1), 2), ((1944, 0), 3), ((1945, 0), 4)),
    "Soviet Union": (((0, 0), 3), ((1943, 0), 2)),
    "France": (((0, 0), 1), ((1941, 0), 2), ((1942, 1), 1)),
    "Poland": (((0, 0), 1), ((1940, 0), 2), ((1942, 1), 1)),
    "China": (((0, 0), 3), ((1944, 0), 2)),
    "Finland": (((0, 0), 1), ((1944, 0), 2)),
}
OTHER_NATION: _Schedule = (((0, 0), 2),)

ALIASES: dict[str, str] = {
    "britain": "United Kingdom",
    "great britain": "United Kingdom",
    "uk": "United Kingdom",
    "england": "United Kingdom",
    "australia": "United Kingdom",
    "canada": "United Kingdom",
    "new zealand": "United Kingdom",
    "south africa": "United Kingdom",
    "america": "United States",
    "usa": "United States",
    "us": "United States",
    "united states of america": "United States",
    "ussr": "Soviet Union",
    "russia": "Soviet Union",
    "german": "Germany",
}


def table_nation(nation: str) -> str:
    """The product nation name whose schedule applies, or ``"other"``."""
    key = nation.strip()
    for name in NATION_COLUMNS:
        if name.lower() == key.lower():
            return name
    return ALIASES.get(key.lower(), "other")


def table_column(nation: str, year: int, month: int | None = None) -> int:
    """Column (1-4) of the determination table for a nation and a date.

    ``month`` 1-6 is "early", 7-12 "late"; without a month the year's early
    half is used (ruling). Years before 1939 read as 1939, after 1945 as 1945.
    """
    if month is not None and not 1 <= month <= 12:
        raise ValueError(f"month must be 1-12, not {month!r}")
    year = min(max(int(year), 1939), 1945)
    half = 1 if month is not None and month >= 7 else 0
    name = table_nation(nation)
    schedule = NATION_COLUMNS.get(name, OTHER_NATION)
    column = schedule[0][1]
    for start, col in schedule:
        if (year, half) >= start:
            column = col
    return column


@dataclass(frozen=True, slots=True)
class Characteristics:
    """A pilot's characteristics (001 XIX). ``training`` is 0, 1 (T) or 2 (TT);
    ``ace`` is set by an E followed by a 1."""

    vision: bool = False
    reflex: bool = False
    training: int = 0
    experience: bool = False
    ace: bool = False

    def __post_init__(self) -> None:
        if self.training not in (0, 1, 2):
            raise ValueError("training is 0, 1 (T) or 2 (TT)")

    @classmethod
    def from_code(cls, code: str, *, ace: bool = False) -> Characteristics:
        code = code.strip().upper()
        if code in ("", "•", "-"):
            return cls(ace=ace)
        unknown = set(code) - set("ETRV")
        if unknown:
            raise ValueError(f"unknown characteristic letters {sorted(unknown)} in {code!r}")
        return cls(
            vision="V" in code,
            reflex="R" in code,
            training=min(code.count("T"), 2),
            experience="E" in code,
            ace=ace,
        )

    @property
    def code(self) -> str:
        """The table's letter code, e.g. ``"ETTRV"``; ``"•"`` for none."""
        text = ("E" if self.experience else "") + "T" * self.training
        text += ("R" if self.reflex else "") + ("V" if self.vision else "")
        return text or "•"


@dataclass(frozen=True, slots=True)
class CharacteristicsRoll:
    """A determination: what was rolled on which column, and the rolls."""

    characteristics: Characteristics
    nation: str
    table_nation: str
    year: int
    month: int | None
    column: int
    rolls: tuple[Roll, ...]
    explanation: str

    @property
    def rolls_json(self) -> list[list[Any]]:
        return [roll.to_json() for roll in self.rolls]

    # Pass-throughs, so a determination can be given wherever characteristics are.
    @property
    def experience(self) -> bool:
        return self.characteristics.experience

    @property
    def ace(self) -> bool:
        return self.characteristics.ace


def roll_characteristics(
    nation: str, year: int, *, dice: Dice, month: int | None = None
) -> CharacteristicsRoll:
    """Roll a new pilot's characteristics (001 XIX "Characteristics Determination")."""
    column = table_column(nation, year, month)
    rolls: list[Roll] = []

    def roll(purpose: str) -> int:
        value = dice.roll(6, purpose)
        rolls.append(Roll(purpose, 6, value))
        return value

    die = roll(f"pilot characteristics (column {column})")
    code = DETERMINATION_TABLE[die][column - 1]
    text = f"{nation} {year}: d6={die} on column {column}: {code or '•'}"
    ace = False
    if "E" in code:
        again = roll("experience re-roll (1 = Ace)")
        ace = again == 1
        text += f"; E re-roll d6={again}: " + ("Ace" if ace else "not an Ace")
    return CharacteristicsRoll(
        characteristics=Characteristics.from_code(code, ace=ace),
        nation=nation,
        table_nation=table_nation(nation),
        year=year,
        month=month,
        column=column,
        rolls=tuple(rolls),
        explanation=text + ".",
    )

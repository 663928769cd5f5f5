"""Historical performance of an aircraft (``shared/data/aircraft_facts.tsv``), typed.

Facts, not game values: the estimates of each game's card (``rules.airpirates.estimate``,
``rules.airforce.estimate``) read them. A blank column is ``None``; nothing is guessed
here. The armament text is read into guns by calibre and position.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

# calibre classes of 002 13a2 (and 001's gun factors): small MG, heavy MG, 20 mm, 30/37 mm
SMALL, HEAVY, CANNON, BIG = "small", "heavy", "cannon", "big"
FORWARD, REAR, OBLIQUE = "forward", "rear", "oblique"

_CALIBRES = (
    (BIG, re.compile(r"\b(30|37) ?mm")),
    (CANNON, re.compile(r"\b20 ?mm|cannon")),
    (HEAVY, re.compile(r"\.50|12\.7 ?mm|13 ?mm|15 ?mm|15/20")),
    (SMALL, re.compile(r"\.303|\.30\b|7\.\d+ ?mm|\bMG\b")),
)
_REAR_WORDS = re.compile(
    r"flexible|turret|dorsal|tail|waist|ventral|rear|beam|defensive|barbette|tunnel", re.I
)
_COUNT = re.compile(r"(\d+)\s*(?:to\s*\d+\s*)?[x×]", re.I)


@dataclass(frozen=True)
class Gun:
    calibre: str
    position: str
    count: int


@dataclass(frozen=True)
class Facts:
    name: str
    nation: str = ""
    year: int | None = None
    role: str = ""
    crew: int | None = None
    engines: int = 1
    engine_kind: str = ""
    power_hp: int | None = None
    max_speed_mph: int | None = None
    ceiling_ft: int | None = None
    climb_ft_min: int | None = None
    loaded_weight_lb: int | None = None
    wing_area_sqft: float | None = None
    rounds: str = ""
    pilot_armor: str = ""
    self_sealing: str = ""
    guns: tuple[Gun, ...] = field(default=())

    @property
    def wing_loading(self) -> float | None:
        if self.loaded_weight_lb and self.wing_area_sqft:
            return self.loaded_weight_lb / self.wing_area_sqft
        return None

    @property
    def lb_per_hp(self) -> float | None:
        if self.loaded_weight_lb and self.power_hp:
            return self.loaded_weight_lb / (self.power_hp * self.engines)
        return None

    @property
    def is_bomber(self) -> bool:
        return "bomber" in self.role and "fighter" not in self.role

    def guns_at(self, position: str) -> tuple[Gun, ...]:
        return tuple(g for g in self.guns if g.position == position)


def _number(raw: str) -> float | None:
    match = re.search(r"\d[\d,]*(?:\.\d+)?", raw or "")
    return float(match.group().replace(",", "")) if match else None


def _int(raw: str) -> int | None:
    value = _number(raw)
    return None if value is None else int(value)


def parse_guns(text: str) -> tuple[Gun, ...]:
    """Guns by calibre and position from the armament column (``2 x .50 ...; 1 x 7.92mm
    flexible``); a part naming an upward-firing (oblique) gun is oblique."""
    if "unarmed" in text or text.startswith("none"):
        return ()
    guns = []
    if "KAIa:" in text:  # the row gives two variants; 002 names the KAIa
        text = text.split("KAIa:")[1]
    for part in re.split(r";|\+|, (?=\d+ ?[x×])", text):
        calibre = next((c for c, pattern in _CALIBRES if pattern.search(part)), None)
        if calibre is None:
            continue
        count_match = _COUNT.search(part)
        count = int(count_match.group(1)) if count_match else (2 if "twin" in part else 1)
        if "oblique" in part:
            position = OBLIQUE
        elif _REAR_WORDS.search(part) and "fixed forward" not in part:
            position = REAR
        else:
            position = FORWARD
        guns.append(Gun(calibre, position, count))
    return tuple(guns)


def facts_from_row(row: Mapping[str, str]) -> Facts:
    """One TSV row (column name to text) as :class:`Facts`."""
    engines = _int(row.get("engines", "")) or 1
    guns = parse_guns(row.get("armament", ""))
    if "bomber" in row.get("role", "") and "fighter" not in row.get("role", ""):
        # a bomber's guns not stated fixed forward are its defensive (rear) guns
        armament = row.get("armament", "")
        guns = tuple(
            Gun(g.calibre, REAR, g.count) if "fixed forward" not in armament else g for g in guns
        )
    kind = next((k for k in ("jet", "radial", "inline") if k in row.get("engines", "")), "")
    return Facts(
        name=row["name"],
        nation=row.get("nation", ""),
        year=_int(row.get("first_service_year", "")),
        role=row.get("role", ""),
        crew=_int(row.get("crew", "")),
        engines=engines,
        engine_kind=kind,
        power_hp=_int(row.get("power_hp", "")),
        max_speed_mph=_int(row.get("max_speed_mph", "")),
        ceiling_ft=_int(row.get("service_ceiling_ft", "")),
        climb_ft_min=_int(row.get("climb_ft_min", "")),
        loaded_weight_lb=_int(row.get("loaded_weight_lb", "")),
        wing_area_sqft=_number(row.get("wing_area_sqft", "")),
        rounds=row.get("rounds_per_gun", ""),
        pilot_armor=row.get("pilot_armor", "").split(" ")[0].lower(),
        self_sealing=row.get("self_sealing_tanks", "").split(" ")[0].lower(),
        guns=guns,
    )

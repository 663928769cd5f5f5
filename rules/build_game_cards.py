"""Write the shipped Air Pirates and Air Force cards of every catalog type.

``python -m rules.build_game_cards`` reads ``rules/catalog/aircraft_facts.tsv`` (a copy
of ``shared/data/aircraft_facts.tsv``) and writes ``rules/catalog/airpirates_cards.csv``
and ``airforce_cards.csv``: one line per value (name, field, value, kind, source), the
estimates of ``rules.airpirates.estimate`` / ``rules.airforce.estimate`` with the values
the rulebooks print standing over them. A type with no card has one ``reason`` line.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rules.aircraft_facts import Facts, facts_from_row
from rules.airforce import estimate as airforce
from rules.airpirates import estimate as airpirates

CATALOG = Path(__file__).resolve().parent / "catalog"
FACTS_FILE = "aircraft_facts.tsv"
FILES = {"airpirates": "airpirates_cards.csv", "airforce": "airforce_cards.csv"}
COLUMNS = ("name", "field", "value", "kind", "source")

# Catalog type -> the facts rows it is estimated from (later rows fill the first's blanks).
_109G = ("Messerschmitt Bf 109G-6", "Messerschmitt Bf 109G-5")
_190 = ("Focke-Wulf Fw 190A-4", "Focke-Wulf Fw 190A-8")
_ZERO = ("Mitsubishi A6M2 Zero (Model 21)",)
_HURRI = ("Hawker Hurricane Mk I", "Hawker Hurricane I")
_P51BC = ("North American P-51B/C Mustang", "North American P-51B Mustang")
FACTS_ROWS: dict[str, tuple[str, ...]] = {
    'A6M2 "Zeke"': _ZERO,
    "A6M2 Zero Ace": _ZERO,
    "Bf 109E Ace": ("Messerschmitt Bf 109E-3",),
    "Bf 109E Wingman": ("Messerschmitt Bf 109E-3",),
    'Bf 109F "Friedrich"': ("Messerschmitt Bf 109F-4", "Messerschmitt Bf 109F-3", *_109G),
    'Bf 109G "Gustav" Ace': _109G,
    "Bf 110C": ("Messerschmitt Bf 110C-1",),
    "C.200 Saetta Rookie": ("Macchi C.200 Saetta",),
    "Expeditionary C.200 Saetta": ("Macchi C.200 Saetta",),
    "C.202 Folgore": ("Macchi C.202 Folgore",),
    "C.202 Folgore Ace": ("Macchi C.202 Folgore",),
    "Channel Front Fw 190A": _190,
    "Fw 190A Würger": _190,
    "Guards Yak 1": ("Yakovlev Yak-1",),
    "Yak-1 Rookie": ("Yakovlev Yak-1",),
    "Hurricane Mk I": _HURRI,
    "Kościuszko Hurricane Mk I": _HURRI,
    'I-16 "Abu"': ("Polikarpov I-16 type 24",),
    'I-16 "Ishak"': ("Polikarpov I-16 type 24",),
    'Ki-61 "Tony"': ("Kawasaki Ki-61-I Hien 'Tony'",),
    "Lend-Lease Tomahawk Mk. II": (
        "Curtiss P-40C Warhawk / Tomahawk IIB",
        "Curtiss P-40B Warhawk",
    ),
    'MS.406 "Mätimaha"': ("Morane-Saulnier MS.406",),
    "MS.406 Rookie": ("Morane-Saulnier MS.406",),
    "Navy F4F-3 Wildcat": ("Grumman F4F-3 Wildcat",),
    "USMC F4F-4 Wildcat": ("Grumman F4F-4 Wildcat",),
    "P-40B Rookie": ("Curtiss P-40B Warhawk",),
    "P-40C Flying Tiger": ("Curtiss P-40C Warhawk / Tomahawk IIB", "Curtiss P-40B Warhawk"),
    "P-51B Mustang Ace": _P51BC,
    "P-51C Escort": _P51BC,
    "Spitfire Mk I Ace": (
        "Supermarine Spitfire Mk I",
        "Supermarine Spitfire I / I.A (Air Force I.A; Air Pirates Mk I)",
    ),
    "Typhoon Interceptor": ("Hawker Typhoon IB",),
    "He 111 bomber token": ("Heinkel He 111H-3",),
    # the card game's planes (003 PLANE DECK CARD LIST): the variant of their years
    "Lockheed P-38 Lightning": ("Lockheed P-38J Lightning",),
    "Bell P-39 Airacobra": ("Bell P-39D Airacobra",),
    "Curtis P-40 Warhawk": ("Curtiss P-40E Warhawk", "Curtiss P-40B Warhawk"),
    "P-47 Thunderbolt": ("Republic P-47D Thunderbolt", "Republic P-47B Thunderbolt"),
    "P-51 Mustang": ("North American P-51D Mustang",),
    "Bristol Beaufighter": ("Bristol Beaufighter Mk IF", "Bristol Beaufighter TF.X"),
    "Supermarine Spitfire": ("Supermarine Spitfire V.B",),
    "Hawker Hurricane": ("Hawker Hurricane IIC",),
    "Hawker Typhoon": ("Hawker Typhoon IB",),
    "Douglas A-20 Havoc": ("Douglas A-20G Havoc",),
    "Douglas A-26 Invader": ("Douglas A-26B Invader",),
    "Avro 683 Lancaster": ("Avro Lancaster B.I",),
    "Handley Page Halifax": ("Handley Page Halifax B.III",),
    "Havilland DH 98 Mosquito": ("de Havilland Mosquito FB.VI", "de Havilland Mosquito B.IV"),
    "Bristol Blenheim": ("Bristol Blenheim Mk IV",),
    "Boeing B-17 Flying Fortress": ("Boeing B-17G Flying Fortress", "Boeing B-17F Flying Fortress"),
    "Consolidated B-24 Liberator": (
        "Consolidated B-24J Liberator",
        "Consolidated B-24D Liberator",
    ),
    "Martin B-26 Marauder": ("Martin B-26B Marauder",),
    "Messerschmitt Bf 109": _109G,
    "Focke Wulf FW 190": ("Focke-Wulf Fw 190A-8", "Focke-Wulf Fw 190A-4"),
    "Messerschmitt Me 262": ("Messerschmitt Me 262A-1a",),
    "Messerschmitt Bf 110": ("Messerschmitt Bf 110G-4", "Messerschmitt Bf 110C-1"),
    "Messerschmitt Me 410": ("Messerschmitt Me 410A-1 Hornisse",),
    "Junkers Ju 87 Stuka": ("Junkers Ju 87D-5", "Junkers Ju 87B-2"),
    "Junkers Ju 88": ("Junkers Ju 88A-1", "Junkers Ju 88C-6c"),
    "Henschel Hs 129": ("Henschel Hs 129B-1",),
    "Heinkel He 111": ("Heinkel He 111H-3",),
    "Heinkel He 177 Greif": ("Heinkel He 177A-5 Greif",),
    "Dornier Do 17": ("Dornier Do 17Z-2",),
    "Dornier Do 217": ("Dornier Do 217E-2",),
}

# Types with no card in a game, and why.
NO_CARD = {
    "Medium bomber token": (
        "a generic bomber token of Angels 20 (000 'BOMBER ESCORT SCENARIO'), not one "
        "aircraft: Air Pirates and Air Force fly a named bomber type instead"
    ),
}

# Catalog type -> the name the rulebook gives it, where the rulebook prints values of it.
PRINTED_NAMES = {
    "airpirates": {
        "P-51 Mustang": "P-51D",
        "Spitfire Mk I Ace": "Spitfire Mk1",
        'A6M2 "Zeke"': "A6M2 Zero",
        "A6M2 Zero Ace": "A6M2 Zero",
    },
    "airforce": {'A6M2 "Zeke"': "Zero", "A6M2 Zero Ace": "Zero"},
}

Estimator = Callable[[Facts], dict[str, tuple[Any, str]]]
GAMES: dict[str, tuple[Estimator, dict[str, dict[str, tuple[Any, str]]], str]] = {
    "airpirates": (airpirates.estimate_control_card, airpirates.PRINTED, airpirates.RULING),
    "airforce": (airforce.estimate_data_card, airforce.PRINTED, airforce.RULING),
}


def read_facts(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return {row["name"]: row for row in csv.DictReader(fh, delimiter="\t")}


def merged_facts(rows: Mapping[str, Mapping[str, str]], names: tuple[str, ...]) -> Facts:
    """The first row, its blanks filled from the next rows in turn."""
    merged = dict(rows[names[0]])
    for name in names[1:]:
        for column, value in rows[name].items():
            if not (merged.get(column) or "").strip():
                merged[column] = value
    return facts_from_row(merged)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def card_lines(game: str, name: str, rows: Mapping[str, Mapping[str, str]]) -> list[dict[str, str]]:
    """The lines of one type's card in one game."""
    if name in NO_CARD:
        return [{"name": name, "field": "reason", "value": NO_CARD[name], "kind": "", "source": ""}]
    estimator, printed, ruling = GAMES[game]
    names = FACTS_ROWS[name]
    values = estimator(merged_facts(rows, names))
    stated = printed.get(PRINTED_NAMES[game].get(name, ""), {})
    facts = "aircraft_facts.tsv: " + " (blanks from ".join(names) + ")" * (len(names) - 1)
    lines = []
    for field, (value, basis) in values.items():
        if field in stated:
            value, source = stated[field]
            kind = "printed"
        else:
            kind, source = "estimated", f"{ruling}; {facts}; {basis}"
        lines.append(
            {"name": name, "field": field, "value": _text(value), "kind": kind, "source": source}
        )
    return lines


NAMED_FILE = "airpirates_named_cards.csv"  # 002's own aircraft that are no catalog type


def named_lines(name: str, rows: Mapping[str, Mapping[str, str]]) -> list[dict[str, str]]:
    """The lines of the control card of an aircraft 002 names (``NAMED_IN_002``), the
    values 002 prints standing over the estimates."""
    estimator, printed, ruling = GAMES["airpirates"]
    names = airpirates.NAMED_IN_002[name]
    values = estimator(merged_facts(rows, names))
    facts = "aircraft_facts.tsv: " + " (blanks from ".join(names) + ")" * (len(names) - 1)
    lines = []
    for field, (value, basis) in values.items():
        kind, source = "estimated", f"{ruling}; {facts}; {basis}"
        if field in printed.get(name, {}):
            value, source = printed[name][field]
            kind = "printed"
        lines.append(
            {"name": name, "field": field, "value": _text(value), "kind": kind, "source": source}
        )
    return lines


# -- the aircraft 002 names as roster types (ruling "Air Pirates: the aircraft 002 names
# as roster types"): facts from their rows, an Angels 20 card from a catalog analog ----------
NAMED_TYPES_FILE = "airpirates_named_types.csv"
NAMED_TYPES_RULING = "docs/rulings.md 'Air Pirates: the aircraft 002 names as roster types'"
NAMED_TYPE_COLUMNS = (
    "name", "side", "nation", "year", "kind", "cost", "pilot", "speed_min", "speed_max",
    "high_speed_min", "high_speed_max", "attack_1", "attack_2", "attack_3", "armor",
    "vital_armor", "hits", "turn", "roll", "climb", "dive", "abilities", "estimated_fields",
    "source",
)  # fmt: skip
_A20_CARD = ("cost", "pilot", "speed_min", "speed_max", "high_speed_min", "high_speed_max",
             "attack_1", "attack_2", "attack_3", "armor", "vital_armor", "hits", "turn", "roll",
             "climb", "dive", "abilities")  # fmt: skip
NO_AIRFORCE_CARD = (
    "an aircraft Air Pirates (002) names, by 002's name: no Air Force (001) card is "
    "estimated for it"
)
_LIGHT = "a light, lightly armed fighter of the same years (rules S/A/D: 2 hits, armor 2)"
# 002's name -> (the catalog card its Angels 20 card copies, why that one)
NAMED_ANALOGS: dict[str, tuple[str, str]] = {
    "P-51D": ("P-51 Mustang", "the same airframe (facts row P-51D)"),
    "Spitfire Mk1": ("Spitfire Mk I Ace", "the same airframe"),
    "Me109B/D": ("Bf 109E Wingman", "the nearest Bf 109 airframe of the catalog"),
    "Me109E-1": ("Bf 109E Wingman", "the same airframe"),
    "Me-110 C-1": ("Bf 110C", "the same airframe"),
    "A6M2 Zero": ('A6M2 "Zeke"', "the same airframe"),
    "A6M3 Hamp": ('A6M2 "Zeke"', "the A6M airframe"),
    "A5M4 Claude": ("C.200 Saetta Rookie", _LIGHT),
    "Ki-10 Perry": ("C.200 Saetta Rookie", _LIGHT),
    "Ki-27 Nate": ("C.200 Saetta Rookie", _LIGHT),
    "Ki-43 I Oscar": ("C.200 Saetta Rookie", _LIGHT),
    "Ki-43 II Oscar": ("C.200 Saetta Rookie", _LIGHT),
    "Ki-44 Tojo": ('Ki-61 "Tony"', "the Army fighter of the same years"),
    "Ki-45 KAIa Nick": ("Bf 110C", "a twin-engine heavy fighter"),
    "Gladiator": ("C.200 Saetta Rookie", _LIGHT),
    "CW-21 Demon": ("C.200 Saetta Rookie", _LIGHT),
    "P-35A": ("Navy F4F-3 Wildcat", "a rugged American radial fighter of the same years"),
    "P-36A": ("C.200 Saetta Rookie", _LIGHT),
    "P-43A Lancer": ("P-47 Thunderbolt", "its successor from the same designers"),
    "F2A-1 Buffalo": ("Navy F4F-3 Wildcat", "the Navy's radial fighter of the same years"),
    "F4F-4 Wildcat": ("USMC F4F-4 Wildcat", "the same airframe"),
    "LaGG-3": ("Guards Yak 1", "the Soviet fighter of the same years and engine"),
    "SM.79": ("Heinkel He 111", "a medium bomber of the same years (rule B)"),
    "CR.42": ("C.200 Saetta Rookie", _LIGHT),
}
# rule S: speed / high speed by top speed (mph), the classes A-D in order
_SPEED_CLASSES = (
    (335, (2, 3, 4, 4)),
    (365, (2, 3, 4, 5)),
    (399, (2, 4, 5, 5)),
    (10_000, (2, 4, 5, 6)),
)
_GRADES = ("poor", "average", "veteran", "ace")  # Angels 20's pilot grades, lowest first
_AXIS_NATIONS = ("Germany", "Italy", "Japan")
_NATIONS = {"UK": "United Kingdom", "USA": "United States"}
_KINDS = ("fighter", "heavy fighter", "naval fighter", "light bomber", "medium bomber",
          "heavy bomber")  # fmt: skip


def _speed_class(speeds: tuple[int, ...]) -> int | None:
    return next((i for i, (_, s) in enumerate(_SPEED_CLASSES) if s == speeds), None)


def read_analogs(directory: Path = CATALOG) -> dict[str, dict[str, str]]:
    """The Angels 20 cards of the catalog (Angels 20's and the card game's), by name."""
    cards: dict[str, dict[str, str]] = {}
    for file_name in ("angels20_aircraft.csv", "card_game_tactical.csv"):
        with (directory / file_name).open(newline="", encoding="utf-8") as fh:
            cards |= {row["name"]: row for row in csv.DictReader(fh)}
    return cards


def named_type_row(
    name: str, rows: Mapping[str, Mapping[str, str]], analogs: Mapping[str, Mapping[str, str]]
) -> dict[str, str]:
    """The roster type of an aircraft 002 names: nation, year and kind from its facts rows;
    its Angels 20 card the analog's (``NAMED_ANALOGS``, rule G1: the pilot average, the cost
    5 points per grade to average), the speed by rule S from its top speed and the cost
    2 points per speed class of difference (rule G2) unless the analog is the same airframe
    (rule F). Every card value is estimated."""
    names = airpirates.NAMED_IN_002[name]
    facts = merged_facts(rows, names)
    analog_name, why = NAMED_ANALOGS[name]
    analog = analogs[analog_name]
    card = {column: analog[column] for column in _A20_CARD}
    cost = int(analog["cost"]) - 5 * (_GRADES.index(analog["pilot"]) - _GRADES.index("average"))
    card["pilot"] = "average"
    if not facts.is_bomber:
        card["abilities"] = ""  # never estimated (ruling "Aircraft catalog"); unknown
    basis = [f"Angels 20 card from {analog_name} ({why}; rule G1: average pilot)"]
    old = _speed_class(tuple(int(analog[c] or 0) for c in _A20_CARD[2:6]))
    same_airframe = why.startswith("the same airframe")
    if facts.max_speed_mph and old is not None and not (facts.is_bomber or same_airframe):
        new, speeds = next(
            (i, s) for i, (top, s) in enumerate(_SPEED_CLASSES) if facts.max_speed_mph <= top
        )
        card.update(zip(_A20_CARD[2:6], map(str, speeds), strict=True))
        cost += 2 * (new - old)
        basis.append(f"speed by rule S from {facts.max_speed_mph} mph")
    card["cost"] = str(cost)
    nation = _NATIONS.get(facts.nation, facts.nation.split(" (")[0].strip())
    estimated = list(_A20_CARD)
    if not (rows[names[0]].get("first_service_year") or "").strip():
        estimated.insert(0, "year")  # read from a later facts row
    kind = facts.role if facts.role in _KINDS else "fighter"
    if kind != facts.role:
        estimated.insert(0, "kind")
    source = "; ".join(
        (NAMED_TYPES_RULING, "aircraft_facts.tsv: " + " (blanks from ".join(names)
         + ")" * (len(names) - 1), *basis)
    )  # fmt: skip
    return {
        "name": name,
        "side": "Axis" if nation in _AXIS_NATIONS else "Allied",
        "nation": nation,
        "year": "" if facts.year is None else str(facts.year),
        "kind": kind,
        **card,
        "estimated_fields": ";".join(estimated),
        "source": source,
    }


def build(type_names: list[str], directory: Path = CATALOG) -> dict[str, int]:
    rows = read_facts(directory / FACTS_FILE)
    named = [line for name in airpirates.NAMED_IN_002 for line in named_lines(name, rows)]
    with (directory / NAMED_FILE).open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(named)
    analogs = read_analogs(directory)
    with (directory / NAMED_TYPES_FILE).open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=NAMED_TYPE_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(named_type_row(n, rows, analogs) for n in airpirates.NAMED_IN_002)
    written = {}
    for game, file_name in FILES.items():
        lines = [line for name in type_names for line in card_lines(game, name, rows)]
        if game == "airforce":  # the named types: a reason each (the loader wants one)
            lines += [
                {"name": n, "field": "reason", "value": NO_AIRFORCE_CARD, "kind": "", "source": ""}
                for n in airpirates.NAMED_IN_002
            ]
        with (directory / file_name).open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(lines)
        written[game] = len(lines)
    return written


def catalog_type_names(directory: Path = CATALOG) -> list[str]:
    names = []
    for file_name in ("angels20_aircraft.csv", "card_game_planes.csv"):
        with (directory / file_name).open(newline="", encoding="utf-8") as fh:
            names += [row["name"] for row in csv.DictReader(fh)]
    return names


if __name__ == "__main__":
    print(build(catalog_type_names()))

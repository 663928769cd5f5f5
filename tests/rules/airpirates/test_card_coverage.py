"""Every aircraft 002 names and every plane of the card game's decks has an Air Pirates
control card (issue 26, "Aircraft"); the values 002 prints stand on the named cards."""

from __future__ import annotations

import csv

from rules.airpirates.estimate import NAMED_IN_002, NO_ARMOR, NO_TANKS
from rules.airpirates.units import CATALOG_FILE, NAMED_FILE, card_problems, catalog_names
from rules.build_game_cards import CATALOG, NO_CARD

# Every aircraft the text of 002 names, as it spells them (13b3.3.1, 13b3.4.1, 6a5.1, 6c's
# example, 13c's, 5c's, 13e1.2, 15b8.3 and [20]'s SM-79), by the name its card has here.
NAMED_BY_THE_TEXT = {
    "P-51D": "P-51D", "Spitfire Mk1": "Spitfire Mk1", "Me-109B/D": "Me109B/D",
    "Me-109E-1": "Me109E-1", "Me-110 C-I": "Me-110 C-1", "A6M2 Zero": "A6M2 Zero",
    "A6M3 Hamp": "A6M3 Hamp", "A5M4 Claude": "A5M4 Claude", "Ki-10 Perry": "Ki-10 Perry",
    "Ki-27 Nate": "Ki-27 Nate", "Ki-43 I Oscar": "Ki-43 I Oscar",
    "Ki-43 II Oscar": "Ki-43 II Oscar", "Ki-44 Tojo": "Ki-44 Tojo",
    "Ki.45KAIa Nick": "Ki-45 KAIa Nick", "Gladiator": "Gladiator", "CW-21 Demon": "CW-21 Demon",
    "P-35A": "P-35A", "P36A Mohawk": "P-36A", "P-43a Lancer": "P-43A Lancer",
    "F2A-1 Buffalo": "F2A-1 Buffalo", "F4F-4": "F4F-4 Wildcat", "LaGG-3": "LaGG-3",
    "SM-79": "SM.79", "CR.42": "CR.42",
}  # fmt: skip


def _names(file_name: str) -> list[str]:
    with (CATALOG / file_name).open(newline="", encoding="utf-8") as fh:
        return [row["name"] for row in csv.DictReader(fh)]


def _card(name: str) -> dict:
    from rules.airpirates.units import catalog_card

    return catalog_card(name)


def test_every_aircraft_002_names_has_a_control_card():
    have = set(catalog_names())
    missing = [text for text, name in NAMED_BY_THE_TEXT.items() if name not in have]
    assert missing == [], f"no Air Pirates control card for: {', '.join(missing)}"
    assert set(NAMED_BY_THE_TEXT.values()) == set(NAMED_IN_002)
    bad = {n: card_problems(_card(n)) for n in NAMED_IN_002 if card_problems(_card(n))}
    assert bad == {}


def test_every_plane_of_the_card_games_decks_and_every_catalog_type_has_one():
    have = set(catalog_names())
    decks = _names("card_game_planes.csv")
    assert len(decks) >= 30
    missing = [n for n in decks if n not in have]
    assert missing == [], f"card-game planes without a control card: {', '.join(missing)}"
    types = _names("angels20_aircraft.csv")
    missing = [n for n in types if n not in have and n not in NO_CARD]
    assert missing == [], f"catalog types without a control card: {', '.join(missing)}"


def test_the_values_002_prints_stand_on_its_named_cards():
    assert _card("P-51D")["point_value"] == 13  # 13c's example
    assert _card("P-51D")["defence_factor"] == 4  # 13b1.3
    assert _card("Spitfire Mk1")["turn_number"] == 2  # 5c's example
    assert _card("Ki-45 KAIa Nick")["rear_gun_factor"] == 0  # 6c's example
    assert [n for n in NO_ARMOR if _card(n)["pilot_armor"]] == []  # 13b3.3.1
    assert [n for n in NO_TANKS if _card(n)["self_sealing_tanks"] != "no"] == []  # 13b3.4.1
    assert _card("Ki-44 Tojo")["self_sealing_tanks"] == "rudimentary"
    assert _card("CR.42")["radio"] is False  # 15b8.3: "the Italian CR.42"
    assert _card("SM.79")["engines"] == 3  # [20]: "an Italian SM-79 bomber which has 3 engines"


def test_each_named_value_says_whether_it_is_printed_or_estimated_and_from_what():
    with NAMED_FILE.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["kind"] for r in rows} == {"printed", "estimated"}
    printed = {(r["name"], r["field"]) for r in rows if r["kind"] == "printed"}
    assert ("P-51D", "point_value") in printed and ("Spitfire Mk1", "turn_number") in printed
    estimated = [r for r in rows if r["kind"] == "estimated"]
    assert all("aircraft_facts.tsv" in r["source"] for r in estimated)
    # the named cards are apart from the catalog types' (which the roster loads)
    with CATALOG_FILE.open(newline="", encoding="utf-8") as fh:
        catalog = {row["name"] for row in csv.DictReader(fh)}
    assert not catalog & set(NAMED_IN_002)

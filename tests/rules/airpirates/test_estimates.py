"""The Air Pirates estimates reproduce every number 002 prints (docs/rulings.md, "Air
Pirates control cards, estimated"), and the Air Force ones the Zero's data card of 001."""

import shutil

import pytest

from rules.aircraft_facts import SMALL, Gun, facts_from_row
from rules.airforce.estimate import estimate_data_card
from rules.airpirates.card import CONTROL_CARD
from rules.airpirates.estimate import (
    NO_ARMOR,
    NO_TANKS,
    PRINTED,
    estimate_control_card,
    gun_factor,
    has_radio,
)
from rules.build_game_cards import (
    CATALOG,
    FACTS_FILE,
    FILES,
    build,
    catalog_type_names,
    merged_facts,
    read_facts,
)

ROWS = read_facts(CATALOG / FACTS_FILE)


def card(*names):
    return {k: v for k, (v, _) in estimate_control_card(merged_facts(ROWS, names)).items()}


def test_the_p51d_is_worth_13_points_with_defence_4():
    # 002 13c: 'a P-51D (normally "13" points)'; 13b1.3: 'a P51D has a defense factor of "4"'
    mustang = card("North American P-51D Mustang")
    assert mustang["point_value"] == 13
    assert mustang["defence_factor"] == 4


def test_the_spitfire_mk_i_turns_in_2_hexes():
    # 002 5c: the Spitfire Mk1's turn maneuver number printed on its card is "2"
    assert card("Supermarine Spitfire Mk I")["turn_number"] == 2
    assert (
        card("Supermarine Spitfire I / I.A (Air Force I.A; Air Pirates Mk I)")["turn_number"] == 2
    )


def test_the_nicks_rear_gun_factor_is_0():
    # 002 REAR GUN FIRING MODIFIERS example: the Ki-45 KAIa "Nick": "0 RG factor"
    nick = card("Kawasaki Ki-45 'Nick'")
    assert nick["rear_guns"] == 1
    assert nick["rear_gun_factor"] == 0


def test_gun_factors_follow_13a2():
    assert gun_factor((Gun(SMALL, "forward", 8),)) == 4  # eight .303: 1/2 each
    assert gun_factor((Gun(SMALL, "forward", 1),)) == 0  # rounded down
    assert card("Mitsubishi A6M2 Zero (Model 21)")["gun_factor"] == 5  # 2 x 7.7 mm + 2 x 20 mm


@pytest.mark.parametrize(
    "name",
    [
        "Nakajima Ki-27 'Nate'",
        "Nakajima Ki-43-I 'Oscar'",
        "Kawasaki Ki-10 'Perry'",
        "Mitsubishi A5M4 'Claude'",
        "Mitsubishi A6M2 Zero (Model 21)",
        "Mitsubishi A6M3 'Hamp' (Model 32)",
        "Messerschmitt Bf 109B/D",
        "Messerschmitt Bf 109E-1",
        "Brewster F2A-1 Buffalo (Finnish B-239)",
        "Gloster Gladiator I",
        "Seversky P-35A",
        "Curtiss P-36A Hawk / Mohawk",
    ],
)
def test_the_aircraft_002_names_without_armour_or_self_sealing_tanks_have_none(name):
    # 002 13b3.3.1 NO PILOT ARMOR, 13b3.4.1 NO SELF SEALING TANKS
    estimate = card(name)
    assert estimate["pilot_armor"] is False
    assert estimate["self_sealing_tanks"] == "no"


def test_the_lists_002_prints_stand_over_the_estimates():
    # where the facts disagree with 002 (the CW-21 and P-43A have blank columns), 002 wins
    assert PRINTED["CW-21 Demon"]["pilot_armor"][0] is False
    assert PRINTED["P-43A Lancer"]["self_sealing_tanks"][0] == "rudimentary"
    assert PRINTED["Ki-44 Tojo"]["self_sealing_tanks"][0] == "rudimentary"
    assert "P-36A" in NO_ARMOR and "P-36A" in NO_TANKS


def test_radio_follows_the_rule_on_russian_and_japanese_aircraft():
    # 002 'AIR UNITS LACKING RADIO/TELEPHON (R/T) COMMUNICATION'
    assert card("Polikarpov I-16 type 24")["radio"] is False
    assert card("Mitsubishi A6M2 Zero (Model 21)")["radio"] is False
    assert card("Kawasaki Ki-61-I Hien 'Tony'")["radio"] is True
    assert has_radio(facts_from_row({"name": "Fiat CR.42", "nation": "Italy"})) is False
    assert card("Supermarine Spitfire Mk I")["radio"] is True


def test_twin_engined_aircraft_are_eliminated_by_three_engine_hits():
    # 002 13b3.2.1; a single engine: two (13b3.1's example)
    assert card("Messerschmitt Bf 110C-1")["engine_boxes"] == 3
    assert card("Hawker Hurricane Mk I")["engine_boxes"] == 2


def test_every_estimate_is_a_valid_control_card():
    for name in ROWS:
        values = card(name)
        block = {
            "values": values,
            "provenance": {k: {"kind": "estimated", "source": "test"} for k in values},
        }
        assert CONTROL_CARD.check(block) == [], name


def test_the_zeros_air_force_card_is_reproduced():
    # 001 AIR FORCE DATA CARD 14A (Zero): PV 16, W 5, F 5, C 3, E 3, engine type R
    zero = estimate_data_card(merged_facts(ROWS, ("Mitsubishi A6M2 Zero (Model 21)",)))
    values = {k: v for k, (v, _) in zero.items()}
    assert values["point_value"] == 16
    assert (values["wing_hits"], values["fuselage_hits"]) == (5, 5)
    assert (values["cockpit_hits"], values["engine_hits"]) == (3, 3)
    assert values["engine_type"] == "radial"


def test_the_shipped_card_files_are_what_the_generator_writes(tmp_path):
    for f in CATALOG.iterdir():
        if f.suffix in (".csv", ".tsv"):
            shutil.copy(f, tmp_path / f.name)
    build(catalog_type_names(CATALOG), tmp_path)
    for file_name in FILES.values():
        assert (tmp_path / file_name).read_text() == (CATALOG / file_name).read_text()

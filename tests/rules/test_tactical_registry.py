"""The registry of tactical systems (issue 25): each system joins it by itself, through
its entry point; rules.tactical imports none of them; an unknown name is refused."""

from __future__ import annotations

import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import grimp
import pytest

from rules.airpirates.system import AIRPIRATES
from rules.angels20.system import ANGELS20
from rules.tactical import (
    ENTRY_POINT_GROUP,
    UnknownSystem,
    check_result,
    register,
    registered,
    system_named,
    tactical_systems,
)
from tests.rules.duel_system import DUEL, DUEL_SCENARIO

ROOT = Path(__file__).resolve().parents[2]


def test_angels20_registers_itself_through_its_entry_point():
    points = {p.name: p.value for p in entry_points(group=ENTRY_POINT_GROUP)}
    assert points["angels20"] == "rules.angels20.system:ANGELS20"
    assert system_named("angels20") is ANGELS20
    assert ANGELS20.title == "Angels 20"
    assert "angels20" in tactical_systems()


def test_air_pirates_registers_itself_through_its_entry_point():
    points = {p.name: p.value for p in entry_points(group=ENTRY_POINT_GROUP)}
    assert points["airpirates"] == "rules.airpirates.system:AIRPIRATES"
    assert system_named("airpirates") is AIRPIRATES and AIRPIRATES.title == "Air Pirates"


def test_a_system_of_the_tests_own_is_registered_found_and_flown_then_removed():
    assert "duel" not in tactical_systems()
    with registered(DUEL):
        assert system_named("duel") is DUEL
        assert sorted(tactical_systems()) == ["airpirates", "angels20", "duel"]
        battle = system_named("duel").new_battle(DUEL_SCENARIO, 11)
        pilots = {
            i: DUEL.computer_pilot("gunner", DUEL.pilot_seed(11, s))
            for i, s in enumerate(DUEL.sides)
        }
        actions = []
        while (side := battle.current_side()) is not None:
            action = pilots[side].choose(battle)
            battle.apply(action)
            actions.append(action.to_json())
        assert check_result(battle.result()) == []
        assert DUEL.replay(DUEL_SCENARIO, 11, actions).log == battle.log
    assert "duel" not in tactical_systems()
    with pytest.raises(UnknownSystem):
        system_named("duel")


def test_an_unknown_system_is_refused_naming_the_known_ones():
    with pytest.raises(UnknownSystem) as refused:
        system_named("airforce")
    assert str(refused.value) == "unknown tactical system 'airforce' (known: airpirates, angels20)"
    assert refused.value.known == ("airpirates", "angels20")
    with pytest.raises(UnknownSystem):
        system_named(None)


def test_another_system_under_a_taken_name_is_refused():
    class Impostor:
        name = "angels20"

    with pytest.raises(ValueError, match="registered already"):
        register(Impostor())  # type: ignore[arg-type]
    assert system_named("angels20") is ANGELS20
    register(ANGELS20)  # the same system again: no change
    assert tactical_systems() == {"airpirates": AIRPIRATES, "angels20": ANGELS20}


def test_rules_tactical_imports_no_game():
    graph = grimp.build_graph("rules")
    for game in ("rules.angels20", "rules.cardgame"):
        assert not graph.chain_exists(importer="rules.tactical", imported=game, as_packages=True)


def test_import_linter_keeps_the_interface_apart_and_each_game_alone():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    forbidden = [c for c in contracts if c.get("source_modules") == ["rules.tactical"]]
    assert forbidden and "rules.angels20" in forbidden[0]["forbidden_modules"]
    independent = [c for c in contracts if c["type"] == "independence"]
    assert independent and "rules.angels20" in independent[0]["modules"]

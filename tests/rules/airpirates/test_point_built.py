"""Point-built flights (002 [14]), a scenario's own control cards, and a campaign entrant's
pilot quality reaching the engine as 002's (issue 26, "People")."""

from __future__ import annotations

import pytest

from rules.airpirates.scenarios import (
    built_flights,
    campaign_engagement,
    entrant_quality,
    scenario,
    scenario_form,
)
from rules.airpirates.state import new_battle
from rules.airpirates.units import Scenario, SetupError, catalog_card


def _flights(axis, allied):
    return {
        "axis": [{"aircraft": a, "quality": q} for a, q in axis],
        "allied": [{"aircraft": a, "quality": q} for a, q in allied],
    }


def test_the_form_lists_each_aircraft_with_its_points_and_each_quality_with_its_change():
    form = scenario_form("built")
    aircraft = {o["value"]: o for o in form["flights"]["aircraft"]}
    assert aircraft["P-51D"]["points"] == 13 and aircraft["P-51D"]["label"] == "P-51D (13 points)"
    assert "Ki-27 Nate" in aircraft and "Hurricane Mk I" in aircraft  # 002's and the decks'
    assert [(q["value"], q["points"]) for q in form["flights"]["qualities"]] == [
        ("green", -2), ("inexperienced", -1), ("average", 0), ("experienced", 1), ("ace", 2),
    ]  # fmt: skip
    assert form["flights"]["qualities"][1]["label"] == "inexperienced (-1 point)"
    assert [s["name"] for s in form["settings"]] == ["budget"]
    assert scenario_form("basic") is None


def test_a_built_flight_flies_its_aircraft_with_its_pilots_and_their_points():
    built = built_flights(
        _flights([("P-51D", "ace")], [("P-51D", "average"), ("Ki-27 Nate", "ace")]), None
    )
    battle = new_battle(built, 3)
    units = {u.name: u for u in battle.units}
    assert units["P-51D #1 (ace)"].quality == "ace" and units["P-51D #1 (ace)"].side == "axis"
    nate = units["Ki-27 Nate #2 (ace)"]
    assert nate.quality == "ace" and nate.side == "allied"
    assert all(nate.card[k] == v for k, v in catalog_card("Ki-27 Nate").items())
    assert set(Scenario.from_json(built).options) == {"bailout", "points"}
    from rules.airpirates.victory import unit_value

    assert unit_value(units["P-51D #1 (ace)"]) == 15  # 13 + 2 (14a, 14b5.1)


def test_with_a_budget_a_side_over_it_or_two_unequal_sides_are_refused_by_field():
    over = _flights([("P-51D", "ace"), ("P-51D", "ace")], [("P-51D", "ace"), ("P-51D", "ace")])
    with pytest.raises(SetupError) as exc:
        built_flights(over, {"budget": 29})
    assert exc.value.field == "flights.axis" and exc.value.rule == "002 '14a'"
    assert "worth 30 points, over the budget of 29" in str(exc.value)
    unequal = _flights([("P-51D", "ace")], [("P-51D", "average")])
    with pytest.raises(SetupError) as exc:
        built_flights(unequal, {"budget": 20})
    assert exc.value.field == "flights.allied"
    assert "worth 15 (axis) and 13 (allied) points" in str(exc.value)
    # an ace (+2) against an experienced pilot (+1): 15 against 14, refused
    evened = _flights([("P-51D", "ace")], [("P-51D", "experienced")])
    with pytest.raises(SetupError):
        built_flights(evened, {"budget": 15})
    equal = _flights([("P-51D", "experienced")], [("P-51D", "experienced")])
    assert built_flights(equal, {"budget": 14})["name"].endswith("14 points a side")
    # without a budget nothing is compared
    assert len(built_flights(unequal, None)["units"]) == 2


@pytest.mark.parametrize(
    ("flights", "settings", "field"),
    [
        (None, None, "flights"),
        ({"axis": [], "allied": [{"aircraft": "P-51D"}]}, None, "flights.axis"),
        ({"axis": [{"aircraft": "Zeppelin"}], "allied": [{"aircraft": "P-51D"}]}, None,
         "flights.axis[0].aircraft"),
        ({"axis": [{"aircraft": "P-51D"}], "allied": [{"aircraft": "P-51D", "quality": "hero"}]},
         None, "flights.allied[0].quality"),
        ({"axis": [{"aircraft": "P-51D"}], "allied": [{"aircraft": "P-51D"}]}, {"budget": 0},
         "settings.scenario_settings.budget"),
        ({"axis": [{"aircraft": "P-51D"}], "allied": [{"aircraft": "P-51D"}]}, {"money": 3},
         "settings.scenario_settings.money"),
    ],
)  # fmt: skip
def test_a_bad_build_is_refused_naming_its_field(flights, settings, field):
    with pytest.raises(SetupError) as exc:
        built_flights(flights, settings)
    assert exc.value.field == field


def test_a_scenarios_own_cards_fly_over_the_catalogs_and_a_bad_one_is_refused_by_field():
    edited = catalog_card("Bf 109E Wingman") | {"gun_factor": 9}
    made = scenario("basic", 1, cards={"Bf 109E Wingman": edited})
    battle = new_battle(Scenario.from_json(made).to_json(), 1)
    assert {u.card["gun_factor"] for u in battle.units if u.side == "axis"} == {9}
    # a scenario naming aircraft takes its cards from "cards", checked field by field
    units = [
        {"side": "axis", "aircraft": "Bf 109E Wingman"},
        {"side": "allied", "aircraft": "P-51D"},
    ]
    stored = Scenario.from_json({"units": units, "cards": {"Bf 109E Wingman": edited}}).to_json()
    assert stored["units"][0]["card"]["gun_factor"] == 9  # kept with the battle
    assert stored["units"][1]["card"] == catalog_card("P-51D")
    with pytest.raises(SetupError) as exc:
        Scenario.from_json({"units": units, "cards": {"P-51D": edited | {"gun_factor": 99}}})
    assert exc.value.field == "cards.P-51D.gun_factor"


@pytest.mark.parametrize(
    ("entrant", "quality"),
    [
        # the careers' Air Pirates scale: his own quality, inexperienced included
        ({"quality": "average", "pilot_quality": {"scale": "air_pirates", "quality": "inexperienced"}},
         "inexperienced"),
        ({"quality": "poor", "pilot_quality": {"scale": "air_pirates", "quality": "green"}}, "green"),
        ({"quality": "veteran", "pilot_quality": {"scale": "air_pirates", "quality": "experienced"}},
         "experienced"),
        # another scale: by Angels 20's word (ruling "Air Pirates: effects and Angels 20 mapping")
        ({"quality": "poor", "pilot_quality": {"scale": "card_game", "quality": "poor"}}, "green"),
        ({"quality": "veteran", "pilot_quality": {"scale": "card_game", "quality": "veteran"}},
         "experienced"),
        ({"quality": "poor", "pilot_quality": {"scale": "air_force", "quality": "novice"}}, "green"),
        ({"quality": "average"}, "average"),
    ],
)  # fmt: skip
def test_a_campaign_entrants_quality_reaches_the_engine_as_002s(entrant, quality):
    assert entrant_quality(entrant) == quality
    made = campaign_engagement(
        [{"side": "allied", "aircraft": "P-51 Mustang", "pilot_ref": "plane:1", **entrant}],
        [{"side": "axis", "aircraft": "Bf 109E Wingman", "pilot_ref": "plane:2"}],
        name="x", turns=8, territory={},
    )  # fmt: skip
    assert new_battle(made, 1).units[0].quality == quality

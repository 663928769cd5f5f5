"""Optional rules and special conditions in a battle's settings (000 "OPTIONAL RULES",
"SPECIAL CONDITIONS"): accepted, recorded on the battle and its scenario, or refused
with a 400 naming the field and the rule, storing nothing."""

import pytest
from django.contrib.auth import get_user_model

from angels.errors import RuleViolation
from battles import rules_settings, scenarios
from battles.models import Battle, BattleBatch
from tests.errors import reason

pytestmark = pytest.mark.django_db

EVERY_OPTIONAL_RULE = {
    "midair_collision": True,
    "clouds": ["clear", "solid", "heavy", "light", "clear", "clear"],
    "cloud_shapes": [{"hexes": [[4, 5], [4, 6]], "base": 2, "top": 3}],
    "flak_fields": [[8, 10, 3]],
    "barrage_balloons": [[2, 3], [12, 15]],
    "night": "darkness",
    "fighter_direction": {"axis": 2},
    "searchlights": {"allied": True, "axis": False},
    "later_sixes": True,
}


@pytest.fixture
def api(client, catalog):
    user = get_user_model().objects.create_user("organiser", password="pw-123456")
    client.force_login(user)
    return client


def _create(api, rules, scenario="dogfight", **settings):
    return api.post(
        "/api/battles/create/",
        {
            "scenario": scenario,
            "seed": 3,
            "resolve": False,
            "settings": {"rules": rules, **settings},
        },
        content_type="application/json",
    )


def test_every_optional_rule_is_recorded_on_the_battle_and_its_scenario(api):
    response = _create(api, EVERY_OPTIONAL_RULE, territory={"axis": "enemy", "allied": "friendly"})
    assert response.status_code == 202, response.content
    battle = Battle.objects.get(pk=response.json()["id"])
    assert battle.settings["rules"] == EVERY_OPTIONAL_RULE  # as asked for
    rules = battle.setup["rules"]  # as the engine flies them
    assert rules["midair_collision"] is True and rules["later_sixes"] is True
    assert rules["clouds"] == EVERY_OPTIONAL_RULE["clouds"]
    assert rules["cloud_shapes"] == [{"hexes": [[4, 5], [4, 6]], "base": 2, "top": 3}]
    assert rules["flak_fields"] == [[8, 10, 3]]
    assert rules["barrage_balloons"] == [[2, 3], [12, 15]]
    assert rules["night"] == "darkness"
    assert rules["fighter_direction"] == [2, 0]  # (axis, allied)
    assert rules["searchlights"] == [False, True]
    assert battle.setup["territory"] == ["enemy", "friendly"]


def test_no_rules_given_means_every_optional_rule_off(api):
    response = _create(api, {})
    battle = Battle.objects.get(pk=response.json()["id"])
    rules = battle.setup["rules"]
    assert rules["night"] == "day" and rules["clouds"] == [] and rules["flak_fields"] == []
    assert rules["midair_collision"] is False and rules["later_sixes"] is False
    assert rules["fighter_direction"] == [0, 0] and rules["searchlights"] == [False, False]


def test_random_clouds_and_flights_of_the_standard_scenario(api):
    flights = {
        "axis": [{"aircraft_type": "Bf 109E Ace"}, {"aircraft_type": "Bf 109E Wingman"}],
        "allied": [{"aircraft_type": "Spitfire Mk I Ace"}, {"aircraft_type": "Hurricane Mk I"}],
    }
    response = api.post(
        "/api/battles/create/",
        {"scenario": "standard", "flights": flights, "resolve": False,
         "settings": {"rules": {"random_clouds": True, "night": "moonlight"}}},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 202, response.content
    rules = Battle.objects.get().setup["rules"]
    assert rules["random_clouds"] is True and rules["night"] == "moonlight"


BAD_RULES = [
    ({"midair_collision": "yes"}, "settings.rules.midair_collision", "000 'OPTIONAL RULE: MIDAIR COLLISION'"),
    ({"later_sixes": 1}, "settings.rules.later_sixes", "000 'RESOLVING ATTACKS'"),
    ({"clouds": "solid"}, "settings.rules.clouds", "000 'CLOUDS'"),
    ({"clouds": ["clear"] * 5}, "settings.rules.clouds", "000 'CLOUDS'"),
    ({"clouds": ["clear", "fog", "clear", "clear", "clear", "clear"]}, "settings.rules.clouds[1]", "000 'CLOUDS'"),
    ({"clouds": ["clear"] * 6, "random_clouds": True}, "settings.rules.random_clouds", "000 'RANDOM CLOUD ARRANGEMENT'"),
    ({"cloud_shapes": [{"hexes": [[1, 1]], "base": 3}]}, "settings.rules.cloud_shapes[0]", "000 'CLOUDS'"),
    ({"cloud_shapes": [{"hexes": [], "base": 2, "top": 3}]}, "settings.rules.cloud_shapes[0].hexes", "000 'CLOUDS'"),
    ({"cloud_shapes": [{"hexes": [[1, 1], [16, 2]], "base": 2, "top": 3}]}, "settings.rules.cloud_shapes[0].hexes[1]", "000 'CLOUDS'"),
    ({"cloud_shapes": [{"hexes": [[1, 1]], "base": 4, "top": 3}]}, "settings.rules.cloud_shapes[0].base", "000 'CLOUDS'"),
    ({"flak_fields": [[5, 5, 3], [5, 5, 5]]}, "settings.rules.flak_fields[1]", "000 'FLAK FIELDS'"),
    ({"flak_fields": [[5, 5, 1]]}, "settings.rules.flak_fields[0]", "000 'FLAK FIELDS'"),
    ({"flak_fields": [[5, 5]]}, "settings.rules.flak_fields[0]", "000 'FLAK FIELDS'"),
    ({"flak_fields": [[5, 22, 3]]}, "settings.rules.flak_fields[0]", "000 'FLAK FIELDS'"),
    ({"flak_fields": [[-1, 3, 3]]}, "settings.rules.flak_fields[0]", "000 'FLAK FIELDS'"),
    ({"flak_fields": {"col": 5}}, "settings.rules.flak_fields", "000 'FLAK FIELDS'"),
    ({"barrage_balloons": [[3, 3], [40, 3]]}, "settings.rules.barrage_balloons[1]", "000 'BARRAGE BALLOONS'"),
    ({"barrage_balloons": [[3, "3"]]}, "settings.rules.barrage_balloons[0]", "000 'BARRAGE BALLOONS'"),
    ({"night": "dusk"}, "settings.rules.night", "000 'NIGHT COMBAT'"),
    ({"night": "darkness", "fighter_direction": {"axis": -1}}, "settings.rules.fighter_direction.axis", "000 'FIGHTER DIRECTION'"),
    ({"night": "darkness", "fighter_direction": {"axis": 1.5}}, "settings.rules.fighter_direction.axis", "000 'FIGHTER DIRECTION'"),
    ({"night": "darkness", "fighter_direction": [1, 0]}, "settings.rules.fighter_direction", "000 'FIGHTER DIRECTION'"),
    ({"night": "darkness", "fighter_direction": {"luftwaffe": 1}}, "settings.rules.fighter_direction.luftwaffe", "invalid"),
    ({"fighter_direction": {"axis": 1}}, "settings.rules.fighter_direction", "000 'FIGHTER DIRECTION'"),
    ({"night": "darkness", "searchlights": {"allied": "on"}}, "settings.rules.searchlights.allied", "000 'ILLUMINATION'"),
    ({"searchlights": {"allied": True}}, "settings.rules.searchlights", "000 'ILLUMINATION'"),
    ({"night": "moonlight", "searchlights": {"allied": True}}, "settings.rules.searchlights", "000 'ILLUMINATION'"),
    ({"night": "moonlight", "fighter_direction": {"allied": 1}}, "settings.rules.fighter_direction", "000 'FIGHTER DIRECTION'"),
    ({"weather": "fog"}, "settings.rules.weather", "invalid"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "field", "rule"), BAD_RULES)
def test_a_bad_optional_rule_is_a_400_naming_field_and_rule_and_stores_nothing(
    api, rules, field, rule
):
    response = _create(api, rules)
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["field"], reason(body)) == (field, rule), body
    assert body["detail"]
    assert Battle.objects.count() == 0


def test_a_batch_with_a_bad_optional_rule_stores_nothing(api):
    response = api.post(
        "/api/battles/batches/",
        {"scenario": "dogfight", "runs": 3, "settings": {"rules": {"flak_fields": [[1, 1, 6]]}}},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "settings.rules.flak_fields[0]"
    assert BattleBatch.objects.count() == 0 and Battle.objects.count() == 0


def test_what_the_engine_refuses_is_a_rule_violation_not_a_crash(catalog, monkeypatch):
    # The engine checks again (Rules raises ValueError, Scenario ScenarioError);
    # should it ever refuse what the settings let through, the request still
    # gets a 400 naming the optional rule's setting, never a 500.
    with pytest.raises(RuleViolation) as caught:
        rules_settings.rules_build({"clouds": ("fog",) * 6}, max_turns=8)
    assert (caught.value.field, caught.value.rule) == ("settings.rules", "000 'CLOUDS'")
    monkeypatch.setattr(scenarios, "rules_options", lambda raw: {"barrage_balloons": ((40, 3),)})
    with pytest.raises(RuleViolation) as caught:
        scenarios.build_scenario(kind="dogfight", flights={}, settings={}, seed=1)
    assert caught.value.field == "settings.rules.barrage_balloons"
    assert caught.value.rule == "000 'BARRAGE BALLOONS'"


def test_one_validator_for_battles_and_campaigns():
    options = rules_settings.rules_options(
        {"night": "darkness", "midair_collision": True, "fighter_direction": {"allied": 3}},
        field="engine_rules",
    )
    assert options == {"night": "darkness", "midair_collision": True, "fighter_direction": (0, 3)}
    rules = rules_settings.rules_build(options, max_turns=8)
    assert rules.optional_rules_on == ("midair collision", "darkness", "fighter direction")
    with pytest.raises(RuleViolation) as caught:
        rules_settings.rules_options({"night": "noon"}, field="engine_rules")
    assert caught.value.field == "engine_rules.night"


def test_the_new_battle_page_sets_optional_rules(api, django_capture_on_commit_callbacks):
    page = api.get("/battles/new/").content.decode()
    assert 'name="flak_fields"' in page and '<option value="darkness">' in page
    form = {
        "scenario": "dogfight", "axis_policy": "random", "allied_policy": "random", "resolve": "now",
        "pilot_survival": "on", "night": "moonlight", "midair_collision": "on", "cloud_2": "solid",
        "cloud_3": "heavy", "flak_fields": "8,10,3", "barrage_balloons": "7,11; 2,3",
    }  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/battles/new/", form)
    assert response.status_code == 302
    battle = Battle.objects.get()
    assert battle.settings["rules"] == {
        "tailing": False, "turn_position": False, "status": False, "pilot_survival": True,
        "night": "moonlight", "midair_collision": True,
        "clouds": ["clear", "solid", "heavy", "clear", "clear", "clear"],
        "flak_fields": [[8, 10, 3]], "barrage_balloons": [[7, 11], [2, 3]],
    }  # fmt: skip
    assert battle.setup["rules"]["night"] == "moonlight" and battle.status == "finished"
    bad = api.post("/battles/new/", {**form, "flak_fields": "8,10,7"})
    assert bad.status_code == 400
    # listed beside the field in plain words (the new-battle page of issue 16)
    assert "A flak field exists at altitude 2, 3 or 4, not 7" in bad.content.decode()
    assert Battle.objects.count() == 1

"""A campaign's optional rules for its engine engagements (000 "OPTIONAL RULES",
"SPECIAL CONDITIONS"): set by the organiser, validated like a battle's settings,
and flown in the engagements' battles with the mission's territory."""

import random
from types import SimpleNamespace

import pytest
from django.test import Client

from battles.models import Battle
from campaign import services
from campaign.engagements import _engine_territory
from campaign.models import Campaign
from demo.campaign import stand_in_choice
from demo.roster import demo_roster_create
from roster.models import Squadron
from rules.angels20.interception import WEATHER_TURNS
from rules.cardgame import GameState, action_to_json
from tests.errors import reason

pytestmark = pytest.mark.django_db

NIGHT_RULES = {"night": "moonlight", "midair_collision": True}


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def _play_until_an_engine_battle_exists(campaign, user, capture, max_actions=1500):
    rng = random.Random(campaign.seed)
    for _ in range(max_actions):
        campaign.refresh_from_db()
        battle = Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:").first()
        if battle is not None:
            return battle
        state = GameState.from_json(campaign.state)
        actions = state.legal_actions()
        action = stand_in_choice(actions, rng)
        with capture(execute=True):
            services.campaign_act(
                campaign_id=campaign.pk, user=user, version=campaign.version,
                action=action_to_json(action), umpire_reason="the test plays both sides",
            )  # fmt: skip
    raise AssertionError("no engine engagement in time")


def test_an_engine_engagement_flies_with_the_campaigns_optional_rules_and_territory(
    catalog, users, django_capture_on_commit_callbacks
):
    demo_roster_create()
    campaign = services.campaign_create(
        name="Night war", created_by=users["organiser"], seed=4, resolution_mode="engine",
        squadrons=list(Squadron.objects.all()), engine_rules=NIGHT_RULES,
    )  # fmt: skip
    battle = _play_until_an_engine_battle_exists(
        campaign, users["organiser"], django_capture_on_commit_callbacks
    )
    assert battle.settings["rules"] == NIGHT_RULES  # recorded as set, and as flown:
    rules = battle.setup["rules"]
    assert rules["night"] == "moonlight" and rules["midair_collision"] is True
    # the campaign's turn limit, whatever the options; an Inclement Weather card in play
    # (its clouds rolled on the random chart) makes the fight 2 game turns shorter
    assert rules["max_turns"] == (8 - WEATHER_TURNS if rules["random_clouds"] else 8)
    assert rules["flak_fields"] == [] and rules["later_sixes"] is False
    # flown over the defender's ground: the attackers (the mission's planes, placed first,
    # entering at the south edge) over enemy ground; cards in play may move their rows
    attacker = battle.setup["aircraft"][0]["side"]
    assert battle.setup["aircraft"][0]["facing"] == 0
    territory = dict(zip(("axis", "allied"), battle.setup["territory"], strict=True))
    assert territory[attacker] == "enemy"
    assert territory["axis" if attacker == "allied" else "allied"] == "friendly"
    assert battle.settings["territory"] == territory
    battle.refresh_from_db()
    assert battle.status == "finished"


def test_territory_can_be_switched_off():
    on = SimpleNamespace(engine_territory=True)
    off = SimpleNamespace(engine_territory=False)
    assert _engine_territory(on, {"attacker": "allied"}) == ("friendly", "enemy")
    assert _engine_territory(on, {"attacker": "axis"}) == ("enemy", "friendly")
    assert _engine_territory(off, {"attacker": "axis"}) == ("neutral", "neutral")


def test_create_with_optional_rules_through_the_api(catalog, users):
    api = _client(users["organiser"])
    response = api.post(
        "/api/campaigns/create/",
        {"name": "Kammhuber Line", "seed": 2, "resolution_mode": "engine",
         "engine_rules": {**NIGHT_RULES, "night": "darkness", "searchlights": {"axis": True}},
         "engine_territory": False},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    shown = response.json()["campaign"]
    assert shown["optional_rules"] == ["midair collision", "darkness", "illumination"]
    assert shown["engine_territory"] is False
    campaign = Campaign.objects.get(name="Kammhuber Line")
    assert campaign.engine_rules == {
        "night": "darkness",
        "midair_collision": True,
        "searchlights": {"axis": True},
    }


@pytest.mark.parametrize(
    ("engine_rules", "field", "rule"),
    [
        ({"flak_fields": [[3, 3, 5]]}, "engine_rules.flak_fields[0]", "000 'FLAK FIELDS'"),
        ({"night": "dusk"}, "engine_rules.night", "000 'NIGHT COMBAT'"),
        (
            {"night": "moonlight", "searchlights": {"axis": True}},
            "engine_rules.searchlights",
            "000 'ILLUMINATION'",
        ),
        ({"max_turns": 3}, "engine_rules.max_turns", "invalid"),
    ],
)
def test_bad_optional_rules_are_a_400_and_no_campaign(catalog, users, engine_rules, field, rule):
    response = _client(users["organiser"]).post(
        "/api/campaigns/create/",
        {"name": "Bad", "engine_rules": engine_rules},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert (response.json()["field"], reason(response.json())) == (field, rule)
    assert not Campaign.objects.exists()


def test_only_the_organiser_changes_the_rules_and_bad_rules_change_nothing(campaign, users):
    url = f"/api/campaigns/{campaign.pk}/engine-rules/"
    assert _client(users["spectator"]).get(url).json()["optional_rules"] == []
    refused = _client(users["allied"]).put(
        url, {"engine_rules": NIGHT_RULES}, content_type="application/json"
    )
    assert refused.status_code == 403 and reason(refused.json()) == "permission"
    organiser = _client(users["organiser"])
    response = organiser.put(
        url,
        {"engine_rules": {"clouds": ["clear", "solid", "heavy", "light", "clear", "clear"]}},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json() == {
        "engine_rules": {"clouds": ["clear", "solid", "heavy", "light", "clear", "clear"]},
        "engine_territory": True,
        "optional_rules": ["clouds"],
    }
    bad = organiser.put(
        url,
        {"engine_rules": {"barrage_balloons": [[99, 1]]}, "engine_territory": False},
        content_type="application/json",
    )
    assert bad.status_code == 400
    assert bad.json()["field"] == "engine_rules.barrage_balloons[0]"
    campaign.refresh_from_db()
    assert campaign.engine_rules["clouds"][1] == "solid" and campaign.engine_territory is True


def test_the_pages_set_and_show_the_rules(catalog, users):
    demo_roster_create()
    organiser = _client(users["organiser"])
    form = {
        "name": "Blitz nights", "resolution_mode": "engine", "night": "darkness",
        "midair_collision": "on", "direction_allied": "2", "searchlights_allied": "on",
        "flak_fields": "8,10,3; 4,4,2", "barrage_balloons": "2,3", "engine_territory": "on",
    }  # fmt: skip
    assert organiser.post("/campaigns/new/", form).status_code == 302
    campaign = Campaign.objects.get(name="Blitz nights")
    assert campaign.engine_rules == {
        "night": "darkness", "midair_collision": True, "fighter_direction": {"allied": 2},
        "searchlights": {"allied": True}, "flak_fields": [[8, 10, 3], [4, 4, 2]],
        "barrage_balloons": [[2, 3]],
    }  # fmt: skip
    page = organiser.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert (
        "optional rules <strong>midair collision, flak fields, barrage balloons, darkness, "
        "fighter direction, illumination</strong>" in page
    )
    assert 'value="8,10,3; 4,4,2"' in page  # the organiser's form shows what is set
    # the organiser changes them from the page; a bad value is refused, naming the rule
    response = organiser.post(f"/campaigns/{campaign.pk}/engine-rules/", {"flak_fields": "8,10"})
    assert response.status_code == 400 and 'value="8,10"' in response.content.decode()
    assert "Not changed: 1 problem to fix" in response.content.decode()
    assert "Write each as column, row, altitude" in response.content.decode()
    assert "(rulebook 000, Flak fields)" in response.content.decode()
    organiser.post(f"/campaigns/{campaign.pk}/engine-rules/", {"night": "moonlight"})
    campaign.refresh_from_db()
    assert campaign.engine_rules == {"night": "moonlight"} and campaign.engine_territory is False


def test_the_admin_checks_the_rules_as_the_api_does(campaign):
    import json

    from django.forms.models import model_to_dict

    from campaign.admin import CampaignForm

    data = model_to_dict(campaign, fields=CampaignForm.Meta.fields)
    data["squadrons"] = [s.pk for s in data["squadrons"]]
    good = CampaignForm(instance=campaign, data={**data, "engine_rules": json.dumps(NIGHT_RULES)})
    assert good.is_valid(), good.errors
    bad = CampaignForm(
        instance=campaign, data={**data, "engine_rules": json.dumps({"flak_fields": [[1, 1, 9]]})}
    )
    assert not bad.is_valid()
    (message,) = bad.errors["engine_rules"]
    assert message.startswith(
        "engine_rules.flak_fields[0]: a flak field exists at altitude 2, 3 or 4"
    )
    assert message.endswith("(rulebook 000, Flak fields)")

"""Air Pirates battles fly the roster's control cards as organisers edited them (issue 26,
"Aircraft"; issue 25, "Aircraft data per game"), point-built flights from the new-battle
page and API (002 [14]), and a campaign pilot's own 002 quality (issue 26, "People")."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from roster.models import AircraftType, Pilot
from rules.airpirates.system import AIRPIRATES
from tests.battles.airpirates_product import (
    engine_campaign,
    first_engine_battle,
    organiser_with_demo_roster,
    page_text,
)

pytestmark = pytest.mark.django_db
CREATE = "/api/battles/create/"


@pytest.fixture
def staff(client, catalog):
    user = get_user_model().objects.create_superuser("staff", password="pw-staff-123")
    client.force_login(user)
    return client


def _edit(client, name: str, **values) -> None:
    """An organiser's edit of a type's Air Pirates card, through the API."""
    row = AircraftType.objects.get(name=name)
    card = json.loads(json.dumps(row.game_cards["airpirates"]))
    card["values"].update(values)
    for field in values:
        card["provenance"][field] = {"kind": "estimated", "source": "our club's ruling"}
    answer = client.patch(
        f"/api/roster/aircraft-types/{row.pk}/game-cards/",
        {"game_cards": {"airpirates": card}, "reason": "club ruling"},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content


def _create(client, capture, body):
    with capture(execute=True):
        return client.post(CREATE, body, content_type="application/json")


def test_a_battle_flies_the_edited_card_and_an_older_battle_replays_unchanged(
    staff, django_capture_on_commit_callbacks
):
    _edit(staff, "Bf 109E Wingman", gun_factor=7)
    body = {"system": "airpirates", "scenario": "basic", "seed": 11,
            "settings": {"policies": {"axis": "random", "allied": "random"}}}  # fmt: skip
    first = _create(staff, django_capture_on_commit_callbacks, body)
    assert first.status_code == 202, first.content
    old = Battle.objects.get(pk=first.json()["id"])
    axis = [u for u in AIRPIRATES.new_battle(old.setup, old.seed).units if u.side == "axis"]
    assert [u.card["gun_factor"] for u in axis] == [7, 7]  # the catalog's is 2
    # a later edit: the next battle flies it, the stored one replays as it was flown
    _edit(staff, "Bf 109E Wingman", gun_factor=12)
    second = _create(staff, django_capture_on_commit_callbacks, body)
    new = Battle.objects.get(pk=second.json()["id"])
    assert {u["card"]["gun_factor"] for u in new.setup["units"] if u["side"] == "axis"} == {12}
    old.refresh_from_db()
    again = AIRPIRATES.replay(old.setup, old.seed, old.actions)
    assert again.result() == old.result and again.log == old.log
    assert {u["card"]["gun_factor"] for u in old.setup["units"] if u["side"] == "axis"} == {7}


def test_point_built_flights_through_the_api_with_a_budget(
    staff, django_capture_on_commit_callbacks
):
    _edit(staff, "P-51 Mustang", point_value=14)
    flights = {
        "axis": [{"aircraft": "Bf 109E Wingman", "quality": "ace"},
                 {"aircraft": "Ki-27 Nate", "quality": "green"}],
        "allied": [{"aircraft": "P-51 Mustang", "quality": "inexperienced"}],
    }  # fmt: skip
    points = {
        q["value"]: q["points"] for q in AIRPIRATES.scenario_form("built")["flights"]["qualities"]
    }
    catalog = {
        o["value"]: o["points"] for o in AIRPIRATES.scenario_form("built")["flights"]["aircraft"]
    }
    axis = catalog["Bf 109E Wingman"] + points["ace"] + catalog["Ki-27 Nate"] + points["green"]
    body = {"system": "airpirates", "scenario": "built", "seed": 5, "flights": flights,
            "settings": {"policies": {"axis": "random", "allied": "random"},
                         "scenario_settings": {"budget": axis - 1}}}  # fmt: skip
    over = _create(staff, django_capture_on_commit_callbacks, body)
    assert over.status_code == 400
    assert over.json()["field"] == "flights.axis" and over.json()["rule"] == "002 '14a'"
    assert f"worth {axis} points, over the budget of {axis - 1}" in over.json()["detail"]
    body["settings"]["scenario_settings"]["budget"] = axis
    unequal = _create(staff, django_capture_on_commit_callbacks, body)
    assert unequal.status_code == 400 and unequal.json()["field"] == "flights.allied"
    assert f"worth {axis} (axis) and 13 (allied) points" in unequal.json()["detail"]  # 14 - 1
    body["settings"]["scenario_settings"] = {}
    made = _create(staff, django_capture_on_commit_callbacks, body)
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.status == "finished"
    units = battle.setup["units"]
    assert [(u["aircraft"], u["quality"]) for u in units] == [
        ("Bf 109E Wingman", "ace"), ("Ki-27 Nate", "green"), ("P-51 Mustang", "inexperienced"),
    ]  # fmt: skip
    assert units[2]["card"]["point_value"] == 14  # the roster's, as edited
    # another scenario takes no flights, nor settings of its own
    refused = _create(staff, django_capture_on_commit_callbacks, dict(body, scenario="basic"))
    assert refused.status_code == 400 and refused.json()["field"] == "flights"


def test_the_new_battle_page_builds_flights_and_shows_each_flights_points(staff):
    _edit(staff, "P-51 Mustang", point_value=14)
    page = staff.get("/battles/new/?system=airpirates")
    html = page.content.decode()
    assert "Point-built flights" in html
    assert '<option value="P-51 Mustang" data-points="14">P-51 Mustang (14 points)</option>' in html
    assert '<option value="P-51D" data-points="13">P-51D (13 points)</option>' in html
    assert 'data-points="-1">inexperienced (-1 point)</option>' in html
    assert "Axis flight: 0 points" in page_text(page)
    post = {
        "system": "airpirates", "scenario": "built",
        "axis_policy": "random", "allied_policy": "random",
        "built-axis_aircraft": ["P-51 Mustang", "P-51 Mustang", "", ""],
        "built-axis_quality": ["ace", "green", "average", "average"],
        "built-allied_aircraft": ["P-51 Mustang", "", "", ""],
        "built-allied_quality": ["experienced", "average", "average", "average"],
        "built-setting-budget": "20",
    }  # fmt: skip
    refused = staff.post("/battles/new/", post)
    assert refused.status_code == 400
    text = page_text(refused)
    assert "Axis flight: 28 points" in text and "Allied flight: 15 points" in text  # 16+12; 15
    assert "The axis flight is worth 28 points, over the budget of 20" in text
    assert 'value="20"' in refused.content.decode()  # what was entered is kept
    made = staff.post("/battles/new/", dict(post, **{"built-setting-budget": ""}))
    assert made.status_code == 302
    battle = Battle.objects.get()
    assert [u["quality"] for u in battle.setup["units"]] == ["ace", "green", "experienced"]


def test_a_campaign_engagement_flies_the_edited_cards_and_the_pilots_own_qualities(
    staff, django_capture_on_commit_callbacks
):
    organiser = organiser_with_demo_roster()
    for row in AircraftType.objects.exclude(game_cards__airpirates__values=None):
        if "values" in (row.game_cards or {}).get("airpirates", {}):
            _edit(staff, row.name, defence_factor=6)
    Pilot.objects.update(quality_scale="air_pirates", quality="inexperienced")
    campaign = engine_campaign(organiser, name="Pirate war", seed=6)
    battle = first_engine_battle(campaign, organiser, django_capture_on_commit_callbacks)
    assert battle.system == "airpirates"
    units = AIRPIRATES.new_battle(battle.setup, battle.seed).units
    assert units and {u.card["defence_factor"] for u in units} == {6}
    flown = {u["quality"] for u in battle.setup["units"]}
    assert flown == {"inexperienced"}, flown  # not "average" (Angels 20's word read back)


def test_a_card_stored_bad_behind_the_checks_is_a_400_naming_it_not_a_500(
    staff, django_capture_on_commit_callbacks
):
    row = AircraftType.objects.get(name="Bf 109E Wingman")
    cards = json.loads(json.dumps(row.game_cards))
    cards["airpirates"]["values"]["gun_factor"] = 99  # e.g. written by hand in the database
    AircraftType.objects.filter(pk=row.pk).update(game_cards=cards)
    body = {"system": "airpirates", "scenario": "basic", "seed": 3}
    answer = _create(staff, django_capture_on_commit_callbacks, body)
    assert answer.status_code == 400
    assert answer.json()["field"] == "cards.Bf 109E Wingman.gun_factor"
    assert "99 is outside 0..20" in answer.json()["detail"]
    assert not Battle.objects.exists()
    page = staff.get("/battles/new/?system=airpirates")  # the page still draws its form,
    html = page.content.decode()  # without the aircraft whose card has a problem
    assert page.status_code == 200 and "P-51D (13 points)" in html
    assert "Bf 109E Wingman (" not in html
    # a battle of other aircraft is not held up by it: each card is checked as it is flown
    mustangs = {side: [{"aircraft": "P-51D"}] for side in ("axis", "allied")}
    built = dict(body, scenario="built", flights=mustangs)
    assert _create(staff, django_capture_on_commit_callbacks, built).status_code == 202

"""Issue 23, "a campaign import creates only what the importer will own": a crafted,
re-sealed export file, imported by a stranger through ``POST /api/campaigns/import/`` (or
``manage.py campaign_import``), neither chooses dice, nor adds to the shared catalog, nor
creates, seats or enrols anyone, nor forges history, nor stores JSON the pages cannot
read. Every refusal is a 400 naming the path at fault, with nothing stored."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from battles.models import Battle
from battles.services import fly
from campaign import services
from campaign.exchange import campaign_export, dumps, seal
from campaign.exchange.document import TABLES
from campaign.models import Campaign, CampaignMember
from demo.roster import demo_roster_create
from roster.models import AircraftType, Squadron
from rules.angels20.scenario import dogfight

pytestmark = pytest.mark.django_db
IMPORT = "/api/campaigns/import/"
CHOSEN_SEED = 12345


@pytest.fixture
def people(db):
    User = get_user_model()
    return {
        "orga": User.objects.create_user("orga", password="pw-orga-123"),
        "allied": User.objects.create_user("churchill", password="pw-allied-123"),
        "axis": User.objects.create_user("goering", password="pw-axis-123"),
        "stranger": User.objects.create_user("stranger", password="pw-stranger-123"),
        "staff": User.objects.create_user("staffer", password="pw-staff-123", is_staff=True),
    }


def _battle(campaign: Campaign, status: str, **extra) -> Battle:
    return Battle.objects.create(
        scenario="dogfight", setup=dogfight().to_json(), seed=CHOSEN_SEED, status=status,
        source_key=f"campaign:{campaign.pk}:turn1:m0{Battle.objects.count() + 1}", **extra,
    )  # fmt: skip


@pytest.fixture
def document(catalog, people) -> dict:
    """orga's campaign (churchill and goering its commanders, a battle waiting for the
    computer) as exported, renamed so it can come back to this server as another campaign."""
    demo_roster_create()
    campaign = services.campaign_create(
        name="Channel 1941", created_by=people["orga"], seed=7,
        squadrons=list(Squadron.objects.all()),
    )  # fmt: skip
    for side, user in (("allied", people["allied"]), ("axis", people["axis"])):
        services.campaign_member_set(
            campaign=campaign, by=people["orga"], user=user, role="commander", side=side
        )
    _battle(campaign, "pending")
    return _renamed(json.loads(dumps(campaign_export(campaign))))


def _renamed(document: dict) -> dict:
    tables = document["tables"]
    for table, column in (
        ("campaign.campaign", "name"),
        ("roster.squadron", "name"),
        ("roster.airframe", "serial"),
    ):
        for row in tables[table]:
            row[column] = f"{row[column]} B"[:40] if column == "serial" else f"{row[column]} B"
    return document


def _counts() -> dict[str, int]:
    counted = {t: apps.get_model(t).objects.count() for t in (*TABLES, "auth.user")}
    counted["history"] = Campaign.history.count() + Squadron.history.count()
    return counted


def _post(user, document, query: str = ""):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(IMPORT + query, document, format="json")


def _refused(user, document, field: str, words: str = "", query: str = "") -> dict:
    before = _counts()
    response = _post(user, seal(document), query)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == field, body
    assert words in body["detail"], body
    assert _counts() == before
    return body


# -- 2. the dice -----------------------------------------------------------------------
def test_a_battle_in_play_seated_to_the_files_users_with_its_seed_is_refused(document, people):
    (battle,) = document["tables"]["battles.battle"]
    battle |= {
        "status": "in_play",
        "settings": {"seats": {"axis": {"user": "goering"}, "allied": {"user": "churchill"}}},
    }
    _refused(
        people["stranger"], document, "tables.battles.battle[0].status", "being flown by people"
    )
    assert not Battle.objects.filter(status="in_play").exists()


def test_a_battle_still_to_be_flown_gets_a_fresh_secret_seed(document, people):
    seeds = set()
    for copy in ("C", "D"):
        again = json.loads(json.dumps(document))
        again["tables"]["campaign.campaign"][0]["name"] += copy
        for row in again["tables"]["roster.squadron"]:
            row["name"] += copy
        for row in again["tables"]["roster.airframe"]:
            row["serial"] = row["serial"][:38] + copy
        response = _post(people["stranger"], seal(again))
        assert response.status_code == 201, response.content
        battle = Battle.objects.get(source_key__startswith=f"campaign:{response.json()['id']}:")
        assert battle.status == "pending" and battle.actions == []
        seeds.add(battle.seed)
    assert CHOSEN_SEED not in seeds and len(seeds) == 2  # the file's seed predicts nothing


# -- 3. only what the importer will own ------------------------------------------------
def test_an_aircraft_type_the_catalog_lacks_is_refused_and_the_catalog_unchanged(document, people):
    types = document["tables"]["roster.aircrafttype"]
    forged = {**types[0], "ref": 99, "name": "Wunderjäger", "attack_1": 99, "hits": 99}
    forged |= {"deck_copies": 9}
    types.append(forged)
    document["history"]["roster.aircrafttype"] = []
    names = set(AircraftType.objects.values_list("name", flat=True))
    at = f"tables.roster.aircrafttype[{len(types) - 1}].name"
    body = _refused(people["stranger"], document, at, "'Wunderjäger'")
    assert "not in this server's catalog" in body["detail"]
    assert set(AircraftType.objects.values_list("name", flat=True)) == names
    # only staff may ask to add it
    response = _post(people["stranger"], seal(document), "?catalog=1")
    assert response.status_code == 403
    assert not AircraftType.objects.filter(name="Wunderjäger").exists()
    response = _post(people["staff"], seal(document), "?catalog=1")
    assert response.status_code == 201, response.content
    assert AircraftType.objects.get(name="Wunderjäger").hits == 99


def test_the_files_people_are_not_created_seated_or_made_members(document, people):
    document["users"].append({"username": "admin", "first_name": "", "last_name": ""})
    document["tables"]["campaign.campaignmember"].append(
        {"ref": 9, "campaign": 1, "user": "admin", "role": "spectator", "side": ""}
    )
    users_before = get_user_model().objects.count()
    response = _post(people["stranger"], seal(document))
    assert response.status_code == 201, response.content
    imported = Campaign.objects.get(pk=response.json()["id"])
    assert get_user_model().objects.count() == users_before
    assert not get_user_model().objects.filter(username="admin").exists()
    assert list(CampaignMember.objects.filter(campaign=imported).values_list("user", "role")) == [
        (people["stranger"].pk, "organiser")
    ]
    assert imported.created_by == people["stranger"]
    assert not CampaignMember.objects.filter(user=people["allied"], campaign=imported).exists()
    report = " ".join(response.json()["report"])
    assert "churchill (commander of the Allied side)" in report and "admin (spectator)" in report
    assert "Invitations" in report


def test_a_finished_battle_is_a_record_its_seats_naming_nobody_here(document, people):
    (battle,) = document["tables"]["battles.battle"]
    flown = json.loads(json.dumps(fly(battle["setup"], CHOSEN_SEED, {"axis": "random"})))
    battle |= flown | {
        "status": "finished",
        "settings": {"seats": {"axis": {"user": "goering"}, "allied": {"pilot": "tactical"}}},
    }
    # a result the battle's own record does not give is refused
    forged = json.loads(json.dumps(document))
    forged["tables"]["battles.battle"][0]["result"]["winner"] = "forged"
    _refused(people["stranger"], forged, "tables.battles.battle[0].result.winner", "flown again")
    response = _post(people["stranger"], seal(document))
    assert response.status_code == 201, response.content
    stored = Battle.objects.get(source_key__startswith=f"campaign:{response.json()['id']}:")
    assert stored.settings["seats"]["axis"] == {"user": None}
    assert (stored.seed, stored.result) == (CHOSEN_SEED, flown["result"])  # replayed as flown


def test_forged_history_is_kept_as_text_never_as_another_user_or_date(document, people):
    rows = document["history"]["campaign.campaign"]
    rows[0] |= {
        "history_user": "orga",
        "history_date": "2020-01-01T00:00:00+00:00",
        "history_change_reason": "approved by staff",
    }
    response = _post(people["stranger"], seal(document))
    assert response.status_code == 201, response.content
    imported = Campaign.objects.get(pk=response.json()["id"])
    records = list(imported.history.order_by("history_id"))
    assert records and all(r.history_user_id in (None, people["stranger"].pk) for r in records)
    assert all(r.history_date.year != 2020 for r in records)
    assert records[0].history_change_reason.startswith("created by orga on 2020-01-01, imported")
    assert "stranger" in records[0].history_change_reason
    assert records[-1].history_user_id == people["stranger"].pk  # the import itself


# -- 4. JSON the pages read, checked as live data is -----------------------------------
@pytest.mark.parametrize(
    ("column", "value", "field"),
    [
        ("state", "turn-x", "tables.campaign.campaign[0].state.turn"),
        ("state", 5, "tables.campaign.campaign[0].state"),
        ("setup", {"planes": "x"}, "tables.campaign.campaign[0].setup"),
        ("computer_sides", ["allied", "axis"], "tables.campaign.campaign[0].computer_sides"),
        ("turn_weekdays", "x", "tables.campaign.campaign[0].turn_weekdays"),
        ("engine_rules", {"night": 5}, "tables.campaign.campaign[0].engine_rules.night"),
    ],
)
def test_a_campaign_state_the_game_did_not_make_is_refused(document, people, column, value, field):
    row = document["tables"]["campaign.campaign"][0]
    if value == "turn-x":
        row["state"]["turn"] = "x"
    else:
        row[column] = value
    _refused(people["stranger"], document, field)


def test_a_battle_setup_the_engine_cannot_read_is_refused(document, people):
    document["tables"]["battles.battle"][0]["setup"] = {"aircraft": "x"}
    _refused(people["stranger"], document, "tables.battles.battle[0].setup", "set-up")


@pytest.mark.parametrize(
    ("name", "words"),
    [("u" * 500, "at most 150 characters"), ("<script>alert(1)</script>", "valid username")],
)
def test_a_username_this_server_would_refuse_is_refused(document, people, name, words):
    document["users"][0]["username"] = name
    _refused(people["stranger"], document, "users[0].username", words)
    assert not get_user_model().objects.filter(username=name).exists()


def test_huge_numbers_are_refused(document, people):
    document["tables"]["campaign.campaign"][0]["seed"] = 10**30
    _refused(people["stranger"], document, "tables.campaign.campaign[0]", "seed")
    fresh = json.loads(json.dumps(document))
    fresh["tables"]["campaign.campaign"][0]["seed"] = 7
    fresh["tables"]["battles.battle"][0]["flights"] = {"axis": [{"cost": 10**40}]}
    _refused(people["stranger"], fresh, "tables.battles.battle[0].flights.axis[0].cost", "large")


def test_dangling_references_are_refused(document, people):
    battle = document["tables"]["battles.battle"][0]
    battle["source_key"] = "campaign:7:turn1:m01"
    _refused(people["stranger"], document, "tables.battles.battle[0].source_key", "ref 7")
    battle["source_key"] = "campaign:1:turn1:m01"
    battle["settings"] = {"campaign": 1, "pilots": [{"pilot_id": 999}]}
    _refused(people["stranger"], document, "tables.battles.battle[0].settings", "ref 999")


def test_the_command_refuses_a_type_the_catalog_lacks(document, people, tmp_path):
    document["tables"]["roster.aircrafttype"][0]["name"] = "Wunderjäger"
    path = tmp_path / "forged.json"
    path.write_text(dumps(seal(document)), encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError, match="'Wunderjäger' is not in this server's catalog"):
        call_command("campaign_import", str(path), "--organiser", "stranger")
    assert _counts() == before


# -- 9. a body too large to read -------------------------------------------------------
def test_a_body_over_the_limit_answers_the_apis_error_shape(people, settings):
    client = APIClient()
    client.force_authenticate(people["stranger"])
    body = b'{"pad": "' + b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + b'"}'
    response = client.post(IMPORT, body, content_type="application/json")
    assert response.status_code == 413
    error = response.json()
    assert error["code"] == "too_large" and error["field"] == "body"
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes" in error["detail"]
    assert error["errors"][0] == {k: v for k, v in error.items() if k != "errors"}


def test_the_schema_documents_the_import_document_and_the_413(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"][IMPORT]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/CampaignDocument"}
    document = schema["components"]["schemas"]["CampaignDocument"]
    assert set(document["required"]) == {"format", "kind", "checksum", "users", "tables", "history"}
    assert "campaign.campaign" in document["properties"]["tables"]["description"]
    assert [p["name"] for p in operation["parameters"]] == ["catalog", "mode", "preview"]
    mode = next(p for p in operation["parameters"] if p["name"] == "mode")
    assert mode["schema"]["enum"] == ["copy", "restore"]
    assert operation["responses"]["413"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }

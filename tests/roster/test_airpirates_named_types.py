"""The aircraft Air Pirates (002) names are roster types whose control cards organisers edit
(issue 25, "Aircraft data per game"; issue 26): the CR.42, the Nate, the Claude ... each with
its facts, its source and its estimates marked, edited through the API and the admin page
like any other type's, a bad value a 400 naming the field, and a battle flying the edit.
A database loaded before them gains them from ``load_catalog``, keeping every edit."""

from __future__ import annotations

import csv
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.forms.models import model_to_dict

from battles.models import Battle
from battles.other_games import roster_cards
from roster.catalog import CATALOG_DIR, catalog_load
from roster.models import AircraftType
from rules.airpirates.estimate import NAMED_IN_002
from rules.airpirates.system import AIRPIRATES
from rules.airpirates.units import catalog_card

CR42 = "CR.42"
CREATE = "/api/battles/create/"


@pytest.fixture
def staff(client, catalog):
    user = get_user_model().objects.create_superuser("staff", password="pw-staff-123")
    client.force_login(user)
    return client


def _url(row: AircraftType) -> str:
    return f"/api/roster/aircraft-types/{row.pk}/game-cards/"


def _edited(row: AircraftType, **values) -> dict:
    card = json.loads(json.dumps(row.game_cards["airpirates"]))
    card["values"].update(values)
    for field in values:
        card["provenance"][field] = {"kind": "estimated", "source": "our club's ruling"}
    return card


def _patch(client, row: AircraftType, card: dict):
    return client.patch(
        _url(row),
        {"game_cards": {"airpirates": card}, "reason": "club ruling"},
        content_type="application/json",
    )


def _named_rows(field: str) -> dict[str, dict[str, str]]:
    with (CATALOG_DIR / "airpirates_named_cards.csv").open(newline="", encoding="utf-8") as fh:
        return {r["name"]: r for r in csv.DictReader(fh) if r["field"] == field}


@pytest.mark.django_db
def test_every_aircraft_002_names_is_a_type_with_its_facts_source_and_card(catalog):
    named = AircraftType.objects.filter(origin="air_pirates")
    assert sorted(named.values_list("name", flat=True)) == sorted(NAMED_IN_002)
    cr42 = AircraftType.objects.get(name=CR42)
    # facts as the catalog keeps them (rules/catalog/aircraft_facts.tsv, "Fiat CR.42 Falco")
    assert (cr42.nation, cr42.side, cr42.year, cr42.kind) == ("Italy", "axis", 1939, "fighter")
    assert "aircraft_facts.tsv: Fiat CR.42 Falco" in cr42.source
    assert "Air Pirates: the aircraft 002 names as roster types" in cr42.source
    # its Angels 20 card is invented: every value of it marked estimated
    assert {"cost", "speed_max", "attack_1", "armor", "hits", "turn"} <= set(cr42.estimated_fields)
    # its control card is the shipped one, each value's kind and source as the file gives it
    block = cr42.game_card("airpirates")
    assert block["values"] == catalog_card(CR42)
    shipped = _named_rows("gun_factor")[CR42]
    assert block["provenance"]["gun_factor"] == {
        "kind": shipped["kind"],
        "source": shipped["source"],
    }
    assert block["provenance"]["gun_factor"]["kind"] == "estimated"
    printed = _named_rows("defence_factor")["P-51D"]  # 13b1.3 prints the P-51D's "4"
    mustang = AircraftType.objects.get(name="P-51D").game_card("airpirates")
    assert mustang["provenance"]["defence_factor"]["kind"] == printed["kind"] == "printed"
    assert mustang["values"]["defence_factor"] == 4
    assert "no Air Force (001) card" in cr42.game_card("airforce")["reason"]
    year_from_a_later_row = AircraftType.objects.get(name="Ki-43 II Oscar")
    assert "year" in year_from_a_later_row.estimated_fields
    assert "year" not in cr42.estimated_fields


@pytest.mark.django_db
def test_the_catalog_page_lists_them_with_their_estimates_marked(staff):
    page = staff.get("/aircraft/", {"q": "CR.42"})
    html = page.content.decode()
    assert page.status_code == 200 and "CR.42" in html and "Italy" in html
    assert 'class="num est">30</td>' in html  # its cost, an estimate


@pytest.mark.django_db
def test_an_organiser_edits_the_cr42_card_through_the_api(staff):
    cr42 = AircraftType.objects.get(name=CR42)
    assert cr42.game_cards["airpirates"]["values"]["gun_factor"] == 2  # the shipped estimate
    answer = _patch(staff, cr42, _edited(cr42, gun_factor=4, climb=2))
    assert answer.status_code == 200, answer.content
    assert answer.json()["games"]["airpirates"]["values"]["gun_factor"] == 4
    cr42.refresh_from_db()
    assert cr42.game_cards["airpirates"]["values"]["climb"] == 2
    assert cr42.history.latest().history_change_reason == "club ruling"
    shown = staff.get(f"/api/roster/aircraft-types/{cr42.pk}/").json()
    assert shown["games"]["airpirates"]["provenance"]["gun_factor"]["source"] == (
        "our club's ruling"
    )
    # a reload of the shipped catalog keeps the edit
    report = catalog_load()
    assert CR42 in report.differing
    cr42.refresh_from_db()
    assert cr42.game_cards["airpirates"]["values"]["gun_factor"] == 4


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"gun_factor": 99}, "99 is outside 0..20"),
        ({"gun_factor": "lots"}, "'lots' is not a whole number"),
        ({"engine_rating": "superb"}, "superb"),
    ],
)
@pytest.mark.django_db
def test_a_bad_value_on_the_cr42_card_is_a_400_naming_the_field(staff, values, message):
    cr42 = AircraftType.objects.get(name=CR42)
    before = cr42.game_cards
    answer = _patch(staff, cr42, _edited(cr42, **values))
    assert answer.status_code == 400
    field = next(iter(values))
    assert answer.json()["field"] == f"game_cards.airpirates.values.{field}"
    assert message in answer.json()["detail"]
    cr42.refresh_from_db()
    assert cr42.game_cards == before


def _admin_post(row: AircraftType, game_cards: dict) -> dict:
    data = {k: ("" if v is None else v) for k, v in model_to_dict(row).items() if k != "id"}
    for key in ("abilities", "estimated_fields"):
        data[key] = json.dumps(data[key])
    data["game_cards"] = json.dumps(game_cards)
    if not row.night_fighter:
        del data["night_fighter"]
    data["_change_reason"] = "club ruling"
    return data


@pytest.mark.django_db
def test_an_organiser_edits_the_cr42_card_on_its_admin_page(staff):
    cr42 = AircraftType.objects.get(name=CR42)
    url = f"/admin/roster/aircrafttype/{cr42.pk}/change/"
    page = staff.get(url)
    assert page.status_code == 200 and "CR.42" in page.content.decode()
    bad = {**cr42.game_cards, "airpirates": _edited(cr42, defence_factor=9)}
    refused = staff.post(url, _admin_post(cr42, bad))
    assert refused.status_code == 200  # the form again, naming the field
    assert "game_cards.airpirates.values.defence_factor: 9 is outside 0..6" in (
        refused.content.decode().replace("&#x27;", "'")
    )
    cr42.refresh_from_db()
    assert cr42.game_cards["airpirates"]["values"]["defence_factor"] == 3
    good = {**cr42.game_cards, "airpirates": _edited(cr42, defence_factor=2)}
    assert staff.post(url, _admin_post(cr42, good)).status_code == 302
    cr42.refresh_from_db()
    assert cr42.game_cards["airpirates"]["values"]["defence_factor"] == 2


@pytest.mark.django_db
def test_a_battle_flies_the_edited_cr42_card(staff, django_capture_on_commit_callbacks):
    cr42 = AircraftType.objects.get(name=CR42)
    assert _patch(staff, cr42, _edited(cr42, gun_factor=5, point_value=8)).status_code == 200
    flights = {
        "axis": [{"aircraft": CR42, "quality": "average"}],
        "allied": [{"aircraft": "Gladiator", "quality": "average"}],
    }
    body = {"system": "airpirates", "scenario": "built", "seed": 4, "flights": flights,
            "settings": {"policies": {"axis": "random", "allied": "random"}}}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        made = staff.post(CREATE, body, content_type="application/json")
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    stored = {u["aircraft"]: u["card"] for u in battle.setup["units"]}
    assert stored[CR42]["gun_factor"] == 5  # the shipped card's is 2
    assert stored[CR42]["point_value"] == 8
    assert stored["Gladiator"] == catalog_card("Gladiator")  # not edited: as shipped
    flown = AIRPIRATES.new_battle(battle.setup, battle.seed).units  # the engine's units
    assert [u.card["gun_factor"] for u in flown if u.side == "axis"] == [5]
    # the new-battle page offers it at its edited points
    page = staff.get("/battles/new/?system=airpirates").content.decode()
    assert '<option value="CR.42" data-points="8">CR.42 (8 points)</option>' in page
    # and a campaign's engagement handed the roster's cards (campaign.engagements) flies it
    entrant = {"quality": "average", "fighter": True, "experience": 0}
    setup = AIRPIRATES.campaign_engagement(
        [dict(entrant, side="axis", aircraft=CR42, pilot_ref="plane:1")],
        [dict(entrant, side="allied", aircraft="Gladiator", pilot_ref="plane:2")],
        name="Pirate war: sweep (turn 1)", turns=8, territory={"axis": "axis", "allied": "axis"},
        cards=roster_cards(AIRPIRATES),
    )  # fmt: skip
    assert [u["card"]["gun_factor"] for u in setup["units"] if u["side"] == "axis"] == [5]


# -- a database loaded before the named types ------------------------------------------
BEFORE = [("roster", "0010_airpirates_card_bomber_fields")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture
def back_to_latest():
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_database_loaded_before_gains_them_on_load_catalog_keeping_edits(back_to_latest):
    catalog_load()
    AircraftType.objects.filter(origin="air_pirates").delete()  # as loaded before them
    wingman = AircraftType.objects.get(name="Bf 109E Wingman")
    cards = json.loads(json.dumps(wingman.game_cards))
    cards["airpirates"]["values"]["gun_factor"] = 7  # an organiser's edit
    AircraftType.objects.filter(pk=wingman.pk).update(game_cards=cards)
    before = {t.name: (t.origin, t.game_cards) for t in AircraftType.objects.all()}
    assert len(before) == 63

    _migrate(BEFORE)  # the release before, then this one: no row changes
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert {t.name: (t.origin, t.game_cards) for t in AircraftType.objects.all()} == before

    call_command("load_catalog", verbosity=0)  # what ./bin/serve runs after migrating
    assert AircraftType.objects.filter(origin="air_pirates").count() == 24
    wingman.refresh_from_db()
    assert wingman.game_cards["airpirates"]["values"]["gun_factor"] == 7  # kept
    cr42 = AircraftType.objects.get(name=CR42)
    assert cr42.game_cards["airpirates"]["values"] == catalog_card(CR42)
    assert cr42.history.count() == 1  # created with its history record
    again = catalog_load()  # idempotent
    assert again.created == [] and again.updated == []
    assert again.differing == ["Bf 109E Wingman"]
    assert AircraftType.objects.count() == 87

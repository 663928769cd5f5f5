"""Issue 25: every aircraft type carries a card per game, each value printed or estimated
with its source, checked on load, in the admin and in the API, and kept through export."""

import csv
import json
import shutil

import pytest
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict

from campaign.exchange.exports import row_fields
from campaign.exchange.imports import ImportRefused, _decode
from roster.catalog import CATALOG_DIR, CatalogError, catalog_load
from roster.game_cards import GAMES, SCHEMAS
from roster.models import AircraftType

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_superuser("staff", password="pw-staff-123")
    client.force_login(user)
    return user


def _card(name, game):
    return AircraftType.objects.get(name=name).game_card(game)


def test_every_shipped_type_has_a_block_per_game_or_a_reason_and_each_passes_its_check(catalog):
    types = list(AircraftType.objects.all())
    assert len(types) == 63 + 24  # the catalog's, and the aircraft 002 names
    cards = 0
    for aircraft_type in types:
        for game in GAMES:
            block = aircraft_type.game_card(game)
            assert block is not None, (aircraft_type.name, game)
            if "reason" in block:
                assert block["reason"].strip()
                continue
            cards += 1
            if game in SCHEMAS:
                assert SCHEMAS[game].check(block) == [], (aircraft_type.name, game)
            for name in block["values"]:
                assert block["provenance"][name]["kind"] in ("printed", "estimated")
                assert block["provenance"][name]["source"]
    # Angels 20: all 87; Air Force: all but the generic bomber token and 002's 24 named;
    # Air Pirates: all but the token; the card game: its 30 deck planes
    assert cards == 87 + 62 + 86 + 30
    token = AircraftType.objects.get(name="Medium bomber token")
    assert "generic bomber token" in token.game_card("airpirates")["reason"]


def test_each_card_game_plane_maps_to_a_type_every_game_can_fly(catalog):
    planes = AircraftType.objects.exclude(deck="")
    assert planes.count() == 30
    for plane in planes:
        for game in GAMES:
            assert "values" in plane.game_card(game), (plane.name, game)
    mustang = AircraftType.objects.get(name="P-51 Mustang")
    assert mustang.game_card("cardgame")["values"]["card_af"] == mustang.card_af
    assert mustang.game_card("angels20")["values"]["speed_max"] == mustang.speed_max


def test_printed_and_estimated_values_say_so_with_their_source(catalog):
    mustang = _card("P-51 Mustang", "airpirates")
    assert mustang["values"]["point_value"] == 13
    assert mustang["provenance"]["point_value"]["kind"] == "printed"
    assert "002_cf8488af3a84ab09.txt" in mustang["provenance"]["point_value"]["source"]
    assert mustang["values"]["defence_factor"] == 4
    speed = mustang["provenance"]["level_speed"]
    assert speed["kind"] == "estimated"
    assert "Air Pirates control cards, estimated" in speed["source"]
    assert "North American P-51D Mustang" in speed["source"]
    zeke = _card('A6M2 "Zeke"', "airforce")
    assert zeke["values"]["point_value"] == 16
    assert zeke["provenance"]["point_value"]["kind"] == "printed"
    # the Angels 20 card reads alike: a field named in estimated_fields is estimated
    a20 = _card('A6M2 "Zeke"', "angels20")
    assert a20["provenance"]["turn"]["kind"] == "printed"
    assert a20["provenance"]["cost"]["kind"] == "estimated"


def _copy_with(tmp_path, filename, mutate):
    for f in CATALOG_DIR.iterdir():
        if f.suffix in (".csv", ".tsv"):
            shutil.copy(f, tmp_path / f.name)
    path = tmp_path / filename
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    mutate(rows)
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return tmp_path


def test_a_bad_value_is_refused_on_load_with_file_line_and_field_and_nothing_loads(db, tmp_path):
    def bad_defence(rows):
        row = next(
            r for r in rows if r["name"] == "P-51 Mustang" and r["field"] == "defence_factor"
        )
        row["value"] = "9"

    directory = _copy_with(tmp_path, "airpirates_cards.csv", bad_defence)
    with pytest.raises(CatalogError) as caught:
        catalog_load(directory=directory)
    message = str(caught.value)
    assert "airpirates_cards.csv, line " in message
    assert "field 'defence_factor'" in message
    assert "9 is outside 0..6" in message
    assert "002 'DEFENDER'S FIRING MODIFIER'" in message
    assert not AircraftType.objects.exists()


def test_a_value_without_a_kind_is_refused_on_load(db, tmp_path):
    def no_kind(rows):
        rows[3]["kind"] = "guessed"

    directory = _copy_with(tmp_path, "airforce_cards.csv", no_kind)
    with pytest.raises(CatalogError, match=r"airforce_cards.csv, line 5, field 'level_speed.kind'"):
        catalog_load(directory=directory)
    assert not AircraftType.objects.exists()


def test_a_second_load_changes_nothing_and_fills_a_missing_card(catalog):
    spitfire = AircraftType.objects.get(name="Spitfire Mk I Ace")
    cards = dict(spitfire.game_cards)
    AircraftType.objects.filter(pk=spitfire.pk).update(game_cards={"airforce": cards["airforce"]})
    report = catalog_load()
    assert report.differing == [] and report.updated == []
    spitfire.refresh_from_db()
    assert spitfire.game_cards == cards


def _bad_cards(aircraft_type):
    cards = json.loads(json.dumps(aircraft_type.game_cards))
    cards["airpirates"]["values"]["defence_factor"] = 9
    return cards


def test_the_api_refuses_a_bad_value_naming_its_path_and_rule_and_stores_nothing(
    client, staff, catalog
):
    mustang = AircraftType.objects.get(name="P-51 Mustang")
    before = mustang.game_cards
    url = f"/api/roster/aircraft-types/{mustang.pk}/game-cards/"
    answer = client.patch(url, {"game_cards": _bad_cards(mustang)}, content_type="application/json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == "game_cards.airpirates.values.defence_factor"
    assert body["rule"] == "002 'DEFENDER'S FIRING MODIFIER'"
    assert "9 is outside 0..6" in body["detail"]
    mustang.refresh_from_db()
    assert mustang.game_cards == before


def test_the_api_replaces_one_games_card_and_keeps_the_others(client, staff, catalog):
    mustang = AircraftType.objects.get(name="P-51 Mustang")
    card = json.loads(json.dumps(mustang.game_cards["airpirates"]))
    card["values"]["defence_factor"] = 3
    card["provenance"]["defence_factor"] = {"kind": "estimated", "source": "our club's ruling"}
    url = f"/api/roster/aircraft-types/{mustang.pk}/game-cards/"
    answer = client.patch(
        url,
        {"game_cards": {"airpirates": card}, "reason": "club ruling"},
        content_type="application/json",
    )
    assert answer.status_code == 200
    assert answer.json()["games"]["airpirates"]["values"]["defence_factor"] == 3
    mustang.refresh_from_db()
    assert mustang.game_cards["airforce"]["values"]["point_value"] > 0
    assert mustang.history.latest().history_change_reason == "club ruling"
    shown = client.get(f"/api/roster/aircraft-types/{mustang.pk}/").json()
    source = shown["games"]["airpirates"]["provenance"]["defence_factor"]["source"]
    assert source == "our club's ruling"


def test_the_api_edit_is_staffs(client, catalog):
    user = get_user_model().objects.create_user("pilot", password="pw-pilot-123")
    client.force_login(user)
    mustang = AircraftType.objects.get(name="P-51 Mustang")
    url = f"/api/roster/aircraft-types/{mustang.pk}/game-cards/"
    answer = client.patch(url, {"game_cards": {}}, content_type="application/json")
    assert answer.status_code == 403


def _admin_post(aircraft_type, game_cards):
    data = model_to_dict(aircraft_type)
    data = {k: ("" if v is None else v) for k, v in data.items() if k != "id"}
    for key in ("abilities", "estimated_fields"):
        data[key] = json.dumps(data[key])
    data["game_cards"] = json.dumps(game_cards)
    if not aircraft_type.night_fighter:
        del data["night_fighter"]
    data["_change_reason"] = "test"
    return data


def test_the_admin_refuses_a_bad_value_and_stores_nothing(client, staff, catalog):
    mustang = AircraftType.objects.get(name="P-51 Mustang")
    before = mustang.game_cards
    url = f"/admin/roster/aircrafttype/{mustang.pk}/change/"
    answer = client.post(url, _admin_post(mustang, _bad_cards(mustang)))
    assert answer.status_code == 200  # the form again, with the error
    assert "game_cards.airpirates.values.defence_factor: 9 is outside 0..6" in (
        answer.content.decode().replace("&#x27;", "'")
    )
    mustang.refresh_from_db()
    assert mustang.game_cards == before
    assert client.post(url, _admin_post(mustang, before)).status_code == 302


class _Ids:
    def __init__(self):
        self.ids = {}


def test_export_then_import_keeps_the_game_cards_and_refuses_a_bad_one(catalog):
    mustang = AircraftType.objects.get(name="P-51 Mustang")
    # the exchange document carries every concrete column of a type: game_cards too
    row = {f.name: getattr(mustang, f.attname) for f in row_fields(AircraftType)}
    row = json.loads(json.dumps({**row, "ref": 1}, default=str))
    assert "game_cards" in row
    imported = _decode("roster.aircrafttype", AircraftType, row, "t", _Ids(), [])
    assert imported.game_cards == mustang.game_cards
    row["game_cards"]["airpirates"]["values"]["defence_factor"] = 9
    with pytest.raises(ImportRefused, match="defence_factor: 9 is outside 0..6"):
        _decode("roster.aircrafttype", AircraftType, row, "t", _Ids(), [])


def test_the_api_answers_404_for_a_type_that_is_not_there(client, staff, catalog):
    answer = client.patch(
        "/api/roster/aircraft-types/999999/game-cards/",
        {"game_cards": {}},
        content_type="application/json",
    )
    assert answer.status_code == 404

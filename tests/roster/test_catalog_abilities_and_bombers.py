"""The catalog's special abilities are the engine's (an unknown one stops the load),
the card game's bombers are light or medium bombers, and its night fighters can
fight in darkness (docs/rulings.md "Bomber classes", "Aircraft catalog")."""

import csv
import shutil

import pytest

from battles.catalogue import stats_for
from roster.catalog import CATALOG_DIR, CatalogError, catalog_load, read_catalog
from roster.models import AircraftType
from rules.angels20.abilities import ABILITIES, KNOWN_ABILITIES, fights_in_darkness

pytestmark = pytest.mark.django_db

LIGHT = {
    "Douglas A-20 Havoc", "Havilland DH 98 Mosquito", "Bristol Blenheim", "Dornier Do 17",
    "Messerschmitt Me 410", "Junkers Ju 87 Stuka", "Henschel Hs 129",
}  # fmt: skip
MEDIUM = {"Douglas A-26 Invader", "Martin B-26 Marauder", "Junkers Ju 88"}


def _with_abilities(tmp_path, name, abilities):
    for f in CATALOG_DIR.glob("*.csv"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "card_game_tactical.csv"
    with path.open(newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, list(reader)
    line = next(i for i, r in enumerate(rows) if r["name"] == name) + 2
    next(r for r in rows if r["name"] == name)["abilities"] = abilities
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return tmp_path, line


def test_the_shipped_catalog_loads_and_every_ability_is_one_the_engine_knows(db):
    catalog = catalog_load()  # the loader itself, not the suite's fast copy of what it wrote
    assert catalog.total == AircraftType.objects.count() == 63 + 24  # + 002's named
    names = {a for row in read_catalog() for a in row["abilities"]}
    assert names <= KNOWN_ABILITIES, names - KNOWN_ABILITIES
    assert {"Killer Instinct", "Steady Shooter", "Bomber", "Night Fighter"} <= names


def test_an_unknown_ability_stops_the_load_naming_file_line_and_field(db, tmp_path):
    directory, line = _with_abilities(tmp_path, "P-47 Thunderbolt", "Bomber;Made Up")
    with pytest.raises(CatalogError) as caught:
        catalog_load(directory=directory)
    err = caught.value
    assert (err.path.name, err.line, err.column) == ("card_game_tactical.csv", line, "abilities")
    assert "unknown special ability 'Made Up'" in str(err)
    assert AircraftType.objects.count() == 0


def test_a_land_game_rule_is_refused_as_such(db, tmp_path):
    directory, line = _with_abilities(tmp_path, "P-47 Thunderbolt", "Steady Firing")
    with pytest.raises(CatalogError, match=f"line {line}, field 'abilities'") as caught:
        catalog_load(directory=directory)
    assert "rule of the land miniatures game" in str(caught.value)
    directory, _ = _with_abilities(tmp_path, "P-47 Thunderbolt", "Superior Armor 2")
    with pytest.raises(CatalogError, match="land miniatures game"):
        catalog_load(directory=directory)
    assert AircraftType.objects.count() == 0


def test_card_game_bombers_are_light_or_medium_and_heavies_stay_heavy(catalog):
    by_kind = {}
    for t in AircraftType.objects.filter(origin="card_game"):
        if "Bomber" in t.abilities:
            by_kind.setdefault(t.kind, set()).add(t.name)
    assert by_kind["light bomber"] == LIGHT
    assert by_kind["medium bomber"] == MEDIUM
    assert "Avro 683 Lancaster" in by_kind["heavy bomber"]
    assert "bomber" not in by_kind  # every card-game bomber has its class
    # the engine flies each with its class (illumination: light 4+, medium 3+, heavy 2+)
    assert stats_for(AircraftType.objects.get(name="Junkers Ju 87 Stuka")).kind == "light bomber"
    assert stats_for(AircraftType.objects.get(name="Junkers Ju 88")).kind == "medium bomber"
    lancaster = stats_for(AircraftType.objects.get(name="Avro 683 Lancaster"))
    assert lancaster.kind == "heavy bomber" and lancaster.is_bomber


def test_bomber_tokens_fly_as_medium_bombers(catalog):
    # 000 "BOMBER STATS": the He 111 tokens are medium bombers.
    for name in ("He 111 bomber token", "Medium bomber token"):
        stats = stats_for(AircraftType.objects.get(name=name))
        assert stats.kind == "medium bomber" and stats.is_bomber


def test_the_card_games_night_fighters_may_attack_in_darkness(catalog):
    night_fighters = AircraftType.objects.filter(night_fighter=True)
    assert night_fighters.count() == 9
    for t in night_fighters:
        assert "Night Fighter" in t.abilities, t.name
        assert fights_in_darkness(stats_for(t).abilities)
    for t in AircraftType.objects.filter(night_fighter=False):
        assert "Night Fighter" not in t.abilities, t.name
    assert ABILITIES["Night Fighter"].darkness


def test_an_organisers_edit_with_an_unknown_ability_is_refused(catalog):
    from django.core.exceptions import ValidationError

    typhoon = AircraftType.objects.get(name="Typhoon Interceptor")
    typhoon.abilities = ["Steady Shooter", "Made Up"]
    with pytest.raises(ValidationError) as caught:
        typhoon.full_clean()
    assert "unknown special ability 'Made Up'" in str(caught.value.message_dict["abilities"])


def test_the_catalog_page_and_admin_show_each_abilitys_rule(client, catalog):
    from django.contrib.auth import get_user_model

    page = client.get("/aircraft/").content.decode()
    assert '<abbr title="Rolls one extra attack die against a damaged target.' in page
    assert ">Night Fighter</abbr>" in page
    admin = get_user_model().objects.create_superuser("admin", password="pw-admin-123")
    client.force_login(admin)
    zeke = AircraftType.objects.get(name='A6M2 "Zeke"')
    change = client.get(f"/admin/roster/aircrafttype/{zeke.pk}/change/").content.decode()
    assert (
        "<strong>Expert Dogfighter</strong>: Aircraft attacking this aircraft take -1 per die."
        in change
    )

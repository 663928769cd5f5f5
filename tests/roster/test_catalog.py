import csv
import shutil
from collections import Counter
from pathlib import Path

import pytest

from angels.errors import RuleViolation
from roster.catalog import CATALOG_DIR, CatalogError, catalog_load
from roster.models import AircraftType

RULES_003 = Path(__file__).resolve().parents[3] / "shared" / "rules" / "003_93ec40e0c2d0344c.txt"

pytestmark = pytest.mark.django_db

# docs/rulings.md "Hurricane Mk I": the catalog uses the scenarios' spelling.
TSV_TO_CATALOG_NAME = {"Hurricane Mk 1": "Hurricane Mk I"}


def _snapshot():
    return sorted(
        AircraftType.objects.values_list("name", "cost", "deck_copies", "estimated_fields")
    )


def test_catalog_has_every_deck_card_with_its_copies(catalog):
    # 003 "ALLIED PLANE DECK CARD LIST": 18 planes, 30 cards; "LUFTWAFFEN ...": 12 planes, 34 cards.
    allied = AircraftType.objects.filter(deck="allied")
    luftwaffe = AircraftType.objects.filter(deck="luftwaffe")
    assert allied.count() == 18
    assert sum(allied.values_list("deck_copies", flat=True)) == 30
    assert luftwaffe.count() == 12
    assert sum(luftwaffe.values_list("deck_copies", flat=True)) == 34
    bf109 = AircraftType.objects.get(name="Messerschmitt Bf 109")
    assert (bf109.card_type, bf109.deck_copies, bf109.card_af, bf109.card_sf, bf109.card_gf) == (
        "F",
        7,
        7,
        None,
        None,
    )
    a20 = AircraftType.objects.get(name="Douglas A-20 Havoc")
    assert (a20.card_type, a20.card_af, a20.card_sf, a20.card_gf, a20.night_fighter) == (
        "B",
        10,
        8,
        9,
        True,
    )


@pytest.mark.skipif(not RULES_003.exists(), reason="the rulebook 003 is not beside the project")
def test_deck_counts_match_the_rulebook_text(catalog):
    text = RULES_003.read_text()
    for heading, deck in (
        ("ALLIED PLANE DECK CARD LIST", "allied"),
        ("LUFTWAFFEN PLANE DECK CARD LIST", "luftwaffe"),
    ):
        section = text.split(heading, 1)[1].split("PLANE DECK CARD LIST", 1)[0]
        for plane in AircraftType.objects.filter(deck=deck):
            assert (
                f"{plane.name} {plane.deck_copies} {plane.card_type} {plane.card_af} " in section
            ), plane.name


def test_catalog_has_all_angels20_cards_and_both_bomber_tokens(catalog):
    assert AircraftType.objects.filter(origin="angels20").count() == 33
    typhoon = AircraftType.objects.get(name="Typhoon Interceptor")
    # The sample card printed in 000 "HOW TO READ A STAT CARD": every value exact.
    assert (
        typhoon.cost,
        typhoon.speed_min,
        typhoon.speed_max,
        typhoon.high_speed_min,
        typhoon.high_speed_max,
    ) == (43, 2, 4, 5, 6)
    assert (
        typhoon.attack_1,
        typhoon.attack_2,
        typhoon.attack_3,
        typhoon.armor,
        typhoon.vital_armor,
        typhoon.hits,
    ) == (8, 6, 4, 4, 7, 3)
    assert typhoon.estimated_fields == []
    he111 = AircraftType.objects.get(name="He 111 bomber token")
    assert (he111.armor, he111.vital_armor, he111.hits, he111.cost, he111.speed_min) == (
        3,
        8,
        5,
        40,
        2,
    )


def test_every_unknown_stat_is_marked_estimated(catalog):
    tsv = Path(__file__).resolve().parents[3] / "shared" / "data" / "angels20_aircraft.tsv"
    if not tsv.exists():
        pytest.skip("shared/data is not beside the project")
    with tsv.open(newline="") as fh:
        rows = {r["card"]: r for r in csv.DictReader(fh, delimiter="\t")}
    assert len(rows) == 33
    for name, row in rows.items():
        t = AircraftType.objects.get(name=TSV_TO_CATALOG_NAME.get(name, name))
        for column, field in (
            ("armor", "armor"),
            ("vital", "vital_armor"),
            ("hits", "hits"),
            ("cost", "cost"),
            ("turn", "turn"),
        ):
            if row[column] == "":
                assert field in t.estimated_fields, (
                    f"{name}: {field} is blank in the data but not marked estimated"
                )
            else:
                assert field not in t.estimated_fields, (
                    f"{name}: {field} is printed but marked estimated"
                )
                assert getattr(t, field) == int(row[column])
    # Every card-game plane's tactical card is an estimate.
    for t in AircraftType.objects.filter(origin="card_game"):
        assert {"cost", "armor", "hits", "attack_1"} <= set(t.estimated_fields)


def test_reloading_the_catalog_changes_nothing(catalog):
    before = _snapshot()
    report = catalog_load()
    assert report.created == [] and report.updated == [] and report.differing == []
    assert len(report.unchanged) == AircraftType.objects.count() == 63 + 24  # + 002's named
    assert _snapshot() == before


def test_reload_keeps_organiser_edits_unless_reset(catalog):
    AircraftType.objects.filter(name="P-51 Mustang").update(cost=99)
    report = catalog_load()
    assert report.differing == ["P-51 Mustang"]
    assert AircraftType.objects.get(name="P-51 Mustang").cost == 99
    catalog_load(reset=True)
    assert AircraftType.objects.get(name="P-51 Mustang").cost != 99


def _broken_copy(tmp_path, filename, mutate):
    for f in CATALOG_DIR.glob("*.csv"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / filename
    with path.open(newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, list(reader)
    mutate(rows)
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return tmp_path


def test_a_broken_row_names_file_line_and_field_and_loads_nothing(db, tmp_path):
    def break_row(rows):
        rows[4]["armor"] = "heavy"

    directory = _broken_copy(tmp_path, "angels20_aircraft.csv", break_row)
    with pytest.raises(CatalogError) as excinfo:
        catalog_load(directory=directory)
    err = excinfo.value
    assert (err.path.name, err.line, err.column) == ("angels20_aircraft.csv", 6, "armor")
    assert "angels20_aircraft.csv, line 6, field 'armor'" in str(err)
    assert AircraftType.objects.count() == 0


def test_a_broken_row_leaves_an_existing_catalog_unchanged(catalog, tmp_path):
    before = _snapshot()

    def break_row(rows):
        rows[0]["copies"] = "0"

    directory = _broken_copy(tmp_path, "card_game_planes.csv", break_row)
    with pytest.raises(CatalogError, match="line 2, field 'copies'"):
        catalog_load(directory=directory, reset=True)
    assert _snapshot() == before


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("vital_armor", "2", "vital armor must be higher than armor"),
        ("speed_max", "1", "below its bottom"),
        ("pilot", "legend", "not one of"),
        ("estimated_fields", "wingspan", "not a catalog field"),
    ],
)
def test_each_row_rule_is_checked(db, tmp_path, column, value, message):
    def break_row(rows):
        rows[0][column] = value

    directory = _broken_copy(tmp_path, "card_game_tactical.csv", break_row)
    with pytest.raises(RuleViolation, match=message):
        catalog_load(directory=directory)
    assert AircraftType.objects.count() == 0


def test_load_catalog_command_reports_a_bad_row(db, tmp_path):
    from django.core.management import CommandError, call_command

    directory = _broken_copy(tmp_path, "card_game_planes.csv", lambda rows: rows[2].update(af="11"))
    with pytest.raises(CommandError, match="card_game_planes.csv, line 4, field 'af'"):
        call_command("load_catalog", directory=directory)


def test_catalog_names_are_unique_across_files():
    names = Counter()
    for f in ("angels20_aircraft.csv", "card_game_planes.csv"):
        with (CATALOG_DIR / f).open(newline="") as fh:
            names.update(r["name"] for r in csv.DictReader(fh))
    assert [n for n, c in names.items() if c > 1] == []


def test_battles_fly_the_engines_cards_for_the_shipped_catalog():
    """One mapping (ruling "One aircraft table"): a loaded row flies as the engine's card."""
    from battles.catalogue import stats_for
    from roster.catalog import read_catalog
    from rules.angels20 import CATALOGUE

    rows = [r for r in read_catalog() if r["name"] in CATALOGUE]
    assert len(rows) == len(CATALOGUE)
    for values in rows:
        assert stats_for(AircraftType(**values)) == CATALOGUE[values["name"]]

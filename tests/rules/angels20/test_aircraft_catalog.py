"""The one aircraft table: the engine reads the shipped catalog (ruling "One aircraft table")."""

from __future__ import annotations

import csv

import pytest

from rules.angels20 import CATALOGUE
from rules.angels20.aircraft import (
    ANGELS20_FILE,
    CATALOG_DIR,
    CardFieldError,
    card_fields,
    read_cards,
    stats_from_fields,
)


def _rows():
    with (CATALOG_DIR / ANGELS20_FILE).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_catalogue_is_every_row_of_the_shipped_file():
    rows = _rows()
    assert list(CATALOGUE) == [r["name"] for r in rows]
    for row in rows:
        card = CATALOGUE[row["name"]]
        assert (card.cost, card.pilot, card.attack) == (
            int(row["cost"]),
            row["pilot"],
            (int(row["attack_1"]), int(row["attack_2"]), int(row["attack_3"])),
        )


def test_the_printed_typhoon_card_and_the_bomber_tokens():
    # 000 "HOW TO READ A STAT CARD": the sample card, printed in full
    t = CATALOGUE["Typhoon Interceptor"]
    assert (t.cost, t.pilot, t.speed_min, t.speed_max, t.high_speed_min, t.high_speed_max) == (
        43,
        "veteran",
        2,
        4,
        5,
        6,
    )
    assert (t.attack, t.armor, t.vital_armor, t.hits) == ((8, 6, 4), 4, 7, 3)
    # 000 "BOMBER STATS": the tokens fly as medium bombers (ruling "Bomber classes")
    for name in ("He 111 bomber token", "Medium bomber token"):
        assert CATALOGUE[name].kind == "medium bomber" and CATALOGUE[name].is_bomber


@pytest.mark.parametrize(
    "column, value, message",
    [
        ("armor", "x", "'x' is not a whole number"),
        ("cost", "", "a value is required"),
        ("kind", "zeppelin", "'zeppelin' is not one of"),
        ("vital_armor", "2", "vital armor must be higher than armor"),
        ("abilities", "Artillery", "Artillery"),
    ],
)
def test_a_bad_value_names_its_column(column, value, message):
    row = dict(_rows()[0], **{column: value})
    with pytest.raises(CardFieldError) as err:
        card_fields(row)
    assert err.value.column == column and message in err.value.message


def test_read_cards_names_the_file_and_line(tmp_path):
    rows = _rows()
    rows[2]["hits"] = "0"
    path = tmp_path / ANGELS20_FILE
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(CardFieldError) as err:
        read_cards(path)
    assert err.value.column == "hits" and f"{ANGELS20_FILE}, line 4" in err.value.message


def test_stats_from_fields_is_the_inverse_of_the_columns():
    row = _rows()[0]
    assert stats_from_fields(row["name"], card_fields(row)) == CATALOGUE[row["name"]]

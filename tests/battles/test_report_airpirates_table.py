"""An Air Pirates battle's report as its reader sees it: the outcome table names each unit
once with the number its log calls it by (not "#3 Spitfire Mk I Ace #1 (experienced)": the
point-built scenario numbers each side's units in their names, and the Pilot column gives
the quality), shows no Survival column (the game has
no pilot survival roll; Angels 20's report keeps it), and its log's hexes are where the
report's map draws them (the gameboard is drawn turned: docs/rulings.md, "Air Pirates: the
gameboard on the battle pages"). (``flyer`` is tests/battles/conftest.py's.)"""

from __future__ import annotations

import re

import pytest

from tests.battles.airpirates_product import flown_by_engine

FLIGHTS = {
    "axis": [{"aircraft": "Bf 109E Ace", "quality": "ace"},
             {"aircraft": "Bf 109E Wingman", "quality": "average"}],
    "allied": [{"aircraft": "Spitfire Mk I Ace", "quality": "experienced"},
               {"aircraft": "Hurricane Mk I", "quality": "green"}],
}  # fmt: skip


def _table(page: str) -> str:
    return page.split("<h2>Outcome</h2>", 1)[1].split("</table>", 1)[0]


def _cells(row: str) -> list[str]:
    return [
        " ".join(re.sub(r"<[^>]+>", " ", c).split())
        for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", row, re.S)
    ]


@pytest.mark.django_db
def test_an_air_pirates_report_names_each_unit_once_with_one_number_and_no_empty_column(
    flyer, django_capture_on_commit_callbacks
):
    body = {"system": "airpirates", "scenario": "built", "seed": 5, "flights": FLIGHTS,
            "settings": {"policies": {"axis": "competent", "allied": "competent"}}}  # fmt: skip
    battle = flown_by_engine(flyer, django_capture_on_commit_callbacks, body)
    assert battle.setup["units"][1]["name"] == "Bf 109E Wingman #2"  # the scenario's own name
    response = flyer.get(f"/battles/{battle.pk}/")
    table = _table(response.content.decode())
    rows = [_cells(r) for r in re.findall(r"<tr>.*?</tr>", table, re.S)]
    assert rows[0] == ["Aircraft", "Side", "Pilot", "Fate"]  # no Survival column
    assert [r[0] for r in rows[1:]] == [
        "#1 Bf 109E Ace", "#2 Bf 109E Wingman", "#3 Spitfire Mk I Ace", "#4 Hurricane Mk I",
    ]  # fmt: skip
    assert all(len(r) == 4 for r in rows[1:])  # no empty cell either

    # each hex the log names is where the map draws the unit after that entry
    placed = 0
    for frame in response.context["frames"]:
        said = re.match(r"unit (\d+) (?:is placed at|moves \(\d+, \d+\) to) \((\d+), (\d+)\)",
                        frame["text"])  # fmt: skip
        if said is None:
            continue
        unit, col, row = (int(g) for g in said.groups())
        drawn = {(p["plane"]): (p["col"], p["row"]) for p in frame["aircraft"]}
        assert drawn[unit] == (col, row), frame["text"]
        placed += 1
    assert placed > 20


@pytest.mark.django_db
def test_an_angels_20_report_keeps_its_survival_column(flyer, django_capture_on_commit_callbacks):
    battle = flown_by_engine(
        flyer, django_capture_on_commit_callbacks, {"scenario": "dogfight", "seed": 4}
    )
    table = _table(flyer.get(f"/battles/{battle.pk}/").content.decode())
    assert "<th>Survival</th>" in table
    assert table.count("<tr>") == 1 + len(battle.result["aircraft"])
    assert all(len(_cells(r)) == 5 for r in re.findall(r"<tr>.*?</tr>", table, re.S))

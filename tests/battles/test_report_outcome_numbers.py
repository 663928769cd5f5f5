"""The report's outcome table numbers each aircraft as its battle's log does: the view gives
each row its number (``battles.report.outcome_rows``: the result's ``id``), the template
prints it. Angels 20's ids are the aircraft's positions, so its report reads as it always
has ("#0" first); Air Pirates numbers its units from 1 ("unit 1" in its log). (``flyer``
is tests/battles/conftest.py's.)"""

from __future__ import annotations

import re

import pytest

from battles.models import Battle
from battles.report import outcome_rows, unnumbered
from tests.battles.airpirates_product import flown_by_engine

ROW = re.compile(r"<tr><td>#(\d+) ([^<]+)</td><td>(axis|allied)</td>")


def _outcome(flyer, battle: Battle) -> tuple[list[tuple[int, str, str]], str]:
    response = flyer.get(f"/battles/{battle.pk}/")
    page = response.content.decode()
    table = page.split("<h2>Outcome</h2>", 1)[1].split("</table>", 1)[0]
    rows = [(int(n), name, side) for n, name, side in ROW.findall(table)]
    assert [r["number"] for r in response.context["outcome"]] == [n for n, _, _ in rows]
    return rows, table


def _kills_read(table: str) -> set[tuple[int, int]]:
    """(attacker, target) of each row reading "#<target> ... destroyed by #<attacker>"."""
    read = set()
    for row in re.findall(r"<tr><td>#.*?</tr>", table, re.S):
        found = re.match(r"<tr><td>#(\d+) .*destroyed by #(\d+)", row, re.S)
        if found:
            read.add((int(found[2]), int(found[1])))
    return read


def _kills(battle: Battle) -> set[tuple[int, int]]:
    return {(k["attacker"], k["target"]) for k in battle.result["kills"]}


@pytest.mark.django_db
def test_an_angels_20_report_numbers_its_aircraft_by_position_as_before(
    flyer, django_capture_on_commit_callbacks
):
    battle = flown_by_engine(
        flyer, django_capture_on_commit_callbacks, {"scenario": "dogfight", "seed": 4}
    )
    rows, table = _outcome(flyer, battle)
    setup = battle.setup["aircraft"]
    # "#0" first, each aircraft's position in the scenario: as the report always read
    assert rows == [(i, a["stats"]["name"], a["side"]) for i, a in enumerate(setup)]
    assert rows == [
        (i, a["name"], a["side"]) for i, a in enumerate(battle.result["aircraft"])
    ]  # the page's number at each row is the one before it had any (forloop.counter0)
    # the log names the same aircraft by the same numbers, and so does a kill
    logged = {e["plane"] for e in battle.log if isinstance(e.get("plane"), int)}
    assert logged and logged <= {n for n, _, _ in rows}
    assert _kills(battle) and _kills_read(table) == _kills(battle)


@pytest.mark.django_db
def test_an_air_pirates_report_numbers_its_units_as_its_log_does(
    flyer, django_capture_on_commit_callbacks
):
    body = {
        "system": "airpirates", "scenario": "fighters", "seed": 3,
        "settings": {"policies": {"axis": "competent", "allied": "competent"}},
    }  # fmt: skip
    battle = flown_by_engine(flyer, django_capture_on_commit_callbacks, body)
    rows, table = _outcome(flyer, battle)
    units = battle.setup["units"]
    # unit n of the log is the scenario's n-th unit: "#1 Bf 109E" (its name "Bf 109E (ace)",
    # the ace in the Pilot column: report.unnumbered), no "#0"
    assert rows == [
        (n, unnumbered(units[n - 1]["name"], units[n - 1]["quality"]), units[n - 1]["side"])
        for n in (1, 2, 3, 4)
    ]
    assert rows[0][:2] == (1, "Bf 109E") and rows[1][:2] == (2, "Bf 109E (wingman)")
    logged = {e["unit"] for e in battle.log if isinstance(e.get("unit"), int)}
    assert logged == {1, 2, 3, 4}
    page = flyer.get(f"/battles/{battle.pk}/").content.decode()
    placed = dict(re.findall(r"unit (\d) is placed at (\(\d+, \d+\))", page))
    assert set(placed) == {"1", "2", "3", "4"}  # the log's own words use these numbers
    assert _kills(battle) and _kills_read(table) == _kills(battle)


def test_each_row_takes_the_results_id_even_where_it_is_not_the_rows_position():
    crews = {0: {"name": "Hubert Zemke", "url": "/pilots/1/"}}
    result = {"aircraft": [{"id": 2, "name": "c"}, {"id": 0, "name": "a"}, {"id": 1, "name": "b"}]}
    rows = outcome_rows(result, crews)
    # id 0 is "#0", not the row's position (a template's "default" took 0 for missing)
    assert [(r["number"], r["name"]) for r in rows] == [(2, "c"), (0, "a"), (1, "b")]
    # the roster pilot by the number the game calls it by (battles.selectors.battle_crews)
    assert rows[1]["crew"] == crews[0] and rows[0]["crew"] is None
    stored = {"aircraft": [{"name": "a"}, {"name": "b"}]}  # a result without ids
    assert [r["number"] for r in outcome_rows(stored)] == [0, 1]
    assert outcome_rows(None) == []

"""The report's list of kills names each aircraft of any game: an Air Pirates report read
"turn 2: ? shot down ?" (the names came only from Angels 20's ``setup["aircraft"]``); now
each game names its aircraft (``rules.tactical.aircraft_names``), numbered as its log and
result number them, for the kills list, the map and the log alike. (``flyer`` is
tests/battles/conftest.py's.)"""

from __future__ import annotations

import json
import re

import pytest

from battles.models import Battle
from rules.tactical import aircraft_names, system_named
from tests.battles.airpirates_product import flown_by_engine


@pytest.mark.django_db
def test_an_air_pirates_report_names_who_shot_down_whom(flyer, django_capture_on_commit_callbacks):
    body = {
        "system": "airpirates", "scenario": "fighters", "seed": 3,
        "settings": {"policies": {"axis": "competent", "allied": "competent"}},
    }  # fmt: skip
    battle = flown_by_engine(flyer, django_capture_on_commit_callbacks, body)
    assert battle.result["kills"]
    page = flyer.get(f"/battles/{battle.pk}/").content.decode()
    listed = re.findall(r"<li>turn (\d+): (.*?) shot down (.*?)</li>", page)
    names = {a["id"]: a["name"] for a in battle.result["aircraft"]}
    assert listed == [
        (str(k["turn"]), f"#{k['attacker']} {names[k['attacker']]} ({_pilot(battle, k['attacker'])} pilot)",
         f"#{k['target']} {names[k['target']]} ({_pilot(battle, k['target'])} pilot)")
        for k in battle.result["kills"]
    ]  # fmt: skip
    assert "?" not in "".join(a + b for _, a, b in listed)


def _pilot(battle: Battle, number: int) -> str:
    return next(a["pilot"] for a in battle.result["aircraft"] if a["id"] == number)


@pytest.mark.django_db
def test_the_report_names_each_unit_of_air_pirates_as_its_result_does(
    flyer, django_capture_on_commit_callbacks
):
    """The names come from the game (``rules.tactical.aircraft_names``), not the result: the
    report's names of every unit (its map's titles, read by report.js) are the result's."""
    body = {
        "system": "airpirates", "scenario": "fighters", "seed": 3,
        "settings": {"policies": {"axis": "competent", "allied": "competent"}},
    }  # fmt: skip
    battle = flown_by_engine(flyer, django_capture_on_commit_callbacks, body)
    page = flyer.get(f"/battles/{battle.pk}/").content.decode()
    script = page.split('<script id="plane-names" type="application/json">', 1)[1]
    shown = json.loads(script.split("</script>", 1)[0])
    assert shown == {
        str(a["id"]): f"#{a['id']} {a['name']} ({a['pilot']} pilot)"
        for a in battle.result["aircraft"]
    }
    assert aircraft_names(system_named("airpirates"), battle.setup) == {
        a["id"]: (a["name"], a["pilot"]) for a in battle.result["aircraft"]
    }

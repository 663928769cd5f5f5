"""The report's list of kills names each aircraft of any game: an Air Pirates report read
"turn 2: ? shot down ?" (the names came only from Angels 20's ``setup["aircraft"]``); they
now come from the result's own aircraft, numbered as its log numbers them. (``flyer`` is
tests/battles/conftest.py's.)"""

from __future__ import annotations

import re

import pytest

from battles.models import Battle


@pytest.mark.django_db
def test_an_air_pirates_report_names_who_shot_down_whom(flyer, django_capture_on_commit_callbacks):
    body = {
        "system": "airpirates", "scenario": "fighters", "seed": 3,
        "settings": {"policies": {"axis": "competent", "allied": "competent"}},
    }  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        made = flyer.post("/api/battles/create/", body, content_type="application/json")
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.status == "finished" and battle.result["kills"], battle.error
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

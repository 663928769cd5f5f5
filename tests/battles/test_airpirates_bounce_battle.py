"""Air Pirates' bounce scenario (002 15b, 9a1.7, 9f) flown by the product: offered on the
new-battle page, flown by the engine to its end, replayed from its record, and its report
telling the sun and each spotting attempt with its dice and rule."""

from __future__ import annotations

import re

import pytest

from battles.models import Battle
from rules.airpirates.system import AIRPIRATES
from tests.battles.airpirates_product import page_text

pytestmark = pytest.mark.django_db


def test_the_bounce_scenario_is_flown_and_its_report_tells_the_spotting(
    flyer, django_capture_on_commit_callbacks
):
    page = flyer.get("/battles/new/").content.decode()
    assert '<option value="bounce">The bounce: the basic game with spotting' in page
    body = {
        "system": "airpirates", "scenario": "bounce", "seed": 11,
        "settings": {"policies": {"axis": "random", "allied": "random"}},
    }  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        made = flyer.post("/api/battles/create/", body, content_type="application/json")
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.status == "finished" and battle.setup["options"] == ["bounce", "spotting"]
    again = AIRPIRATES.replay(battle.setup, battle.seed, battle.actions)
    assert again.log == battle.log
    report = page_text(flyer.get(f"/battles/{battle.pk}/"))
    assert re.search(
        r"(axis|allied) puts the sun to the (E|SE|SW|W|NW|NE)\. \[002 '9a1\.7'\]", report
    )
    assert re.search(
        r"unit \d tries to spot unit \d: d10 \d+ and \d+; spotting [^;]+; spotting numbers \d+ "
        r"against \d+: (a tally|not spotted)\. \[002 '15b5'\]",
        report,
    )

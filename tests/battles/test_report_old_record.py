"""A finished battle's report replays its record as it was flown: each action was checked
when it was taken, so a record kept from before a later reading of a rule (002 3b: a unit
is no longer placed facing off the board) still shows its report, every frame drawn."""

from __future__ import annotations

import json
import re

import pytest

from rules.airpirates.actions import Place
from rules.airpirates.pilots import CompetentPilot, play_out
from rules.airpirates.state import new_battle
from tests.battles.airpirates_product import flown_by_engine


@pytest.mark.django_db
def test_a_record_the_rules_now_refuse_still_shows_its_report(
    flyer, django_capture_on_commit_callbacks
):
    body = {
        "system": "airpirates", "scenario": "basic", "seed": 5,
        "settings": {"policies": {"axis": "competent", "allied": "competent"}},
    }  # fmt: skip
    battle = flown_by_engine(flyer, django_capture_on_commit_callbacks, body)
    # the same battle as an older engine let it be flown: unit 1 placed on the west edge
    # facing west, off the board (refused now, 3b)
    old = new_battle(battle.setup, battle.seed)
    first = Place(1, (0, 5), 3)
    assert old.refusal(first) is not None
    old.apply_unchecked(first)
    pilots = [CompetentPilot(1), CompetentPilot(2)]
    play_out(old, pilots)
    battle.actions = list(old.actions)
    battle.log, battle.result = old.log, old.result()
    battle.save()
    page = flyer.get(f"/battles/{battle.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    frames = json.loads(re.search(r'id="frames"[^>]*>(.*?)</script>', text, re.S)[1])
    assert len(frames) == len(old.log) and any(f.get("aircraft") for f in frames)

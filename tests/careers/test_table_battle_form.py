"""The table-battle form helps (issue 16, "Forms that help"): after a bad post every
problem is listed at once, each number's bounds are said in plain words, and what was
typed is kept."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model

from angels.numbers import MAX_TURN
from careers.forms import MAX_GAME_TURN, MAX_HITS, MAX_SMALL
from careers.models import TableBattle

pytestmark = pytest.mark.django_db


def _management(prefix: str, rows: int) -> dict[str, str]:
    return {f"{prefix}-TOTAL_FORMS": str(rows), f"{prefix}-INITIAL_FORMS": "0"}


def test_every_number_out_of_bounds_is_listed_in_words_and_the_input_kept(client):
    client.force_login(get_user_model().objects.create_user("clerk", is_staff=True))
    post = {
        "name": "Over Dover", "system": "", "territory": "",
        "campaign_turn": "99999",
        **_management("flight", 1), "flight-0-damage": "999", "flight-0-fires": "12",
        "flight-0-crew_hits": "-1", "flight-0-cockpit_hits": "10",
        **_management("shot", 1), "shot-0-turn": "500", "shot-0-sequence": "100",
    }  # fmt: skip
    response = client.post("/table-battles/new/", post)
    assert response.status_code == 400 and not TableBattle.objects.exists()
    page = html.unescape(response.content.decode())
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    for bound in (
        f"less than or equal to {MAX_TURN}",  # campaign turn
        f"less than or equal to {MAX_HITS}",  # damage, sequence
        f"less than or equal to {MAX_SMALL}",  # fires, cockpit hits
        "greater than or equal to 0",  # crew hits
        f"less than or equal to {MAX_GAME_TURN}",  # the shot's game turn
    ):
        assert bound in text, bound
    assert text.count("This field is required") >= 2  # system and territory, with the rest
    for name, value in (
        ("name", "Over Dover"), ("campaign_turn", "99999"), ("flight-0-damage", "999"),
        ("flight-0-crew_hits", "-1"), ("shot-0-turn", "500"),
    ):  # fmt: skip
        assert re.search(rf'name="{name}"[^>]*value="{re.escape(value)}"', page) or re.search(
            rf'value="{re.escape(value)}"[^>]*name="{name}"', page
        ), f"{name} not kept"

"""Air Pirates' point-built flights refused on the new-battle page (issue 26, "People"):
every problem of the form is told at once, each beside its field (a slot's pilot quality
beside that slot, a flight over the budget or with no air unit beside the flight, a budget
that is no number beside the budget), and what was entered is kept, a value not in a list
too (shown chosen, said to be so); nothing is created."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from tests.battles.airpirates_product import page_text

pytestmark = pytest.mark.django_db

POST = {
    "system": "airpirates", "scenario": "built", "axis_policy": "random", "allied_policy": "random",
    "built-axis_aircraft": ["P-51D", "P-51D", "", ""],
    "built-axis_quality": ["average", "legendary", "average", "average"],
    "built-allied_aircraft": ["", "", "", ""],
    "built-allied_quality": ["average", "average", "average", "average"],
    "built-setting-budget": "14",
}  # fmt: skip


@pytest.fixture
def builder(client, catalog):
    client.force_login(get_user_model().objects.create_user("builder", password="pw-123456"))
    return client


def _flight(html: str, side: str) -> str:
    """The part of the page of one side's built flight (its heading to the next flight)."""
    start = html.index(f"<h3>{side} flight:")
    end = html.find('<div class="flight"', start)
    return html[start : end if end > 0 else html.index("</fieldset>", start)]


def _slot(flight: str, n: int) -> str:
    return re.findall(r'<p class="slot[^"]*">.*?</p>', flight, re.S)[n - 1]


def test_every_problem_of_a_built_flight_is_told_at_once_beside_its_field(builder):
    refused = builder.post("/battles/new/", POST)
    assert refused.status_code == 400
    assert not Battle.objects.exists()
    text = page_text(refused)
    assert "The battle was not created: 3 problems to fix." in text
    html = refused.content.decode()
    axis, allied = _flight(html, "Axis"), _flight(html, "Allied")
    # the bad quality beside its own slot, kept chosen and said not to be in the list
    second = _slot(axis, 2)
    assert "Air unit 2: a pilot&#x27;s quality is one of green, inexperienced" in second
    assert '<option value="legendary" data-points="" selected>legendary (not in the list)' in second
    assert 'value="P-51D" data-points="13" selected' in second
    assert "field-error" not in _slot(axis, 1)
    # the flight over the budget, and the one with no air unit, beside their flights
    assert "The axis flight is worth 26 points, over the budget of 14" in axis
    assert "The allied flight has no air unit: choose at least one aircraft" in allied
    assert 'name="built-setting-budget" value="14"' in html  # the budget kept


def test_a_budget_that_is_no_number_is_told_beside_the_budget(builder):
    post = dict(POST, **{"built-setting-budget": "lots", "built-axis_quality": ["ace", "green"]})
    post["built-allied_aircraft"] = ["P-51D"]
    refused = builder.post("/battles/new/", post)
    assert refused.status_code == 400 and not Battle.objects.exists()
    html = refused.content.decode()
    budget = re.search(r"<p><label>Points per side .*?</p>", html, re.S)
    assert budget is not None and 'value="lots"' in budget[0]
    assert "Points per side: a whole number from 1 to 400, or empty" in budget[0]
    assert "The battle was not created: 1 problem to fix." in page_text(refused)


def test_a_build_without_problems_still_flies(builder):
    post = dict(POST, **{"built-axis_quality": ["ace", "green"], "built-setting-budget": ""})
    post["built-allied_aircraft"] = ["P-51D"]
    made = builder.post("/battles/new/", post)
    assert made.status_code == 302
    units = Battle.objects.get().setup["units"]
    assert [(u["aircraft"], u["quality"]) for u in units] == [
        ("P-51D", "ace"), ("P-51D", "green"), ("P-51D", "average"),
    ]  # fmt: skip

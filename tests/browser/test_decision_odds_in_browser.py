"""A person flying a game other than Angels 20 reads a decision's odds beside its button, as
the game gives them (issue 25, rules.tactical.decision_odds): the tests' duel gives a shot
aimed 2 its odds and a shot aimed 1 none; at desk and phone width, the modifiers on hover.
Taking the shot with odds flies it (the computer's gunner answers)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles import services
from battles.models import Battle
from rules.tactical import registered
from tests.rules.duel_system import DUEL, DUEL_SCENARIO

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"


@pytest.mark.parametrize("width", [1280, 390])
def test_the_odds_of_a_shot_are_read_beside_it_and_the_shot_is_taken(open_page, width):
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    with registered(DUEL):
        seats = {"axis": {"user": hans.pk}, "allied": {"pilot": "gunner"}}
        battle = services.battle_create_from_setup(
            setup=DUEL_SCENARIO, seed=7, source_key=f"test:odds:{width}",
            settings={"seats": seats}, system="duel",
        )  # fmt: skip
        page = open_page(f"/battles/{battle.pk}/play/", width, user=hans, password=PASSWORD)
        aim2 = page.locator("#choices li", has_text="shoot aiming 2")
        odds = aim2.locator(".odds")
        assert odds.inner_text() == "axis hits 33%"
        assert odds.get_attribute("title") == "aim +2 (duel 'SHOOTING')"
        assert odds.is_visible()
        assert page.locator("#choices li", has_text="shoot aiming 1").locator(".odds").count() == 0
        assert page_width(page) <= width  # nothing pushes the page wider than the phone
        screenshot(page, f"decision-odds-{width}")
        version = Battle.objects.get(pk=battle.pk).version
        aim2.locator("button").click()
        page.wait_for_load_state()
        battle.refresh_from_db()
        assert battle.version > version and battle.actions[0] == {"type": "shot", "aim": 2}

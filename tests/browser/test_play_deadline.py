"""One person against the tactical computer pilot in the browser (issue 14): a decision's
time runs out and the computer pilot's decision appears on the open page, said in the log,
without a reload; and a short battle flown by clicking to its end."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, BattleStatus
from battles.services import battle_create
from tests.battles.seating import seats_accepted

from .conftest import page_width, screenshot, wait_for_js

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"
MAX_CLICKS = 200


def _battle(settings: dict) -> Battle:
    """hans (axis) against the tactical computer pilot (allied) in a Dogfight."""
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}}
    umpire = get_user_model().objects.get_or_create(username="umpire", is_staff=True)[0]
    battle = battle_create(
        scenario="dogfight", seed=8, requested_by=umpire, settings={"seats": seats, **settings}
    )
    return seats_accepted(battle)  # the umpire offered the seat (issue 23)


def test_a_deadline_passing_shows_the_computer_pilots_decision(open_page, live_server, catalog):
    width = 390  # a phone: the clock and the hand-over buttons fit too
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    page = open_page("/", width, user=hans, password=PASSWORD)  # signed in before the clock runs
    battle = _battle({"deadline": {"seconds": 3}})
    page.goto(f"{live_server.url}/battles/{battle.pk}/play/")
    log = page.locator("#play-log")
    assert "Your choices" in page.content() and "deadline passed" not in log.inner_text()
    assert page.locator("#time-left").count() == 1  # the time left, counted down
    screenshot(page, f"play-deadline-{width}")
    assert page_width(page) <= width
    # nobody clicks: the page's own polling reads the turn after the deadline, which passes it
    wait_for_js(
        page,
        "document.getElementById('play-log').innerText.includes("
        "'The deadline passed: the computer pilot chose for axis.')",
        timeout=15_000,
    )
    battle.refresh_from_db()
    assert battle.notes[0]["text"] == "the deadline passed: the computer pilot chose for axis"
    screenshot(page, f"play-deadline-passed-{width}")


def test_one_person_flies_against_the_tactical_pilot_to_the_end(open_page, live_server, catalog):
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    battle = _battle({"max_turns": 1})
    page = open_page(f"/battles/{battle.pk}/play/", 1280, user=hans, password=PASSWORD)
    rng = random.Random(5)
    clicks = 0
    while Battle.objects.get(pk=battle.pk).status == BattleStatus.IN_PLAY:
        assert clicks < MAX_CLICKS, "the battle did not end"
        buttons = page.locator("#choices button[data-kind]")
        assert buttons.count() > 0  # the computer has answered: the person's decision
        with page.expect_navigation():
            buttons.nth(rng.randrange(buttons.count())).click()
        clicks += 1
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED and battle.applied_at is not None
    assert "The battle is over" in page.content()
    assert len(battle.actions) > clicks  # the tactical pilot's decisions are there too

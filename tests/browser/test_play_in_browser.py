"""Two people fly a Dogfight to its end in two browsers (issue 14): each sees only its own
choices, clicks them, and sees the other's moves appear without reloading the page."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, BattleStatus
from battles.services import battle_create
from tests.battles.seating import seats_accepted

from .conftest import SHOTS, page_width, wait_for_js

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-browser-123"
MAX_CLICKS = 400


def test_two_people_fly_a_dogfight_by_clicking(open_page, live_server, catalog):
    make = get_user_model().objects.create_user
    users = {"axis": make("hans", password=PASSWORD), "allied": make("tom", password=PASSWORD)}
    umpire = make("umpire", password=PASSWORD, is_staff=True)
    seats = {"axis": {"user": "hans"}, "allied": {"user": "tom"}}
    battle = battle_create(
        scenario="dogfight", seed=77, settings={"seats": seats, "max_turns": 2}, requested_by=umpire
    )
    battle = seats_accepted(battle)  # the umpire offered the seat (issue 23)
    path = f"/battles/{battle.pk}/play/"
    pages = {side: open_page(path, 1000, user=u, password=PASSWORD) for side, u in users.items()}
    rng = random.Random(14)
    clicks = 0
    while Battle.objects.get(pk=battle.pk).status == BattleStatus.IN_PLAY:
        assert clicks < MAX_CLICKS, "the battle did not end"
        to_act = Battle.objects.get(pk=battle.pk)
        side = "axis" if "Your choices" in pages["axis"].content() else "allied"
        other = "allied" if side == "axis" else "axis"
        acting, watching = pages[side], pages[other]
        assert acting.locator("#choices button").count() > 0
        assert watching.locator("#choices").count() == 0  # only its own choices, none now
        buttons = acting.locator("#choices button")
        with acting.expect_navigation():
            buttons.nth(rng.randrange(buttons.count())).click()
        clicks += 1
        if clicks == 8:  # a board in mid-battle, kept beside the tests (docs/ has a copy)
            SHOTS.mkdir(parents=True, exist_ok=True)
            acting.screenshot(path=str(SHOTS / "play-page.png"), full_page=True)
        version = Battle.objects.get(pk=battle.pk).version
        assert version == to_act.version + 1
        # the other page follows by itself (polling), no reload
        wait_for_js(
            watching,
            f"document.getElementById('board').dataset.version === '{version}'",
            timeout=10_000,
        )
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED and battle.applied_at is not None
    for page in pages.values():
        page.reload()
        assert "The battle is over" in page.content()


def test_the_play_page_fits_a_phone(open_page, live_server, catalog):
    """At 390 px the board, its map and its choices fit: the page never scrolls sideways."""
    hans = get_user_model().objects.create_user("hans", password=PASSWORD)
    umpire = get_user_model().objects.create_user("umpire", password=PASSWORD, is_staff=True)
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}}
    battle = battle_create(
        scenario="bomber_escort", seed=5, settings={"seats": seats}, requested_by=umpire,
        flights={"axis": [{"aircraft_type": "Bf 109E Ace"}, {"aircraft_type": "Bf 109E Wingman"}],
                 "allied": [{"aircraft_type": "Spitfire Mk I Ace"}, {"aircraft_type": "Hurricane Mk I"}]},
    )  # fmt: skip
    battle = seats_accepted(battle)  # the umpire offered the seat (issue 23)
    page = open_page(f"/battles/{battle.pk}/play/", 390, user=hans, password=PASSWORD)
    assert "Your choices" in page.content()  # the computer has answered; the person's turn
    assert page_width(page) <= 390
    page.goto(f"{live_server.url}/battles/new/")
    assert page_width(page) <= 390

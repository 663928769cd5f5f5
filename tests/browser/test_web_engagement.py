"""Two people fly a campaign engagement from their browsers (issue 14, "Done when"): the
organiser invites them, they sign up from the links, the campaign (engagement mode "web")
reaches an interception, the campaign page tells each that the battle waits, both fly it
by clicking on its play page, and its result reaches a pilot's page."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from battles.models import BattleStatus
from battles.play import battle_state
from campaign import services
from careers.models import PilotEvent
from demo.roster import demo_roster_create
from roster.models import Squadron
from rules.angels20.stats import SIDES as ENGINE_SIDES
from tests.campaign.test_web_engagements import play_until_a_web_battle

from .conftest import page_width, screenshot, wait_for_js

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "Hurricanes-over-Kent-40"
OWN_CHOICES = 3  # each person's first decisions are clicked choices; then the computer pilot's
MAX_CLICKS = 40
SHOWN_ON_A_PILOT_PAGE = ("kill", "damaged", "shot_down", "wounded", "killed", "captured")


def _sign_up(open_page, link: str, username: str):
    page = open_page(link.removeprefix("http://testserver"), 1280)
    page.click("text=Sign up and join")
    page.wait_for_load_state()
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form [type=submit]")
    page.wait_for_load_state()
    return page


def test_two_commanders_fly_their_campaign_engagement_in_the_browser(
    open_page, live_server, catalog
):
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    demo_roster_create()
    campaign = services.campaign_create(
        name="Web war", created_by=organiser, seed=5, resolution_mode="web",
        squadrons=list(Squadron.objects.all()),
    )  # fmt: skip
    # the organiser invites the two commanders through the API
    api = Client()
    api.force_login(organiser)
    links = {}
    for side in ("axis", "allied"):
        answer = api.post(
            f"/api/campaigns/{campaign.pk}/invitations/", {"role": "commander", "side": side},
            content_type="application/json",
        )  # fmt: skip
        assert answer.status_code == 201, answer.content
        links[side] = answer.json()["link"]
    names = {"axis": "hans", "allied": "tom"}
    pages = {side: _sign_up(open_page, links[side], names[side]) for side in names}
    for side, page in pages.items():
        assert page.url == f"{live_server.url}/campaigns/{campaign.pk}/"
        assert f"commander of the {side.capitalize()} side" in page.inner_text("main")
    users = {side: get_user_model().objects.get(username=n) for side, n in names.items()}

    # the stand-in decisions of the card game up to its first interception
    battle = play_until_a_web_battle(campaign, organiser)
    first = ENGINE_SIDES[battle_state(battle).current_side()]
    for side, page in pages.items():
        page.reload()
        text = page.inner_text("#web-battles")
        assert ("Your battle waits" in text) == (side == first), (side, text)
    shown = pages[first]
    screenshot(shown, "web-battle-waits-1280")
    shown.set_viewport_size({"width": 390, "height": 900})
    shown.reload()
    assert page_width(shown) <= 390
    screenshot(shown, "web-battle-waits-390")
    shown.set_viewport_size({"width": 1280, "height": 900})
    for page in pages.values():  # each goes to the play page by the campaign page's link
        page.click("#web-battles a[href$='/play/']")
        page.wait_for_load_state()

    # each clicks its first decisions on the play page, then hands its side to the
    # tactical computer pilot (the page's button), which flies the rest
    rng = random.Random(14)
    clicks = {"axis": 0, "allied": 0}
    handed = set()
    while True:
        battle.refresh_from_db()
        if battle.status != BattleStatus.IN_PLAY:
            break
        assert sum(clicks.values()) < MAX_CLICKS, "the battle did not end"
        side = ENGINE_SIDES[battle_state(battle).current_side()]
        page = pages[side]
        if page.get_attribute("#board", "data-version") != str(battle.version):
            page.reload()  # (the page follows by itself every 2 s; no need to wait here)
        assert "Your choices" in page.inner_text("#board")
        with page.expect_navigation():
            if clicks[side] < OWN_CHOICES or min(clicks.values()) < OWN_CHOICES:
                buttons = page.locator("#choices li button")
                buttons.nth(rng.randrange(buttons.count())).click()
                clicks[side] += 1
            else:
                page.click(f"#hand-over-seats button:text('Hand the {side} side')")
                page.wait_for_selector("#confirm-hand-over")  # issue 24: confirmed first
                with page.expect_navigation():
                    page.click("#confirm-hand-over button")
                handed.add(side)
    assert min(clicks.values()) >= OWN_CHOICES and handed
    assert battle.applied_at is not None
    for page in pages.values():  # both pages show the end by themselves, without reloading
        wait_for_js(
            page, "document.getElementById('board').dataset.status === 'finished'", timeout=10_000
        )
        assert "The battle is over" in page.inner_text("#board")

    # the result is the pilots': a pilot's page links to the battle's report
    event = (
        PilotEvent.objects.filter(
            applied_result__source_key=f"battle:{battle.pk}", kind__in=SHOWN_ON_A_PILOT_PAGE
        )
        .order_by("kind", "pilot__name")
        .first()
    )
    assert event is not None, "the battle changed no pilot's record"
    page = pages["axis"]
    page.goto(f"{live_server.url}/pilots/{event.pilot_id}/")
    assert page.locator(f"main a[href='/battles/{battle.pk}/']").count() >= 1
    # and the campaign page lists it as flown, with its report
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    assert page.locator(f"#web-battles a[href='/battles/{battle.pk}/']").count() == 1
    assert users["axis"].notifications.filter(kind="must_act", url__endswith="/play/").exists()

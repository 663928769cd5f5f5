"""The organiser's campaign page on a phone (issue 24: "pages that work on a phone"): the
engine engagements' rules (clouds, night, flak, the cloud grid) fold away behind one line,
so the page is not thousands of pixels of form; opened, the form is there whole."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign import services
from demo.roster import demo_roster_create
from roster.models import Squadron

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "Spitfire-over-Dover-40"


def test_the_engine_rules_fold_away_on_a_phone(open_page, live_server, catalog):
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    demo_roster_create()
    campaign = services.campaign_create(
        name="Channel 1940", created_by=organiser, seed=3, squadrons=list(Squadron.objects.all())
    )
    page = open_page(f"/campaigns/{campaign.pk}/", 390, user=organiser, password=PASSWORD)
    assert page_width(page) <= 390
    form = page.locator("#engine-rules-form")
    assert not form.is_visible()
    folded = page.evaluate("document.scrollingElement.scrollHeight")
    screenshot(page, "campaign-organiser-390")
    page.click("#engine-rules summary")
    assert form.is_visible()
    opened = page.evaluate("document.scrollingElement.scrollHeight")
    assert opened > folded + 1000, (folded, opened)  # the grid and its fields were folded
    assert page_width(page) <= 390


def test_a_card_named_in_the_log_opens_the_folded_list(open_page, live_server, catalog):
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    demo_roster_create()
    campaign = services.campaign_create(
        name="Channel 1940", created_by=organiser, seed=3, squadrons=list(Squadron.objects.all())
    )
    page = open_page(f"/campaigns/{campaign.pk}/", 390, user=organiser, password=PASSWORD)
    card = page.locator("#event-cards dt").first
    assert not card.is_visible()  # folded
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/#{card.get_attribute('id')}")
    assert card.is_visible()  # the browser opens the list to show the card linked

"""The campaign page in a real browser (issue 15), at 1280 and 390 px: a commander reads
what to do and does it, assigning planes to a mission with the grouped form; the
navigation stays readable and the page never scrolls sideways."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign import services
from demo.roster import demo_roster_create
from roster.models import Squadron
from tests.campaign.test_campaign_page import until_assign

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-commander-123"


def _luminance(rgb: str) -> float:
    """Relative luminance (WCAG 2) of a computed ``rgb(r, g, b)`` colour."""
    values = [int(v) / 255 for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_a_commander_reads_what_to_do_and_assigns_planes(open_page, catalog):
    demo_roster_create()
    User = get_user_model()
    organiser = User.objects.create_user("orga", password=PASSWORD)
    campaign = services.campaign_create(
        name="Channel 1941", created_by=organiser, seed=7, squadrons=list(Squadron.objects.all())
    )
    side = until_assign(campaign, organiser)
    commander = User.objects.create_user("commander", password=PASSWORD)
    services.campaign_member_set(
        campaign=campaign, by=organiser, user=commander, role="commander", side=side
    )
    state = services.game_state(campaign)
    mission = next(m for m in state.missions_in_play if state.mission_spec(m).kind != "E")
    mission_name = state.mission_spec(mission).name
    mine = [p for p, plane in state.planes.items() if plane["side"] == side]

    for width, plane in ((1280, mine[0]), (390, mine[1])):
        page = open_page(f"/campaigns/{campaign.pk}/", width, user=commander, password=PASSWORD)
        # the navigation is there and readable (it once vanished: white on beige)
        header = page.locator("body > header")
        link = header.locator("a", has_text="Campaigns")
        assert link.is_visible()
        box = link.bounding_box()
        assert box and box["x"] + box["width"] <= width
        colour = link.evaluate("a => getComputedStyle(a).color")
        ground = header.evaluate("h => getComputedStyle(h).backgroundColor")
        assert _contrast(colour, ground) >= 4.5, (colour, ground)
        # what to do, in words, at the top
        now = page.locator("#now")
        assert "You must act now: assign planes to the missions in play" in now.inner_text()
        assert now.bounding_box()["y"] < 400
        form = page.locator(f'form[data-group="assign:{mission}"]')
        assert f"Assign planes to {mission_name}" in form.inner_text()
        assert page_width(page) <= width, "the page scrolls sideways"
        screenshot(page, f"campaign-page-{width}")
        form.locator(f'input[name=choice][value="{plane}"]').check()
        form.locator("button[type=submit]").click()
        page.wait_for_load_state()
        assert "Done: Assigned" in page.locator(".messages").inner_text()
        card = page.locator(f'.mission[data-mission="{mission}"]')
        assert f"({plane})" in card.inner_text()
        assert page_width(page) <= width, "the page scrolls sideways"
        if width == 390:
            screenshot(page, f"campaign-page-assigned-{width}")
    campaign.refresh_from_db()
    assert set(mine[:2]) <= set(services.game_state(campaign).assignments)

"""An invited person opens the link in a browser, signs up and lands in the campaign on the
side offered (issue 15), at desktop and at phone width."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.services import invitation_create
from campaign import services
from campaign.models import CampaignMember

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "Stuka-over-Portland-40"


@pytest.mark.parametrize("width", [1280, 390])
def test_accepting_an_invitation_by_signing_up(open_page, live_server, catalog, width):
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    campaign = services.campaign_create(name="Channel 1940", created_by=organiser, seed=3)
    _, link = invitation_create(
        campaign=campaign, by=organiser, role="commander", side="axis", email="hans@example.org"
    )
    path = link.removeprefix("http://testserver")
    page = open_page(path, width)
    assert "commander of the Axis side" in page.inner_text("main")
    assert page_width(page) <= width
    page.click("text=Sign up and join")
    page.wait_for_load_state()
    assert page.input_value("input[name=email]") == "hans@example.org"
    # a first try with a password too short and not repeated: both errors at once, input kept
    page.fill("input[name=username]", "hans")
    page.fill("input[name=password1]", "short")
    page.fill("input[name=password2]", "other")
    page.select_option("select[name=time_zone]", "Europe/Berlin")
    page.click("main form [type=submit]")
    page.wait_for_load_state()
    assert page.locator(".field-errors li").count() >= 1
    assert page.input_value("input[name=username]") == "hans"
    assert page.input_value("select[name=time_zone]") == "Europe/Berlin"
    assert page_width(page) <= width
    screenshot(page, f"signup-errors-{width}")
    page.fill("input[name=password1]", PASSWORD + "x")
    page.fill("input[name=password2]", PASSWORD + "x")
    page.click("main form [type=submit]")
    page.wait_for_load_state()
    assert page.url == f"{live_server.url}/campaigns/{campaign.pk}/"
    assert "commander of the Axis side" in page.inner_text("main")  # the welcome message
    assert page_width(page) <= width
    screenshot(page, f"invitation-joined-{width}")
    member = CampaignMember.objects.get(campaign=campaign, user__username="hans")
    assert (member.role, member.side) == ("commander", "axis")

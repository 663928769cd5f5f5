"""The pages of the roster, careers, battles and campaigns fit a 390 px phone: wide tables
and maps scroll or shrink inside the page, the page itself never scrolls sideways."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.services import invitation_create
from battles.services import battle_create
from campaign import services
from demo.roster import demo_roster_create
from roster.models import Pilot, Squadron

from .conftest import page_width

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-phone-123"


def test_every_page_fits_a_phone(
    open_page, live_server, catalog, django_capture_on_commit_callbacks
):
    demo_roster_create()
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD, is_staff=True)
    campaign = services.campaign_create(
        name="Channel 1941", created_by=organiser, seed=7, squadrons=list(Squadron.objects.all())
    )
    with django_capture_on_commit_callbacks(execute=True):
        battle = battle_create(scenario="dogfight", seed=1942)
        flown = battle_create(
            scenario="dogfight", requested_by=organiser,
            settings={"seats": {"axis": {"user": organiser.pk}, "allied": {"pilot": "tactical"}}},
        )  # fmt: skip
    _, link = invitation_create(campaign=campaign, by=organiser, role="spectator")
    invitation_path = link.removeprefix("http://testserver")
    squadron = Squadron.objects.order_by("pk").first()
    pilot = Pilot.objects.order_by("pk").first()
    paths = [
        "/", f"/squadrons/{squadron.pk}/", f"/squadrons/{squadron.pk}/print/",
        f"/pilots/{pilot.pk}/", "/aces/", f"/statistics/{campaign.pk}/", "/battles/",
        f"/battles/{battle.pk}/", f"/battles/{flown.pk}/play/", "/battles/new/", f"/campaigns/{campaign.pk}/",
        f"/campaigns/{campaign.pk}/print/", f"/campaigns/{campaign.pk}/enrol/",
        "/table-battles/new/", f"/history/roster/pilot/{pilot.pk}/",
        "/notifications/", "/notifications/settings/", f"/notifications/campaigns/{campaign.pk}/",
        "/accounts/signup/", "/accounts/settings/", "/accounts/password_reset/",
        f"/accounts/campaigns/{campaign.pk}/invitations/", invitation_path,
        "/aircraft/?q=spitfire&side=allied", "/pilots/?side=axis&page=2", "/squadrons/?side=axis",
        "/battles/?status=finished", "/campaigns/?status=active",
    ]  # fmt: skip
    page = open_page("/", 390, user=organiser, password=PASSWORD)
    too_wide = {}
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        if page_width(page) > 390:
            too_wide[path] = page_width(page)
    assert not too_wide, f"pages wider than the phone: {too_wide}"

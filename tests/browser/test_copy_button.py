"""An invitation link is copied with one click (issue 24 §7): the Copy button, shown by
accounts/static/accounts/copy.js under the site's CSP, puts the link on the clipboard;
without the script the link is still there as selectable text."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign import services

from .conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "Copy-that-link-1940"


def _invitation_made(open_page, live_server, width: int, *, javascript: bool = True):
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    campaign = services.campaign_create(name="Channel 1940", created_by=organiser, seed=3)
    page = open_page(
        f"/accounts/campaigns/{campaign.pk}/invitations/", width, user=organiser, password=PASSWORD
    )
    if not javascript:
        page.context.route("**/accounts/copy.js", lambda route: route.abort())
    page.select_option("select[name=side]", "axis")
    page.click("main form [type=submit]")
    page.wait_for_load_state()
    return page


@pytest.mark.parametrize("width", [1280, 390])
def test_the_copy_button_puts_the_invitation_link_on_the_clipboard(
    open_page, live_server, catalog, width
):
    page = _invitation_made(open_page, live_server, width)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    link = page.inner_text("#invitation-link").strip()
    assert link.startswith("http") and "/accounts/invitations/" in link
    button = page.locator("button[data-copy=invitation-link]")
    assert button.is_visible() and button.inner_text() == "Copy the link"
    button.click()
    page.wait_for_selector("button[data-copy=invitation-link][data-copied=yes]")
    assert button.inner_text() == "Copied"
    assert page.evaluate("navigator.clipboard.readText()") == link
    screenshot(page, f"invitation-copy-{width}")


def test_without_the_script_the_link_is_still_there_to_select(open_page, live_server, catalog):
    page = _invitation_made(open_page, live_server, 1280, javascript=False)
    assert page.inner_text("#invitation-link").startswith("http")
    assert not page.locator("button[data-copy=invitation-link]").is_visible()  # no dead button

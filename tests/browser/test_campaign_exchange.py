"""The organiser exports a campaign from its page and imports it back as a copy from the
campaigns list (issue 24 §5): the preview lists every renamed item, Confirm creates the
copy, at desktop and at phone width."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign import services
from campaign.models import Campaign
from demo.roster import demo_roster_create
from roster.models import Squadron

from .conftest import page_width, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "Spitfire-over-Dover-40"


@pytest.mark.parametrize("width", [1280, 390])
def test_export_then_import_a_copy_with_its_preview(
    open_page, live_server, catalog, width, tmp_path
):
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    demo_roster_create()
    campaign = services.campaign_create(
        name="Channel 1940", created_by=organiser, seed=3, squadrons=list(Squadron.objects.all())
    )
    squadrons = sorted(campaign.squadrons.values_list("name", flat=True))
    page = open_page(f"/campaigns/{campaign.pk}/", width, user=organiser, password=PASSWORD)
    with page.expect_download() as download:
        page.click("#export")
    path = tmp_path / "channel.json"
    download.value.save_as(path)
    assert download.value.suggested_filename == f"campaign-{campaign.pk}.json"

    page.goto(f"{live_server.url}/campaigns/#import")
    page.set_input_files("#import input[name=file]", str(path))
    assert page.is_checked("#import input[value=copy]")
    assert page_width(page) <= width
    page.click("#import button[type=submit]")
    page.wait_for_load_state()
    preview = page.inner_text("main")
    assert "The campaign Channel 1940 (copy)" in preview
    assert "a campaign named Channel 1940 becomes Channel 1940 (copy)" in preview
    for name in squadrons:
        assert f"a squadron named {name} becomes {name} (copy)" in preview
    assert Campaign.objects.count() == 1  # nothing created before Confirm
    assert page_width(page) <= width
    screenshot(page, f"import-preview-{width}")

    page.click("text=Confirm: create Channel 1940 (copy)")
    page.wait_for_load_state()
    copy = Campaign.objects.get(name="Channel 1940 (copy)")
    assert page.url == f"{live_server.url}/campaigns/{copy.pk}/"
    assert "Imported campaign 'Channel 1940 (copy)'" in page.inner_text("main")
    assert page_width(page) <= width
    screenshot(page, f"import-copied-{width}")
    assert sorted(copy.squadrons.values_list("name", flat=True)) == [
        f"{n} (copy)" for n in squadrons
    ]

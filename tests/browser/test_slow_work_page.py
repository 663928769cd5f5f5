"""Feedback for slow work (issue 15) in the browser: while an odds preview of a campaign's
battle is flown in the background, the campaign page and the batch page show its progress,
at desktop and phone width (no sideways scrolling)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from angels import background
from battles.models import BattleBatch, BattleStatus
from campaign import services
from demo.roster import demo_roster_create
from roster.models import Squadron
from tests.campaign.test_slow_work import Gate, _campaign_battle

from .conftest import SHOTS, page_width

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-slow-123"


def test_the_pages_show_an_odds_preview_under_way(open_page, catalog, settings, monkeypatch):
    settings.ANGELS_BACKGROUND_WORK = "thread"
    settings.ANGELS_BACKGROUND_THREADS = 1
    settings.BATTLE_ODDS_RUNS = 3
    background.shutdown()
    demo_roster_create()
    organiser = get_user_model().objects.create_user("orga", password=PASSWORD)
    campaign = services.campaign_create(
        name="Channel 1941", created_by=organiser, seed=7, squadrons=list(Squadron.objects.all())
    )
    # an engagement waiting for the organiser to resolve it (a draft): its page offers odds
    battle = _campaign_battle(
        campaign, settings={"campaign": campaign.pk}, status=BattleStatus.DRAFT
    )
    gate = Gate(monkeypatch)
    try:
        page = open_page(f"/battles/{battle.pk}/", 1280, user=organiser, password=PASSWORD)
        page.get_by_role("button", name="Preview the odds").click()
        page.wait_for_load_state()  # the answer came while the batch is held
        batch = BattleBatch.objects.get(purpose=f"odds:{battle.pk}")
        text = f"odds preview of Battle {battle.pk}: battles 0 of 3"
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(page.url.split("/battles/")[0] + f"/campaigns/{campaign.pk}/")
            box = page.get_by_role("region", name="Work under way")
            assert box.is_visible() and text in box.inner_text()
            assert page_width(page) <= width
            page.screenshot(path=str(SHOTS / f"slow-work-campaign-{width}.png"), full_page=False)
            page.goto(page.url.split("/campaigns/")[0] + f"/battles/batches/{batch.pk}/")
            assert "battles 0 of 3" in page.inner_text("main")
            assert page_width(page) <= width
            page.screenshot(path=str(SHOTS / f"slow-work-batch-{width}.png"))
        page.close()
    finally:
        gate.open()
    background.shutdown()
    assert BattleBatch.objects.get(pk=batch.pk).summary["battles"] == 3

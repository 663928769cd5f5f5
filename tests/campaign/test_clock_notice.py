"""Issue 24 §2 (tests that would not notice): a weekly turn day gives at least the
minimum notice (clock.WEEKLY_MIN_NOTICE, one hour). A decision that begins just
inside the notice before a turn day is due on the next turn day; just outside it,
on this one."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from campaign import clock

pytestmark = pytest.mark.django_db

TURN = datetime(2025, 11, 25, 18, 0, tzinfo=UTC)  # Tuesday 18:00 in London (GMT)


def _due_when_set_at(campaign, users, now):
    with time_machine.travel(now, tick=False):
        clock.campaign_pace_set(campaign_id=campaign.pk, by=users["organiser"], changes={
            "pace": "weekly", "turn_weekdays": [1], "turn_time": "18:00",
            "pace_timezone": "Europe/London"})  # fmt: skip
    campaign.refresh_from_db()
    return campaign.decision_due_at


def test_the_notice_before_a_turn_day(campaign, users):
    outside = TURN - timedelta(minutes=61)  # 16:59: more than the hour's notice
    assert _due_when_set_at(campaign, users, outside) == TURN
    inside = TURN - timedelta(minutes=59)  # 17:01: less than the hour's notice
    assert _due_when_set_at(campaign, users, inside) == TURN + timedelta(days=7)
    boundary = TURN - timedelta(hours=1)  # 17:00: exactly the notice is not more than it
    assert _due_when_set_at(campaign, users, boundary) == TURN + timedelta(days=7)

"""Issue 24 §4: a side is told once when it must act, not at every phase and mission
window (a club got 31 mails in 15 minutes). The rule: one "your side must act" per
side and campaign turn; when the turn comes back to the side, it is told again."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from angels.events import MUST_ACT, send_campaign_event
from notifications.models import Delivery, Notification
from tests.notifications.club import club_campaign, mails_to, play_until_turn

pytestmark = pytest.mark.django_db

MUST_ACT_SUBJECT = "Your side must act"


def must_act_turns(address: str) -> list[int]:
    """The campaign turn each "must act" mail to ``address`` names, in order."""
    return [
        int(re.search(r"turn (\d+)", m.body).group(1))
        for m in mails_to(address)
        if m.subject.endswith(MUST_ACT_SUBJECT)
    ]


def test_two_turns_mail_each_side_at_most_once_per_turn(
    catalog, people, django_capture_on_commit_callbacks
):
    """Turns 4 and 5 have missions: the attacker assigns, the defender scrambles, both
    sides act in the interception and losses windows, again and again (the club's 31
    mails). Each commander is mailed once per turn, and again when the next turn
    needs them."""
    campaign = club_campaign(people)
    actions = play_until_turn(campaign, people, 6, django_capture_on_commit_callbacks)
    assert actions > 40  # many decisions: each phase, each mission window
    for side in ("allied", "axis"):
        turns = must_act_turns(f"{side}@example.org")
        assert Counter(turns).most_common(1)[0][1] == 1, (side, turns)
        assert turns == sorted(turns)
        assert {4, 5} <= set(turns), (side, turns)  # told in each turn that needed them
    # the in-app list follows the same rule: one row per side and turn
    rows = Notification.objects.filter(user=people["allied"], kind=MUST_ACT).order_by("pk")
    keys = [n.key.rsplit(":", 2)[-2] for n in rows]
    assert len(keys) == len(set(keys)) and "turn4" in keys and "turn5" in keys


def test_the_same_turn_announced_again_tells_nobody_twice(
    catalog, people, django_capture_on_commit_callbacks
):
    """The clock announcing a later decision of the same side in the same turn (its
    key is another version's) sends no mail and no webhook post."""
    campaign = club_campaign(people)
    for version in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            send_campaign_event(
                campaign_id=campaign.pk, kind=MUST_ACT, side="axis",
                key=f"must_act:campaign:{campaign.pk}:v{version + 40}:axis",
                text=f"{campaign.name}: the axis side must act (turn 1, mission:scramble).",
                url=f"/campaigns/{campaign.pk}/",
            )  # fmt: skip
    assert len(mails_to("axis@example.org")) == 1
    assert Delivery.objects.filter(kind=MUST_ACT, target="axis@example.org").count() == 1

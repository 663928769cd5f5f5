"""A club's campaign played through the services (issue 24): a real game (the demo
roster, a seed), each side's commander with an e-mail address, and two or three
campaign turns played by the commanders, each action in its own transaction as a
request's would be (so the mails go out after each commit)."""

from __future__ import annotations

import random
import re

from django.core import mail

from campaign import services
from campaign.models import Campaign
from demo.campaign import stand_in_choice
from demo.roster import demo_roster_create
from roster.models import Squadron
from rules.cardgame import action_to_json

NAME = "Battle of Britain"
#: what a stored code looks like ("mission:scramble", "battle:6", "m29")
RAW_CODES = (
    re.compile(r"\b[a-z]+:[a-z0-9_]+\b"),
    re.compile(r"battle:\d"),
    re.compile(r"\bm\d+\b"),
)


def club_campaign(people) -> Campaign:
    """The campaign, its organiser "orga" and a commander per side ("allied", "axis")."""
    demo_roster_create()
    campaign = services.campaign_create(
        name=NAME, created_by=people["orga"], seed=7, squadrons=list(Squadron.objects.all())
    )
    for side in ("allied", "axis"):
        services.campaign_member_set(
            campaign=campaign, by=people["orga"], user=people[side], role="commander", side=side
        )
    mail.outbox = []
    return campaign


def play_until_turn(campaign: Campaign, people, turn: int, capture, *, seed: int = 7) -> int:
    """The commanders act (a stand-in's legal choice each time) until the campaign reaches
    ``turn``; returns how many actions they took."""
    rng = random.Random(seed)
    for count in range(1000):
        campaign.refresh_from_db()
        side = campaign.current_side
        if campaign.turn >= turn or side not in ("allied", "axis"):
            return count
        action = stand_in_choice(services.game_state(campaign).legal_actions(), rng)
        with capture(execute=True):
            services.campaign_act(
                campaign_id=campaign.pk, user=people[side], action=action_to_json(action),
                version=campaign.version,
            )  # fmt: skip
    raise AssertionError(f"the campaign did not reach turn {turn}")


def mails_to(address: str) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.to == [address]]

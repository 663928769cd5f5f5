"""Issue 24 §2: a mission flown counts whatever its outcome. A pilot shot down and
captured on a mission flew it: his page and the squadron's print summary say
"Missions 1", as his victor's log says he flew his."""

from __future__ import annotations

import re

import pytest

from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.services import engagement_apply

pytestmark = pytest.mark.django_db


def _missions_on_page(client, pilot) -> str:
    html = client.get(f"/pilots/{pilot.pk}/").content.decode()
    return re.search(r"<th>Missions</th><td class=\"num\">(\d+)</td>", html).group(1)


def test_a_pilot_shot_down_and_captured_flew_the_mission(client, cast):
    campaign, bader, molders = cast["campaign"], cast["Bader"], cast["Mölders"]
    # the card game's loss of a plane card reaches its pilot with mission=False
    # (campaign.results.plane_lost): the Experience phase rewards survivors only
    record = EngagementRecord(
        mode="card", battle_ref="Careers 1940: Rhubarb", campaign_turn=2, territory="axis",
        flown=(FlownRecord(pilot_id=bader.pk, mission=False, destroyed=True,
                           survival={"outcome": "captured", "wounded_turns": 0}),
               FlownRecord(pilot_id=molders.pk)),
        kills=(KillRecord(shooter_pilot_id=molders.pk, victim_pilot_id=bader.pk),),
    )  # fmt: skip
    engagement_apply(source_key="card:captured", result=record, campaign=campaign)

    bader.refresh_from_db()
    assert bader.status == "captured"
    assert _missions_on_page(client, bader) == "1"
    assert _missions_on_page(client, molders) == "1"
    assert bader.events.filter(kind="mission").count() == 1
    print_page = client.get(f"/squadrons/{cast['raf'].pk}/print/")
    assert print_page.status_code == 200
    body = print_page.content.decode()
    row = body[body.index("Bader") :].split("</tr>")[0]
    assert re.search(r">\s*1\s*<", row), row

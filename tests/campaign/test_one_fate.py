"""One roll, one fate (issue 12): an engine engagement's battle report and the pilots'
career logs show the same survival die."""

import pytest

from battles.models import Battle
from careers.models import PilotEvent

from .test_engine_engagements import engine_war_until_a_battle

pytestmark = pytest.mark.django_db


def test_the_battle_report_and_the_career_log_show_the_same_survival_roll(
    catalog, users, django_capture_on_commit_callbacks
):
    campaign = engine_war_until_a_battle(users["organiser"], django_capture_on_commit_callbacks)
    battle = Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:").first()
    pilot_of = {p.plane_id: p.pilot_id for p in campaign.planes.all() if p.pilot_id}
    checked = 0
    for craft in battle.result["aircraft"]:
        pilot_id = pilot_of.get(craft["pilot_ref"].removeprefix("plane:"))
        if craft["fate"] != "destroyed" or pilot_id is None:
            continue
        roll = PilotEvent.objects.get(
            pilot_id=pilot_id,
            kind="survival_roll",
            applied_result__source_key=f"battle:{battle.pk}",
        )
        assert roll.dice[0][2] == craft["survival_roll"], (roll.dice, craft)
        assert roll.details["total"] == craft["survival_roll"] + craft["survival_modifier"]
        assert (roll.details["total"] >= 4) == craft["pilot_survived"]
        checked += 1
    assert checked, "with seed 4 the first engine battle downs a roster pilot"

"""Issue 12: one roll, one fate; a campaign never freezes on one pilot; undo takes results back."""

from __future__ import annotations

from campaign import services as campaign_services
from careers.models import AppliedResult, PilotEvent
from careers.records import EngagementRecord, FlownRecord, record_from_engine_result
from careers.services import applied_result_revert, engagement_apply
from roster.models import Airframe
from rules.dice import ScriptedDice

from .conftest import refresh


def _engine_result(craft_id, pilot_ref, *, roll, modifier, side="allied"):
    return {
        "aircraft": [
            {"id": craft_id, "name": "Supermarine Spitfire", "side": side, "pilot_ref": pilot_ref,
             "fate": "destroyed", "damage": 4, "survival_roll": roll, "survival_modifier": modifier,
             "pilot_survived": roll + modifier >= 4},
        ],
        "kills": [],
    }  # fmt: skip


def test_the_career_log_shows_the_battle_reports_survival_roll(cast):
    """The engine rolled 6 (+1 over friendly ground): survived. The career log shows
    that same die, and rolls nothing more for it (the scripted dice would say 2)."""
    bader = cast["Bader"]
    result = _engine_result(0, "p", roll=6, modifier=1)
    record = record_from_engine_result(
        result, battle_ref="battle:1", pilot_ids={"p": bader.pk}, territory="allied"
    )
    engagement_apply(
        source_key="battle:1", result=record, campaign=cast["campaign"], dice=ScriptedDice([2, 4])
    )
    roll = PilotEvent.objects.get(pilot=bader, kind="survival_roll")
    assert roll.dice[0][2] == 6 and "d6=6+1 = 7" in roll.details["explanation"]
    assert roll.details["outcome"] == "returned"
    refresh(bader)
    assert bader.status == "active"


def test_the_engines_failed_roll_is_the_careers_failed_roll(cast):
    """A 1 (-1 over enemy ground) in the report is a pilot who did not survive in his log."""
    bader = cast["Bader"]
    result = _engine_result(0, "p", roll=1, modifier=-1)
    record = record_from_engine_result(
        result, battle_ref="battle:2", pilot_ids={"p": bader.pk}, territory="allied"
    )
    engagement_apply(
        source_key="battle:2", result=record, campaign=cast["campaign"], dice=ScriptedDice([2, 6])
    )
    roll = PilotEvent.objects.get(pilot=bader, kind="survival_roll")
    assert roll.dice[0][2] == 1 and roll.details["total"] == 0
    assert roll.details["outcome"] == "killed"  # the fate d6 of 2 (1-3: killed)


def test_a_campaign_not_on_angels20_survival_flies_its_battles_without_the_engines_roll(
    catalog, organiser
):
    campaign = campaign_services.campaign_create(
        name="Pirates", created_by=organiser, seed=1, survival_rule="air_pirates",
        resolution_mode="engine",
    )  # fmt: skip
    assert campaign.engine_rules["pilot_survival"] is False


def test_an_engine_result_leaves_out_a_pilot_who_may_not_fly_instead_of_freezing(cast):
    """Captured elsewhere before enrolment existed, he is still in this battle's result:
    the result is applied for the others, and he is listed as left out."""
    bader, tuck = cast["Bader"], cast["Tuck"]
    bader.status = "captured"
    bader.save()
    record = EngagementRecord(
        mode="engine", battle_ref="battle:3", campaign_turn=2, territory="allied",
        flown=(FlownRecord(pilot_id=bader.pk), FlownRecord(pilot_id=tuck.pk, damage=2)),
    )  # fmt: skip
    applied, created = engagement_apply(
        source_key="battle:3", result=record, campaign=cast["campaign"], leave_out_unavailable=True
    )
    assert created and str(bader.pk) in applied.summary["left_out"]
    assert "captured" in applied.summary["left_out"][str(bader.pk)]
    assert PilotEvent.objects.filter(pilot=tuck, kind="damaged").exists()


def test_reverting_a_result_puts_the_pilot_airframe_and_log_back(cast):
    bader = cast["Bader"]
    record = EngagementRecord(
        mode="card", battle_ref="card loss", campaign_turn=2, territory="axis",
        flown=(FlownRecord(pilot_id=bader.pk, destroyed=True),),
    )  # fmt: skip
    applied, _ = engagement_apply(
        source_key="card:x", result=record, campaign=cast["campaign"], dice=ScriptedDice([6])
    )
    refresh(bader)
    assert bader.status == "captured"
    assert Airframe.objects.get(serial="S-Bader").state == "destroyed"
    applied_result_revert(applied=applied)
    refresh(bader)
    assert bader.status == "active"
    airframe = Airframe.objects.get(serial="S-Bader")
    assert airframe.pilot_id == bader.pk and airframe.state == "serviceable"
    assert not PilotEvent.objects.filter(pilot=bader, kind__in=["shot_down", "captured"]).exists()
    assert not AppliedResult.objects.filter(source_key="card:x").exists()


def test_reverting_refuses_when_the_pilot_changed_since(cast):
    bader = cast["Bader"]
    record = EngagementRecord(
        mode="card", battle_ref="card loss", campaign_turn=2, territory="allied",
        flown=(FlownRecord(pilot_id=bader.pk, damage=1),),
    )  # fmt: skip
    applied, _ = engagement_apply(source_key="card:y", result=record, campaign=cast["campaign"])
    refresh(bader)
    bader.air_kills += 1  # a later result
    bader.save()
    import pytest

    from angels.errors import RuleViolation

    with pytest.raises(RuleViolation) as refused:
        applied_result_revert(applied=applied)
    assert "changed since" in refused.value.message and refused.value.code == "state"
    assert AppliedResult.objects.filter(source_key="card:y").exists()

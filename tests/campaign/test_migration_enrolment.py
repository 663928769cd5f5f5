"""Existing data is enrolled by migration campaign 0004 (issue 12): each serving pilot in one
active campaign, nothing lost (ruling "Enrolment: existing data")."""

import pytest

BEFORE = [
    ("campaign", "0003_engine_rules"),
    ("roster", "0005_careers_move_to_careers_app"),
    ("careers", "0003_applied_result_undo"),
]
AFTER = [("campaign", "0004_enrol_serving_pilots")]


@pytest.mark.django_db(transaction=True)
def test_serving_pilots_are_enrolled_in_one_active_campaign(migrated):
    apps = migrated(BEFORE)
    User = apps.get_model("auth", "User")
    Squadron = apps.get_model("roster", "Squadron")
    Pilot = apps.get_model("roster", "Pilot")
    AircraftType = apps.get_model("roster", "AircraftType")
    Campaign = apps.get_model("campaign", "Campaign")
    CampaignPlane = apps.get_model("campaign", "CampaignPlane")
    PilotEvent = apps.get_model("careers", "PilotEvent")
    user = User.objects.create(username="orga")
    spit = AircraftType.objects.create(
        name="Spit", nation="UK", side="allied", kind="fighter", cost=40, pilot_quality="average",
        speed_min=2, speed_max=2, attack_1=3, attack_2=2, attack_3=0, armor=4, vital_armor=9,
        hits=5, turn=0, roll=0, climb=0, dive=0, source="test",
    )  # fmt: skip
    raf = Squadron.objects.create(name="19", nation="UK", side="allied")
    other = Squadron.objects.create(name="92", nation="UK", side="allied")
    older = Campaign.objects.create(name="Older", seed=1, created_by=user)
    newer = Campaign.objects.create(name="Newer", seed=2, created_by=user)
    done = Campaign.objects.create(name="Done", seed=3, created_by=user, status="finished")
    older.squadrons.set([raf, other])
    newer.squadrons.set([raf])
    flying_old = Pilot.objects.create(name="Flies in the older", nation="UK", squadron=raf)
    both = Pilot.objects.create(name="Flies in both", nation="UK", squadron=raf)
    wounded = Pilot.objects.create(
        name="Wounded in the older", nation="UK", squadron=raf, status="wounded",
        wounded_until_turn=12,
    )  # fmt: skip
    Pilot.objects.create(name="Idle", nation="UK", squadron=raf)
    Pilot.objects.create(name="Of 92", nation="UK", squadron=other)
    Pilot.objects.create(name="Killed", nation="UK", squadron=other, status="killed")
    free = Pilot.objects.create(name="Free", nation="UK", squadron=Squadron.objects.create(
        name="41", nation="UK", side="allied"))  # fmt: skip
    for campaign, pilot, plane in (
        (older, flying_old, "allied-1"), (older, both, "allied-2"), (newer, both, "allied-1"),
        (done, free, "allied-1"),
    ):  # fmt: skip
        CampaignPlane.objects.create(
            campaign=campaign, plane_id=plane, side="allied", aircraft_type=spit, pilot=pilot
        )
    PilotEvent.objects.create(pilot=wounded, kind="wounded", campaign=older, campaign_turn=9)
    rows = Pilot.objects.count()

    apps = migrated(AFTER)
    Pilot = apps.get_model("roster", "Pilot")
    enrolled = dict(Pilot.objects.values_list("name", "enrolled_in__name"))
    assert enrolled == {
        "Flies in the older": "Older",  # assigned there: a plane counts before a squadron
        "Flies in both": "Newer",  # assigned in both: the most recent active campaign
        "Wounded in the older": "Older",  # the turn clock he waits on is the older one's
        "Idle": "Newer",
        "Of 92": "Older",
        "Killed": None,
        "Free": None,  # his only campaign is finished
    }
    assert Pilot.objects.count() == rows

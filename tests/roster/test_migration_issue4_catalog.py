"""A catalog loaded before the bomber classes and night fighters is brought up to date."""

import pytest

BEFORE = [("roster", "0003_bomber_classes")]
AFTER = [("roster", "0004_shipped_bomber_classes_and_night_fighters")]


def _type(AircraftType, name, kind, abilities):
    return AircraftType.objects.create(
        name=name, nation="Germany", side="axis", kind=kind, cost=40, pilot_quality="average",
        speed_min=2, speed_max=2, attack_1=3, attack_2=2, attack_3=0, armor=4, vital_armor=9,
        hits=5, turn=0, roll=0, climb=0, dive=0, abilities=abilities,
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_old_shipped_values_are_updated_and_organiser_choices_kept(migrated):
    apps = migrated(BEFORE)
    AircraftType = apps.get_model("roster", "AircraftType")
    _type(AircraftType, "Junkers Ju 88", "bomber", ["Bomber"])
    _type(AircraftType, "Dornier Do 17", "bomber", ["Bomber"])
    _type(AircraftType, "Douglas A-20 Havoc", "heavy bomber", ["Bomber"])  # organiser's edit
    _type(AircraftType, "Messerschmitt Bf 110", "heavy fighter", ["Night Fighter"])

    apps = migrated(AFTER)
    AircraftType = apps.get_model("roster", "AircraftType")
    kinds = dict(AircraftType.objects.values_list("name", "kind"))
    abilities = dict(AircraftType.objects.values_list("name", "abilities"))
    assert kinds["Junkers Ju 88"] == "medium bomber"
    assert kinds["Dornier Do 17"] == "light bomber"
    assert kinds["Douglas A-20 Havoc"] == "heavy bomber"
    assert abilities["Dornier Do 17"] == ["Bomber", "Night Fighter"]
    assert abilities["Junkers Ju 88"] == ["Bomber"]
    assert abilities["Messerschmitt Bf 110"] == ["Night Fighter"]  # not added twice

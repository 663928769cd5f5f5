"""The database itself refuses impossible rows, whatever path writes them."""

import pytest
from django.db import IntegrityError, transaction

from angels.errors import RuleViolation
from roster.models import AircraftType, Airframe, Pilot, Squadron
from roster.services import pilot_create, squadron_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def squadron():
    return Squadron.objects.create(name="No. 1 Squadron", nation="United Kingdom", side="allied")


def _pilot(squadron, **kwargs):
    values = {"name": "Test Pilot", "nation": "United Kingdom", "squadron": squadron} | kwargs
    with transaction.atomic():
        return Pilot.objects.create(**values)


@pytest.mark.parametrize(
    "fields",
    [
        {"quality_scale": "card_game", "quality": "novice"},  # Novice is an Air Force grade
        {"quality_scale": "air_force", "quality": "veteran"},
        {"quality_scale": "air_pirates", "quality": "poor"},
        {"status": "wounded"},  # wounded without a return turn
        {"status": "active", "wounded_until_turn": 4},
        {"status": "resting"},
        {"training": 3},
    ],
)
def test_impossible_pilots_are_rejected_by_the_database(squadron, fields):
    with pytest.raises(IntegrityError):
        _pilot(squadron, **fields)


def test_negative_counts_are_rejected_by_the_database(squadron):
    pilot = _pilot(squadron)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pilot.objects.filter(pk=pilot.pk).update(air_kills=-1)


@pytest.mark.parametrize(
    ("quality_scale", "quality"),
    [("card_game", "ace"), ("air_force", "novice"), ("air_pirates", "experienced")],
)
def test_possible_pilots_are_stored(squadron, quality_scale, quality):
    pilot = _pilot(squadron, quality_scale=quality_scale, quality=quality)
    assert Pilot.objects.get(pk=pilot.pk).quality == quality


def test_wounded_pilot_with_return_turn_is_stored(squadron):
    pilot = _pilot(squadron, status="wounded", wounded_until_turn=7)
    assert pilot.status == "wounded"


def test_pilot_create_service_rejects_a_quality_off_its_scale_and_stores_nothing(squadron):
    pilot_create(squadron=squadron, name="Good", quality="ace", quality_scale="air_pirates")
    with pytest.raises(RuleViolation) as excinfo:
        pilot_create(squadron=squadron, name="Worse", quality="legend", quality_scale="air_pirates")
    assert excinfo.value.field == "quality"
    assert not Pilot.objects.filter(name="Worse").exists()


def test_pilot_create_puts_the_pilot_on_the_roll_without_a_career_log(squadron):
    pilot = pilot_create(squadron=squadron, name="Ginger Lacey", rank="Sgt", quality="veteran")
    assert (pilot.nation, pilot.entry_quality) == ("United Kingdom", "veteran")
    assert not pilot.events.exists()  # careers.services.pilot_enlist opens the log


def test_squadron_of_the_wrong_side_for_its_aircraft_is_refused(catalog):
    bf109 = AircraftType.objects.get(name="Messerschmitt Bf 109")
    with pytest.raises(RuleViolation, match="axis side") as excinfo:
        squadron_create(name="Odd", nation="United Kingdom", side="allied", aircraft_type=bf109)
    assert excinfo.value.field == "aircraft_type"
    assert not Squadron.objects.filter(name="Odd").exists()


def test_aircraft_type_constraints(catalog):
    with pytest.raises(IntegrityError), transaction.atomic():
        AircraftType.objects.filter(name="Typhoon Interceptor").update(vital_armor=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        AircraftType.objects.filter(name="Typhoon Interceptor").update(speed_min=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        AircraftType.objects.filter(name="P-51 Mustang").update(deck_copies=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        AircraftType.objects.filter(name="P-51 Mustang").update(card_af=11)


def test_destroyed_airframe_cannot_keep_a_pilot(squadron, catalog):
    pilot = _pilot(squadron)
    spitfire = AircraftType.objects.get(name="Supermarine Spitfire")
    with pytest.raises(IntegrityError), transaction.atomic():
        Airframe.objects.create(
            aircraft_type=spitfire, serial="X1", squadron=squadron, pilot=pilot, state="destroyed"
        )

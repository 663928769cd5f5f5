"""Enlisting a pilot opens the career log (moved from tests/roster/test_constraints.py)."""

import pytest

from angels.errors import RuleViolation
from careers.models import PilotEvent
from careers.services import pilot_enlist
from roster.models import Pilot, Squadron

pytestmark = pytest.mark.django_db


@pytest.fixture
def squadron():
    return Squadron.objects.create(name="No. 1 Squadron", nation="United Kingdom", side="allied")


def test_pilot_enlist_opens_the_career_log(squadron):
    pilot = pilot_enlist(squadron=squadron, name="Ginger Lacey", rank="Sgt", quality="veteran")
    event = pilot.events.get()
    assert event.kind == "joined"
    assert event.details == {"squadron": "No. 1 Squadron", "quality": "veteran"}


def test_pilot_enlist_off_the_scale_stores_neither_pilot_nor_log(squadron):
    with pytest.raises(RuleViolation):
        pilot_enlist(squadron=squadron, name="Worse", quality="legend", quality_scale="air_pirates")
    assert not Pilot.objects.filter(name="Worse").exists()
    assert not PilotEvent.objects.exists()

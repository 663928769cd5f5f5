"""A small named cast for career tests: one campaign, two squadrons, a few pilots."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign import services as campaign_services
from careers.services import pilot_enlist
from roster.models import AircraftType
from roster.services import airframe_create, squadron_create


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user("orga", password="pw-orga-123", is_staff=True)


@pytest.fixture
def cast(catalog, organiser):
    """RAF squadron (Spitfires) against a Luftwaffe one (Bf 109s), in a campaign
    with the Angels 20 survival rule and the Air Force progression."""
    spit = AircraftType.objects.get(name="Supermarine Spitfire")
    me109 = AircraftType.objects.get(name="Messerschmitt Bf 109")
    raf = squadron_create(
        name="No. 19 Squadron", nation="United Kingdom", side="allied", aircraft_type=spit
    )
    jg = squadron_create(name="JG 51", nation="Germany", side="axis", aircraft_type=me109)
    raf.target_strength = jg.target_strength = 4
    raf.save()
    jg.save()
    campaign = campaign_services.campaign_create(
        name="Careers 1940", created_by=organiser, seed=3, progression_rule="air_force",
        survival_rule="angels20", squadrons=[raf, jg],
    )  # fmt: skip
    pilots = {}
    for name, sq in (
        ("Bader", raf),
        ("Tuck", raf),
        ("Lacey", raf),
        ("Mölders", jg),
        ("Balthasar", jg),
    ):
        pilots[name] = pilot_enlist(
            squadron=sq, name=name, quality="average", quality_scale="air_force"
        )
        airframe_create(
            aircraft_type=sq.aircraft_type, serial=f"S-{name}", squadron=sq, pilot=pilots[name]
        )
    return {"campaign": campaign, "raf": raf, "jg": jg, **pilots}


def refresh(*objs):
    for obj in objs:
        obj.refresh_from_db()

"""Two campaigns that share a squadron, a library squadron in none, and an empty
campaign: the cast of the shared-row and export-scope tests (issue 23)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from campaign import services as campaign_services
from careers.services import pilot_enlist
from roster.models import AircraftType, Pilot, Squadron
from roster.services import squadron_create


@dataclass
class World:
    staff: Any
    orga: Any  # organises A
    orgb: Any  # organises B
    orgc: Any  # organises C, which plays with no squadron
    a: Any
    b: Any
    c: Any
    shared: Squadron  # plays in A and B
    own: Squadron  # plays in A only
    library: Squadron  # plays in no campaign
    a_pilot: Pilot  # enrolled in A (of "own")
    b_pilot: Pilot  # enrolled in B (of "shared")
    spitfire: AircraftType


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def build_world() -> World:
    User = get_user_model()
    staff = User.objects.create_user("adjutant", password="pw-adj-123", is_staff=True)
    orga, orgb, orgc = (User.objects.create_user(n, password=f"pw-{n}-123") for n in ("orga", "orgb", "orgc"))  # fmt: skip
    spitfire = AircraftType.objects.get(name="Supermarine Spitfire")
    me109 = AircraftType.objects.get(name="Messerschmitt Bf 109")
    shared = squadron_create(name="No. 19 Squadron", nation="United Kingdom", side="allied",
                             aircraft_type=spitfire)  # fmt: skip
    own = squadron_create(name="JG 51", nation="Germany", side="axis", aircraft_type=me109)
    library = squadron_create(name="No. 74 Squadron", nation="United Kingdom", side="allied",
                              aircraft_type=spitfire)  # fmt: skip
    b_pilot = pilot_enlist(
        squadron=shared, name="Tuck", quality="average", quality_scale="air_force"
    )
    a_pilot = pilot_enlist(
        squadron=own, name="Mölders", quality="average", quality_scale="air_force"
    )
    # B first: the shared squadron's free pilot enrols in B; A then names the same squadron
    b = campaign_services.campaign_create(
        name="Campaign B", created_by=orgb, seed=1, squadrons=[shared]
    )
    a = campaign_services.campaign_create(
        name="Campaign A", created_by=orga, seed=2, squadrons=[shared, own]
    )
    c = campaign_services.campaign_create(name="Campaign C", created_by=orgc, seed=3)
    for pilot in (a_pilot, b_pilot):
        pilot.refresh_from_db()
    assert (a_pilot.enrolled_in_id, b_pilot.enrolled_in_id) == (a.pk, b.pk)
    return World(staff, orga, orgb, orgc, a, b, c, shared, own, library, a_pilot, b_pilot, spitfire)


def staff_edit(obj: Any, staff: Any, **values: Any) -> int:
    """Staff change ``obj`` (as the admin would: a record with their name); returns the
    id of the record before the change, the one a revert would put back."""
    before = obj.history.first().history_id
    for name, value in values.items():
        setattr(obj, name, value)
    obj._history_user = staff
    obj._change_reason = "admin edit"
    obj.save()
    return before

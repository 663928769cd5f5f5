"""Issue 23, "shared rows are staff's": an organiser writes what their campaign owns
alone; the aircraft catalog, a library squadron, a squadron another campaign plays
with and a pilot not enrolled in their campaign are staff's -- by the history page's
revert as by the API that adds pilots. Refused: 403, nothing stored."""

from __future__ import annotations

import pytest

from careers.services import pilot_enlist
from roster.models import AircraftType, Airframe, Pilot, Squadron
from roster.services import airframe_create

from .shared_world import build_world, client_of, staff_edit


@pytest.fixture
def w(catalog):
    return build_world()


def _revert(user, obj, history_id: int):
    meta = obj._meta
    return client_of(user).post(
        f"/history/{meta.app_label}/{meta.model_name}/{obj.pk}/revert/",
        {"history_id": history_id, "reason": "put back"},
    )


def test_an_organiser_cannot_revert_staffs_edit_of_a_squadron_another_campaign_plays_with(w):
    before = staff_edit(w.shared, w.staff, target_strength=6)
    response = _revert(w.orga, w.shared, before)
    assert response.status_code == 403
    assert Squadron.objects.get(pk=w.shared.pk).target_strength == 6
    assert w.shared.history.count() == 2  # no revert recorded
    # the other campaign's organiser neither: it is not theirs alone
    assert _revert(w.orgb, w.shared, before).status_code == 403
    # staff may
    assert _revert(w.staff, w.shared, before).status_code == 302
    assert Squadron.objects.get(pk=w.shared.pk).target_strength == 12


def test_the_history_page_shows_a_shared_squadron_but_offers_no_revert(w):
    staff_edit(w.shared, w.staff, target_strength=6)
    page = client_of(w.orga).get(f"/history/roster/squadron/{w.shared.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Only staff put this" in text and "/revert/" not in text
    staff_page = client_of(w.staff).get(f"/history/roster/squadron/{w.shared.pk}/").content.decode()
    assert "/revert/" in staff_page


def test_an_organiser_still_reverts_a_squadron_their_campaign_plays_with_alone(w):
    before = staff_edit(w.own, w.staff, target_strength=6)
    response = _revert(w.orga, w.own, before)
    assert response.status_code == 302
    assert Squadron.objects.get(pk=w.own.pk).target_strength == 12
    record = w.own.history.first()
    assert record.history_user == w.orga and record.history_change_reason.startswith("revert to")


def test_a_library_squadron_in_no_campaign_is_staffs(w):
    before = staff_edit(w.library, w.staff, base="Biggin Hill")
    for organiser in (w.orga, w.orgc):
        assert _revert(organiser, w.library, before).status_code == 403
    assert Squadron.objects.get(pk=w.library.pk).base == "Biggin Hill"
    assert _revert(w.staff, w.library, before).status_code == 302
    assert Squadron.objects.get(pk=w.library.pk).base == ""


def test_the_organiser_of_an_empty_campaign_cannot_revert_an_aircraft_type_edit(w):
    before = staff_edit(w.spitfire, w.staff, cost=99)
    response = _revert(w.orgc, w.spitfire, before)
    assert response.status_code == 403
    assert AircraftType.objects.get(pk=w.spitfire.pk).cost == 99
    assert _revert(w.orga, w.spitfire, before).status_code == 403  # nor one with squadrons
    assert _revert(w.staff, w.spitfire, before).status_code == 302
    assert AircraftType.objects.get(pk=w.spitfire.pk).cost != 99


def test_a_pilot_is_the_organisers_only_while_enrolled_in_their_campaign(w):
    before = staff_edit(w.a_pilot, w.staff, rank="Oberst")
    assert _revert(w.orga, w.a_pilot, before).status_code == 302
    assert Pilot.objects.get(pk=w.a_pilot.pk).rank == ""
    before = staff_edit(w.b_pilot, w.staff, rank="Wing Commander")
    assert _revert(w.orga, w.b_pilot, before).status_code == 403
    # a pilot of the free roster, even on A's own squadron, is nobody's campaign's yet
    free = pilot_enlist(
        squadron=w.own, name="Galland", quality="average", quality_scale="air_force"
    )
    before = staff_edit(free, w.staff, rank="Major")
    assert _revert(w.orga, free, before).status_code == 403
    assert Pilot.objects.get(pk=free.pk).rank == "Major"


def _add(user, squadron, campaign):
    return client_of(user).post(
        "/api/roster/pilots/add/",
        {"squadron": squadron.pk, "name": "Stanford Tuck", "campaign": campaign.pk,
         "reason": "a new man"},
        content_type="application/json",
    )  # fmt: skip


def test_an_organiser_cannot_add_a_pilot_to_a_squadron_another_campaign_plays_with(w):
    count = Pilot.objects.filter(squadron=w.shared).count()
    response = _add(w.orga, w.shared, w.a)
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "permission" and body["field"] == "squadron"
    assert Pilot.objects.filter(squadron=w.shared).count() == count
    # a library squadron: not A's at all
    assert _add(w.orga, w.library, w.a).status_code == 403
    assert not Pilot.objects.filter(squadron=w.library).exists()
    # staff may, and the organiser still adds to the squadron only A plays with
    assert _add(w.staff, w.shared, w.a).status_code == 201
    assert _add(w.orga, w.own, w.a).status_code == 201
    assert Pilot.objects.filter(squadron=w.own, name="Stanford Tuck", enrolled_in=w.a).exists()


def test_an_airframe_follows_its_squadron(w):
    shared = airframe_create(aircraft_type=w.spitfire, serial="P7350", squadron=w.shared)
    own = airframe_create(aircraft_type=w.own.aircraft_type, serial="W.Nr. 1", squadron=w.own)
    before = staff_edit(shared, w.staff, serial="P7351")
    assert _revert(w.orga, shared, before).status_code == 403
    assert Airframe.objects.get(pk=shared.pk).serial == "P7351"
    before = staff_edit(own, w.staff, serial="W.Nr. 2")
    assert _revert(w.orga, own, before).status_code == 302
    assert Airframe.objects.get(pk=own.pk).serial == "W.Nr. 1"

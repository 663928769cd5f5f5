"""Nobody is seated in a battle by someone else without saying yes (issue 23, item 10):
a seat naming another person is an offer, the battle waits for the answer, only that
person may answer, and a decline gives the seat to the computer pilot."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from battles.models import Battle, BattleStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast(catalog, django_user_model):
    make = django_user_model.objects.create_user
    return {name: make(name, password=f"pw-{name}-1234") for name in ("mallory", "hans", "tom")}


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _create(cast, seats) -> Battle:
    made = _api(cast["mallory"]).post(
        "/api/battles/create/",
        {"scenario": "dogfight", "settings": {"seats": seats}},
        format="json",
    )
    assert made.status_code == 202, made.content
    return Battle.objects.get(pk=made.json()["id"])


def _seat(user, battle, accept):
    return _api(user).post(f"/api/battles/{battle.pk}/seat/", {"accept": accept}, format="json")


def test_seating_two_others_is_an_offer_and_nobody_is_seated_until_they_accept(cast):
    battle = _create(cast, {"axis": {"user": "hans"}, "allied": {"user": "tom"}})
    assert battle.status == BattleStatus.IN_PLAY and battle.actions == []
    assert battle.decision_due is None and battle.started_at is None  # the battle waits
    hans_view = _api(cast["hans"]).get(f"/api/battles/{battle.pk}/turn/").json()
    assert hans_view["your_sides"] == [] and hans_view["offered_to_you"] == ["axis"]
    assert hans_view["waiting_for"] == ["axis", "allied"] and hans_view["legal_actions"] == []
    # not seated: an offered person may not act, nor hand over
    acted = _api(cast["hans"]).post(
        f"/api/battles/{battle.pk}/turn/", {"version": 0, "computer": "tactical"}, format="json"
    )
    assert acted.status_code == 403

    assert _seat(cast["mallory"], battle, True).status_code == 403  # not hers to answer
    assert _seat(cast["hans"], battle, "maybe").status_code == 400  # accept: true or false
    accepted = _seat(cast["hans"], battle, True)
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["your_sides"] == ["axis"] and accepted.json()["waiting_for"] == [
        "allied"
    ]
    assert Battle.objects.get(pk=battle.pk).started_at is None  # still waits for tom
    assert _seat(cast["hans"], battle, True).status_code == 403  # answered once

    started = _seat(cast["tom"], battle, True).json()
    assert started["waiting_for"] == [] and started["your_sides"] == ["allied"]
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.started_at is not None
    assert stored.settings["seats"] == {"axis": {"user": cast["hans"].pk},
                                        "allied": {"user": cast["tom"].pk}}  # fmt: skip


def test_a_declined_seat_goes_to_the_computer_pilot(cast):
    battle = _create(cast, {"axis": {"user": "mallory"}, "allied": {"user": "tom"}})
    mallory = _api(cast["mallory"])
    # the creator's own seat needs no answer, but she cannot start without tom
    view = mallory.get(f"/api/battles/{battle.pk}/turn/").json()
    assert view["your_sides"] == ["axis"] and view["waiting_for"] == ["allied"]
    refused = mallory.post(
        f"/api/battles/{battle.pk}/turn/", {"version": 0, "computer": "tactical"}, format="json"
    )
    assert refused.status_code == 400 and "waits for tom (allied)" in refused.json()["detail"]

    declined = _seat(cast["tom"], battle, False)
    assert declined.status_code == 200, declined.content
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.settings["seats"]["allied"] == {"pilot": "tactical"}
    assert stored.started_at is not None
    assert "tom declined the allied seat: computer pilot (tactical)" in [
        n["text"] for n in stored.notes
    ]


def test_when_everyone_declines_the_computer_pilots_fly_it(cast):
    battle = _create(cast, {"axis": {"user": "hans"}, "allied": {"pilot": "random"}})
    assert _seat(cast["hans"], battle, False).status_code == 200
    stored = Battle.objects.get(pk=battle.pk)
    assert "seats" not in stored.settings
    assert stored.settings["policies"] == {"axis": "tactical", "allied": "random"}
    assert stored.status in (BattleStatus.PENDING, BattleStatus.FINISHED)


def test_seating_oneself_needs_no_answer(cast):
    battle = _create(cast, {"axis": {"user": "mallory"}, "allied": {"pilot": "tactical"}})
    assert battle.started_at is not None
    assert battle.settings["seats"]["axis"] == {"user": cast["mallory"].pk}


def test_the_play_page_offers_accept_and_decline_to_that_person_only(cast):
    battle = _create(cast, {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}})
    hans, mallory = Client(), Client()
    hans.force_login(cast["hans"])
    mallory.force_login(cast["mallory"])
    page = hans.get(f"/battles/{battle.pk}/play/").content.decode()
    assert "You are offered the axis seat" in page and "Accept the seat" in page
    others = mallory.get(f"/battles/{battle.pk}/play/").content.decode()
    assert "Accept the seat" not in others and "Waiting for hans (axis)" in others
    assert mallory.post(f"/battles/{battle.pk}/play/", {"seat_answer": "accept"}).status_code == 403
    answered = hans.post(f"/battles/{battle.pk}/play/", {"seat_answer": "accept"})
    assert answered.status_code == 302
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.settings["seats"]["axis"] == {"user": cast["hans"].pk}
    assert stored.started_at is not None
    assert "You are offered" not in hans.get(f"/battles/{battle.pk}/play/").content.decode()


def test_the_new_battle_page_offers_the_seat_too(cast):
    page = Client()
    page.force_login(cast["mallory"])
    form = {"scenario": "dogfight", "axis_policy": "person", "axis_user": "hans"}
    made = page.post("/battles/new/", form)
    assert made.status_code == 302, made.content.decode()[-2000:]
    battle = Battle.objects.get()
    assert battle.settings["seats"]["axis"] == {"user": cast["hans"].pk, "offered": True}
    assert battle.started_at is None

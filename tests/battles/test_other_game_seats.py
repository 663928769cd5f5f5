"""A battle of another game flown by people (issue 25, "Proof of the layer"): created with
seats through POST /api/battles/create/ and the new-battle page (a person, or one of that
game's computer pilots, per side), refused by field when the game, scenario or a seat is
wrong (nothing stored), and handed to the computer a side at a time (one aircraft alone
only where the game flies aircraft one by one, as Angels 20 does).

The game is the tests' sealed duel (tests/rules/sealed_duel.py): both gunners aim in
secret each turn, revealed together; its one computer pilot is the gunner."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from rules.tactical import registered
from tests.rules.sealed_duel import SEALED_DUEL

pytestmark = pytest.mark.django_db


@pytest.fixture
def flyer(client, catalog):
    with registered(SEALED_DUEL):
        users = get_user_model().objects
        user = users.create_user("hans", password="pw-hans-123")
        users.create_user("tom", password="pw-tom-1234")
        client.force_login(user)
        yield client


def _create(client, settings, **more):
    body = {"system": "sealed_duel", "scenario": "short", "settings": settings, **more}
    return client.post("/api/battles/create/", body, content_type="application/json")


def test_the_api_seats_a_person_against_the_games_computer_pilot_and_they_fly_it(flyer):
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "gunner"}}
    made = _create(flyer, {"seats": seats, "deadline": {"minutes": 10}})
    assert made.status_code == 202, made.content
    answer = made.json()
    assert answer["system"] == "sealed_duel" and answer["status"] == "in_play"
    battle = Battle.objects.get(pk=answer["id"])
    hans = get_user_model().objects.get(username="hans")
    assert battle.settings == {
        "seats": {"axis": {"user": hans.pk}, "allied": {"pilot": "gunner"}},
        "deadline": {"seconds": 600},
    }
    assert battle.setup == {"name": "Dusk at the crossroads", "turns": 3}
    assert battle.decision_due is not None
    # the gunner aimed at once for allied, sealed: hans sees that it aimed, not where
    turn = flyer.get(f"/api/battles/{battle.pk}/turn/").json()
    assert turn["your_turn"] is True and turn["deciding"] == ["axis"]
    assert turn["log"][-1] == {"e": "aim_sealed", "turn": 1, "side": "allied"}
    for _ in range(3):
        if turn["status"] != "in_play":
            break
        action = {"type": "aim", "side": "axis", "aim": 2}
        posted = flyer.post(
            f"/api/battles/{battle.pk}/turn/", {"version": turn["version"], "action": action},
            content_type="application/json",
        )  # fmt: skip
        assert posted.status_code == 200, posted.content
        turn = posted.json()
    battle.refresh_from_db()
    assert battle.status == "finished" and battle.result["kind"] == "sealed_duel"
    assert [a["side"] for a in battle.actions if a["side"] == "axis"] == ["axis"] * len(
        [e for e in battle.log if e.get("e") == "aims_revealed"]
    )


def test_a_seat_offered_to_another_person_waits_for_their_answer(flyer, client):
    seats = {"axis": {"user": "hans"}, "allied": {"user": "tom"}}
    made = _create(flyer, {"seats": seats})
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.status == "in_play" and battle.settings["seats"]["allied"]["offered"] is True
    assert battle.actions == []
    tom = get_user_model().objects.get(username="tom")
    client.force_login(tom)
    accepted = client.post(
        f"/api/battles/{battle.pk}/seat/", {"accept": True}, content_type="application/json"
    )
    assert accepted.status_code == 200, accepted.content
    turn = client.get(f"/api/battles/{battle.pk}/turn/").json()
    assert turn["deciding"] == ["axis", "allied"] and turn["your_turn"] is True


@pytest.mark.parametrize(
    "field, body, words",
    [
        ("system", {"system": "chess"}, "known:"),
        ("scenario", {"scenario": "noon"}, "Dusk at the crossroads (dusk)"),
        (
            "settings.seats.allied.pilot",
            {"settings": {"seats": {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}}}},
            "known: gunner",
        ),
        (
            "settings.seats.allied.user",
            {"settings": {"seats": {"axis": {"user": "hans"}, "allied": {"user": "nobody"}}}},
            "unknown user 'nobody'",
        ),
        (
            "settings.seats.allied",
            {"settings": {"seats": {"axis": {"user": "hans"}}}},
            '{"pilot": "gunner"}',
        ),
        (
            "settings.seats.axis.pilot",
            {"settings": {"seats": {"axis": {"user": "hans", "pilot": "random"}, "allied": {"pilot": "gunner"}}}},
            "known: gunner",
        ),
        (
            "settings.policies",
            {"settings": {"seats": {"axis": {"user": "hans"}, "allied": {"pilot": "gunner"}}, "policies": {}}},
            '{"pilot": "gunner"}',
        ),
        (
            "settings.deadline",
            {"settings": {"seats": {"axis": {"pilot": "gunner"}, "allied": {"pilot": "gunner"}}, "deadline": {"minutes": 5}}},
            "no seat has a person",
        ),
        (
            "seed",
            {"seed": 7, "settings": {"seats": {"axis": {"user": "hans"}, "allied": {"pilot": "gunner"}}}},
            "no seed from its players",
        ),
        ("settings.rules", {"settings": {"rules": {"tailing": True}}}, "only policies"),
    ],
)  # fmt: skip
def test_what_the_api_does_not_take_is_a_400_naming_the_field_and_stores_nothing(
    flyer, field, body, words
):
    full = {"system": "sealed_duel", "scenario": "short", **body}
    answer = flyer.post("/api/battles/create/", full, content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"][0]["field"] == field, answer.json()
    assert words in answer.json()["detail"]
    assert not Battle.objects.exists()


def test_seats_with_no_person_fly_in_the_background_with_the_games_pilots(
    flyer, django_capture_on_commit_callbacks
):
    seats = {"axis": {"pilot": "gunner"}, "allied": {"pilot": "gunner"}}
    with django_capture_on_commit_callbacks(execute=True):
        made = _create(flyer, {"seats": seats})
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.settings == {"policies": {"axis": "gunner", "allied": "gunner"}}
    assert battle.status == "finished" and battle.result["kind"] == "sealed_duel"


def _page_post(**fields):
    return {
        "system": "sealed_duel", "scenario": "short", "axis_policy": "person",
        "axis_user": "hans", "allied_policy": "gunner", **fields,
    }  # fmt: skip


def test_the_page_offers_the_duel_with_a_person_in_a_seat_and_opens_its_play_page(flyer):
    page = flyer.get("/battles/new/").content.decode()
    assert '<option value="sealed_duel">Duel at Dusk</option>' in page
    assert '<option value="short">A short duel (3 turns)</option>' in page
    assert '<optgroup label="Duel at Dusk"><option value="gunner">' in page
    answer = flyer.post("/battles/new/", _page_post(deadline_amount="2", deadline_unit="hours"))
    assert answer.status_code == 302, answer.content.decode()[:2000]
    battle = Battle.objects.get()
    assert answer["Location"] == f"/battles/{battle.pk}/play/"
    assert battle.system == "sealed_duel" and battle.status == "in_play"
    assert battle.settings["seats"]["allied"] == {"pilot": "gunner"}
    assert battle.settings["deadline"] == {"seconds": 7200}
    play = flyer.get(answer["Location"]).content.decode()
    assert "Your decision</strong> (axis)" in play and "axis aims 3" in play


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"allied_policy": "tactical"}, "Unknown computer pilot &#x27;tactical&#x27; (known: gunner)"),
        ({"axis_user": ""}, "Give the username of the person flying this side"),
        ({"axis_user": "nobody"}, "Unknown user &#x27;nobody&#x27;"),
        ({"scenario": "standard"}, "Duel at Dusk has no scenario &#x27;standard&#x27;"),
        ({"axis_policy": "gunner", "deadline_amount": "5"}, "seat a person"),
        ({"deadline_amount": "0"}, "at least 1"),
    ],
)  # fmt: skip
def test_the_page_refuses_a_wrong_seat_beside_its_field_and_stores_nothing(flyer, fields, words):
    answer = flyer.post("/battles/new/", _page_post(**fields))
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "The battle was not created: 1 problem to fix." in page and words in page
    assert '<option value="sealed_duel" selected>Duel at Dusk</option>' in page  # kept
    assert not Battle.objects.exists()


def test_a_side_is_handed_to_the_games_computer_pilot_but_not_one_aircraft(flyer):
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "gunner"}}
    battle = Battle.objects.get(pk=_create(flyer, {"seats": seats}).json()["id"])
    url = f"/api/battles/{battle.pk}/hand-over/"
    one = flyer.post(url, {"side": "axis", "aircraft": 0}, content_type="application/json")
    assert one.status_code == 400 and one.json()["errors"][0]["field"] == "aircraft"
    assert "a whole side at a time" in one.json()["detail"]
    assert Battle.objects.get(pk=battle.pk).handed in ({}, None)
    confirm = flyer.get(f"/battles/{battle.pk}/play/?hand_side=axis").content.decode()
    assert "will fly <strong>your whole axis side</strong>, deciding for it at once" in confirm
    board = flyer.get(f"/battles/{battle.pk}/play/").content.decode()
    assert 'name="computer" value="gunner">Let the gunner computer pilot decide' in board
    assert 'id="play-map"' not in board and 'id="play-legend"' not in board
    listed = flyer.get("/battles/").content.decode()
    assert "<td>Duel at Dusk</td><td>A short duel (3 turns)</td>" in listed
    side = flyer.post(url, {"side": "axis"}, content_type="application/json")
    assert side.status_code == 200, side.content
    battle.refresh_from_db()
    assert battle.status == "finished"  # the gunner flew both sides to the end at once
    assert "hans handed the axis side to the computer pilot (gunner)" in [
        n["text"] for n in battle.notes
    ]
    page = flyer.get(f"/battles/{battle.pk}/").content.decode()
    assert "Hans handed the axis side to the computer pilot (gunner)." in page

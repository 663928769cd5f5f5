"""A view per side and simultaneous decisions (issue 25), proved with a game of the tests'
own (tests/rules/sealed_duel.py: both gunners aim in secret each turn, revealed together).

Two people seated; each submits in parallel through the turn API; until both have aimed,
nothing the other seat is answered (the turn API, the play page, the live log API, the
report page) holds the sealed aim; then both are revealed; a deadline with one seat
missing lets the computer pilot aim for it; the finished battle shows everything."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from battles import play, services
from battles.models import Battle
from rules.tactical import registered
from tests.battles.seating import everything_seen, logged_in, seated_battle, seated_people, turn_of
from tests.rules.sealed_duel import SEALED_DUEL, SEALED_SCENARIO

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    with registered(SEALED_DUEL):
        yield seated_people(django_user_model)


def _create(people, seed: int = 5, key: str = "test:sealed:1") -> Battle:
    battle = seated_battle(
        people, setup=SEALED_SCENARIO, system="sealed_duel", seed=seed, key=key,
        deadline={"minutes": 5},
    )  # fmt: skip
    assert battle.status == "in_play" and battle.system == "sealed_duel"
    return battle


def _aim(client: APIClient, pk: int, side: str, aim: int, version: int):
    return client.post(
        f"/api/battles/{pk}/turn/",
        {"version": version, "action": {"type": "aim", "side": side, "aim": aim}},
        format="json",
    )


def test_both_decide_in_parallel_and_neither_sees_the_others_aim_until_both_have(people):
    battle = _create(people)
    axis, allied, nosy = (logged_in(people[s]) for s in ("axis", "allied", "outsider"))
    first = turn_of(axis, battle.pk)
    assert first["deciding"] == ["axis", "allied"] and first["scenario"] == "Dusk at the crossroads"
    assert first["your_turn"] is True and turn_of(allied, battle.pk)["your_turn"] is True
    assert first["legal_actions"] == [{"type": "aim", "side": "axis", "aim": a} for a in (1, 2, 3)]
    assert [c["label"] for c in first["choices"]] == ["axis aims 1", "axis aims 2", "axis aims 3"]

    sealed = _aim(axis, battle.pk, "axis", 3, first["version"])
    assert sealed.status_code == 200, sealed.content
    mine = sealed.json()
    assert mine["view"] == {"turn": 1, "aimed": ["axis"], "your_aim": 3}
    assert mine["your_turn"] is False and mine["deciding"] == ["allied"]
    assert mine["log"][-1] == {"e": "aim_sealed", "turn": 1, "side": "axis", "aim": 3}

    # the allied seat, and a spectator, learn that axis has aimed, never where
    for reader in (allied, nosy):
        seen = everything_seen(reader, battle.pk)
        turn = json.loads(seen["turn"])
        assert turn["log"][-1] == {"e": "aim_sealed", "turn": 1, "side": "axis"}
        assert turn["view"]["aimed"] == ["axis"] and turn["view"]["your_aim"] is None
        assert json.loads(seen["log"])["actions"] == []  # the sealed aim is not in the record
        assert json.loads(seen["log"])["log"][-1] == turn["log"][-1]
        assert "Turn 1: aim sealed: side axis.</li>" in seen["page"]
        assert "Turn 1: aim sealed: side axis.</li>" in seen["board"]
        for where, text in seen.items():  # axis's aim in any form: JSON, escaped, words
            for hidden in (
                '"side": "axis", "aim"',
                "&quot;side&quot;: &quot;axis&quot;, &quot;aim",
            ):
                assert hidden not in text, where
            assert "side axis; aim" not in text and "axis aims" not in text, where
    board = everything_seen(allied, battle.pk)["board"]
    assert "Your decision</strong> (allied)" in board
    assert "Turn <strong>1</strong> ·" in board and "VP axis" not in board  # no phase, no VP
    assert board.count('name="action"') == 3 and "allied aims 3" in board
    assert "waiting for the allied side (tom)" in everything_seen(axis, battle.pk)["board"]

    # the allied seat's page was loaded before axis aimed: its version still holds
    again = _aim(axis, battle.pk, "axis", 1, mine["version"])
    assert again.status_code == 400 and again.json()["field"] == "action"  # aimed already
    crossed = _aim(allied, battle.pk, "axis", 2, first["version"])
    assert crossed.status_code == 400 and crossed.json()["field"] == "action"
    assert "not yours" in crossed.json()["detail"]
    revealed = _aim(allied, battle.pk, "allied", 2, first["version"])
    assert revealed.status_code == 200, revealed.content

    # both revealed together, to both seats and everyone
    for reader in (axis, allied, nosy):
        log = turn_of(reader, battle.pk)["log"]
        assert {"e": "aim_sealed", "turn": 1, "side": "axis", "aim": 3} in log
        assert {"e": "aim_sealed", "turn": 1, "side": "allied", "aim": 2} in log
        assert {"e": "aims_revealed", "turn": 1, "aims": {"axis": 3, "allied": 2}} in log
        page = reader.get(f"/battles/{battle.pk}/play/").content.decode()
        assert "Turn 1: aim sealed: aim 3; side axis.</li>" in page
        assert "Turn 1: aims revealed: aims allied 2; axis 3.</li>" in page
    assert len(nosy.get(f"/api/battles/{battle.pk}/log/").json()["actions"]) == 2


def test_a_deadline_with_one_seat_missing_lets_the_computer_pilot_aim_for_it(people):
    battle = _create(people, seed=9, key="test:sealed:2")
    axis, allied = logged_in(people["axis"]), logged_in(people["allied"])
    due = Battle.objects.get(pk=battle.pk).decision_due
    assert due is not None
    assert _aim(axis, battle.pk, "axis", 2, turn_of(axis, battle.pk)["version"]).status_code == 200
    # the axis decision keeps the allied seat's clock: it does not start again
    assert Battle.objects.get(pk=battle.pk).decision_due == due
    assert play.deadline_pass(battle.pk, now=due + timedelta(seconds=1)) == 1
    turn = turn_of(allied, battle.pk)
    notes = [n["text"] for n in turn["notes"]]
    assert "the deadline passed: the computer pilot chose for allied" in notes
    chosen = next(e for e in turn["log"] if e.get("e") == "aims_revealed")
    assert chosen["aims"]["axis"] == 2 and chosen["aims"]["allied"] in (1, 2, 3)
    assert {"e": "aim_sealed", "turn": 1, "side": "allied", "aim": chosen["aims"]["allied"]} in (
        turn["log"]
    )


def test_the_battle_flown_to_its_end_by_both_reports_everything(people):
    battle = _create(people, seed=3, key="test:sealed:3")
    axis, allied = logged_in(people["axis"]), logged_in(people["allied"])
    for _turn_number in range(SEALED_SCENARIO["turns"]):
        view = turn_of(axis, battle.pk)
        if view["status"] == "finished":
            break
        assert _aim(axis, battle.pk, "axis", 3, view["version"]).status_code == 200
        assert _aim(allied, battle.pk, "allied", 1, view["version"]).status_code == 200
    battle.refresh_from_db()
    assert battle.status == "finished"
    assert battle.result["kind"] == "sealed_duel"
    replayed = SEALED_DUEL.replay(SEALED_SCENARIO, 3, battle.actions)
    assert replayed.log == battle.log and replayed.result() == battle.result
    after = logged_in(people["outsider"])
    turn = turn_of(after, battle.pk)
    assert turn["log"] == battle.log and turn["result"] == battle.result
    assert after.get(f"/api/battles/{battle.pk}/log/").json()["actions"] == battle.actions
    report = after.get(f"/battles/{battle.pk}/").content.decode()
    assert "Turn 1: aims revealed: aims allied 1; axis 3.</li>" in report
    assert "Turn 1: aim sealed: aim 3; side axis.</li>" in report
    assert "Turn 1: aim sealed: aim 1; side allied.</li>" in report


def test_a_timed_out_round_and_the_deadline_sweep_finish_a_battle_nobody_flies(people):
    battle = _create(people, seed=4, key="test:sealed:4")
    now = timezone.now()
    for _ in range(SEALED_SCENARIO["turns"] + 1):
        battle.refresh_from_db()
        if battle.status == "finished":
            break
        now = battle.decision_due + timedelta(seconds=1)
        assert play.deadline_pass(battle.pk, now=now) >= 1
    battle.refresh_from_db()
    assert battle.status == "finished" and battle.result["kind"] == "sealed_duel"
    chose = [n["text"] for n in battle.notes]
    assert chose.count("the deadline passed: the computer pilot chose for axis") == chose.count(
        "the deadline passed: the computer pilot chose for allied"
    )


def test_a_seat_hands_its_decision_or_its_side_to_the_computer_and_sees_no_more(people):
    battle = _create(people, seed=7, key="test:sealed:5")
    axis, allied = logged_in(people["axis"]), logged_in(people["allied"])
    version = turn_of(axis, battle.pk)["version"]
    assert _aim(axis, battle.pk, "axis", 1, version).status_code == 200
    # the allied seat lets the computer pilot make this one decision: revealed together
    handed = allied.post(
        f"/api/battles/{battle.pk}/turn/", {"version": version, "computer": "gunner"}, format="json"
    )
    assert handed.status_code == 200, handed.content
    log = handed.json()["log"]
    revealed = next(e for e in log if e.get("e") == "aims_revealed")
    assert revealed["aims"]["axis"] == 1 and revealed["aims"]["allied"] in (1, 2, 3)
    assert "tom let the computer pilot (gunner) make this decision" in [
        n["text"] for n in handed.json()["notes"]
    ]
    assert handed.json()["status"] == "in_play"  # seed 7: nobody hit in turn 1
    # the whole allied side to the computer: it aims at once each turn, sealed from axis
    over = allied.post(
        f"/api/battles/{battle.pk}/hand-over/", {"side": "allied", "computer": True}, format="json"
    )
    assert over.status_code == 200, over.content
    turn = turn_of(axis, battle.pk)
    assert turn["deciding"] == ["axis"] and turn["view"]["aimed"] == ["allied"]
    assert turn["log"][-1] == {"e": "aim_sealed", "turn": turn["turn"], "side": "allied"}


def test_a_person_flies_against_the_games_own_computer_pilot(people):
    """A seat's computer pilot is one of the battle's game (here the duel's gunner); another
    game's pilot is refused by the field, naming the game's own."""
    from angels.errors import RuleViolation

    seats = {"axis": {"user": people["axis"].pk}, "allied": {"pilot": "gunner"}}
    battle = services.battle_create_from_setup(
        setup=SEALED_SCENARIO, seed=3, source_key="test:sealed:gunner",
        settings={"seats": seats}, system="sealed_duel",
    )  # fmt: skip
    assert battle.status == "in_play" and battle.settings["seats"]["allied"] == {"pilot": "gunner"}
    with pytest.raises(RuleViolation) as refused:
        services.battle_create_from_setup(
            setup=SEALED_SCENARIO, seed=3, source_key="test:sealed:tactical",
            settings={"seats": {**seats, "allied": {"pilot": "tactical"}}}, system="sealed_duel",
        )  # fmt: skip
    assert refused.value.field == "settings.seats.allied.pilot"
    assert "known: gunner" in str(refused.value)
    assert not Battle.objects.filter(source_key="test:sealed:tactical").exists()

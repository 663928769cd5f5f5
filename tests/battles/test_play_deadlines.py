"""Battles flown by people (issue 14): a time per decision, after which the side's computer
pilot decides (the beat task and any reading of the turn pass it, once), and handing an
aircraft or a side to the computer pilot and back; the log says so, on the play page and
in the report."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import time_machine
from django.db import connection
from django.test import Client

from accounts.models import UserSettings
from angels.errors import RuleViolation
from battles import play, tasks
from battles.models import Battle, BattleStatus
from rules.angels20 import Scenario, replay
from tests.battles.seating import seats_accepted

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 11, 24, 9, 0, tzinfo=dt.UTC)
PASSED = "the deadline passed: the computer pilot chose for"


@pytest.fixture
def cast(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "staff": make("umpire", password="pw-umpire-1", is_staff=True),
        "axis": make("hans", password="pw-hans-123"),
        "allied": make("tom", password="pw-tom-1234"),
    }


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _create(cast, *, deadline=None, allied=None, axis=None) -> int:
    settings = {
        "seats": {"axis": axis or {"user": "hans"}, "allied": allied or {"user": "tom"}},
        **({"deadline": deadline} if deadline else {}),
    }
    body = {"scenario": "dogfight", "settings": settings, "seed": 21}
    response = _client(cast["staff"]).post(
        "/api/battles/create/", body, content_type="application/json"
    )
    assert response.status_code == 202, response.content
    return seats_accepted(response.json()["id"]).pk  # the umpire offered them the seats


def _turn(client: Client, pk: int) -> dict:
    response = client.get(f"/api/battles/{pk}/turn/")
    assert response.status_code == 200, response.content
    return response.json()


def _replays(battle: Battle) -> bool:
    return replay(Scenario.from_json(battle.setup), battle.seed, battle.actions).log == battle.log


def test_a_passed_deadline_is_the_computer_pilots_decision_once(cast):
    with time_machine.travel(START, tick=False) as clock:
        pk = _create(cast, deadline={"minutes": 2})
        hans, tom = _client(cast["axis"]), _client(cast["allied"])
        first = _turn(hans, pk)
        side = first["to_act"]
        assert first["deadline_seconds"] == 120 and first["seconds_left"] == 120
        page = hans.get(f"/battles/{pk}/play/").content.decode()
        assert "Time per decision 2 min" in page and "2 min</span> left" in page
        # the time it runs out, in the reader's own time zone (accounts' setting)
        assert "until <time" in page and ">09:02:00 UTC</time>" in page
        UserSettings.objects.update_or_create(
            user=cast["allied"], defaults={"time_zone": "Europe/Berlin"}
        )
        assert ">10:02:00 CET</time>" in tom.get(f"/battles/{pk}/play/").content.decode()

        clock.shift(dt.timedelta(seconds=119))  # not yet: nothing happens
        assert tasks.pass_deadlines.delay().get() == []
        assert _turn(tom, pk)["version"] == first["version"]

        clock.shift(dt.timedelta(seconds=2))
        # the beat task and a page load both see the passed deadline: it passes once
        assert tasks.pass_deadlines.delay().get() == [pk]
        page = tom.get(f"/battles/{pk}/play/").content.decode()
        assert tasks.pass_deadlines.delay().get() == []
        after = _turn(hans, pk)
    battle = Battle.objects.get(pk=pk)
    assert after["version"] == first["version"] + 1
    assert [n["text"] for n in after["notes"]] == [f"{PASSED} {side}"]
    assert f"{PASSED.capitalize()} {side}." in page
    assert len(battle.actions) >= 1 and _replays(battle)
    # the next decision has its own two minutes, counted from when the last one passed
    assert battle.decision_due == START + dt.timedelta(seconds=240)


def test_a_move_in_time_moves_the_deadline_on_and_the_old_one_never_passes(cast):
    with time_machine.travel(START, tick=False) as clock:
        pk = _create(cast, deadline={"seconds": 30})
        battle = Battle.objects.get(pk=pk)
        view = _turn(_client(cast[_turn(_client(cast["axis"]), pk)["to_act"]]), pk)
        clock.shift(dt.timedelta(seconds=29))
        mover = _client(cast[view["to_act"]])
        answer = mover.post(
            f"/api/battles/{pk}/turn/",
            {"version": view["version"], "action": view["legal_actions"][0]},
            content_type="application/json",
        )
        assert answer.status_code == 200
        # a beat task that read the old deadline before the move passes nothing
        assert play.deadline_pass(pk, now=battle.decision_due + dt.timedelta(seconds=1)) == 0
    battle = Battle.objects.get(pk=pk)
    assert battle.notes == [] and battle.version == view["version"] + 1
    assert battle.decision_due == START + dt.timedelta(seconds=59)


def test_nobody_looking_for_a_long_time_is_the_decisions_the_beat_would_have_made(cast):
    """The seat names its stand-in: the random pilot decides for the absent allied player."""
    with time_machine.travel(START, tick=False) as clock:
        pk = _create(
            cast, deadline={"hours": 1}, axis={"pilot": "tactical"},
            allied={"user": "tom", "pilot": "random"},
        )  # fmt: skip
        clock.shift(dt.timedelta(hours=3, minutes=30))
        view = _turn(_client(cast["allied"]), pk)
    battle = Battle.objects.get(pk=pk)
    assert [n["text"] for n in view["notes"]] == [f"{PASSED} allied"] * 3
    assert battle.decision_due == START + dt.timedelta(hours=4) and _replays(battle)


@pytest.mark.parametrize(
    ("deadline", "field"),
    [
        ({"days": 1}, "settings.deadline"),
        (90, "settings.deadline"),
        ({"minutes": 0}, "settings.deadline.minutes"),
        ({"seconds": "ten"}, "settings.deadline.seconds"),
        ({"hours": 24 * 15}, "settings.deadline.hours"),
    ],
)
def test_a_bad_time_per_decision_is_refused_naming_the_field(cast, deadline, field):
    body = {"scenario": "dogfight", "settings": {"seats": {"axis": {"user": "hans"},
            "allied": {"pilot": "tactical"}}, "deadline": deadline}}  # fmt: skip
    response = _client(cast["axis"]).post(
        "/api/battles/create/", body, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["field"] == field, response.content
    assert not Battle.objects.exists()


def test_a_deadline_needs_a_person_in_a_seat(cast):
    body = {"scenario": "dogfight", "settings": {"deadline": {"minutes": 5}}}
    response = _client(cast["axis"]).post(
        "/api/battles/create/", body, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["field"] == "settings.deadline"


def _hand(client: Client, pk: int, **body) -> dict:
    response = client.post(f"/api/battles/{pk}/hand-over/", body, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def test_an_aircraft_handed_to_the_computer_is_flown_by_it_and_taken_back(cast):
    pk = _create(cast, allied={"pilot": "tactical"})
    hans = _client(cast["axis"])
    mine = [a for a in _turn(hans, pk)["aircraft"] if a["side"] == "axis"]
    assert len(mine) >= 2
    handed = mine[0]
    view = _hand(hans, pk, side="axis", aircraft=handed["id"])
    assert view["handed"] == {"axis": [handed["id"]]}
    assert view["notes"][-1]["text"] == (
        f"hans handed {handed['name']} (#{handed['id']}) to the computer pilot (tactical)"
    )
    # hans flies on: none of his decisions is about the handed aircraft any more
    for _ in range(40):
        if view["status"] != "in_play":
            break
        assert view["your_turn"]
        for action in view["legal_actions"]:
            assert handed["id"] not in (action.get("plane"), action.get("attacker"))
        if view["aircraft_to_act"] is not None:
            assert view["aircraft_to_act"] != handed["id"]
        view = hans.post(
            f"/api/battles/{pk}/turn/",
            {"version": view["version"], "action": view["legal_actions"][-1]},
            content_type="application/json",
        ).json()
    battle = Battle.objects.get(pk=pk)
    moved = {a.get("plane") for a in battle.actions if a["type"] in ("activate", "move_plan")}
    assert handed["id"] in moved and _replays(battle)
    if battle.status == BattleStatus.IN_PLAY:
        view = _hand(hans, pk, side="axis", aircraft=handed["id"], computer=False)
        assert view["handed"] == {"axis": []}
        assert view["notes"][-1]["text"].startswith(f"hans took {handed['name']}")


def test_a_side_handed_to_the_computer_plays_on_at_once_and_the_report_says_so(cast):
    pk = _create(cast, allied={"pilot": "tactical"})
    view = _hand(_client(cast["axis"]), pk, side="axis")
    battle = Battle.objects.get(pk=pk)
    # both sides are the computer's now: the battle is flown to its end at once
    assert view["status"] == "finished" and battle.status == BattleStatus.FINISHED
    assert [n["text"] for n in view["notes"]] == [
        "hans handed the axis side to the computer pilot (tactical)"
    ]
    assert _replays(battle)
    report = Client().get(f"/battles/{pk}/").content.decode()
    assert "Hans handed the axis side to the computer pilot (tactical)." in report


def test_taking_a_side_back_gives_the_decisions_back(cast):
    pk = _create(cast)  # two people: handing axis over makes the computer fly axis's turns
    hans = _client(cast["axis"])
    _hand(hans, pk, side="axis")
    view = _hand(hans, pk, side="axis", computer=False)
    assert view["handed"] == {"axis": []}
    assert view["notes"][-1]["text"] == "hans took the axis side back from the computer pilot"
    assert view["to_act"] == "allied" or view["your_turn"]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"side": "neutral"}, 400, "side"),
        ({"side": "allied"}, 403, "side"),
        ({"side": "axis", "aircraft": 99}, 400, "aircraft"),
        ({"side": "axis", "aircraft": "one"}, 400, "aircraft"),
        ({"side": "axis", "computer": "maybe"}, 400, "computer"),
    ],
)
def test_hand_over_refusals_name_the_field_and_change_nothing(cast, body, status, field):
    pk = _create(cast, allied={"pilot": "tactical"})
    before = Battle.objects.get(pk=pk)
    response = _client(cast["axis"]).post(
        f"/api/battles/{pk}/hand-over/", body, content_type="application/json"
    )
    assert response.status_code == status, response.content
    assert response.json()["field"] == field
    after = Battle.objects.get(pk=pk)
    assert (after.version, after.handed, after.notes) == (before.version, {}, [])


def test_an_aircraft_of_the_other_side_and_a_finished_battle_are_refused(cast):
    pk = _create(cast, allied={"pilot": "tactical"})
    hans = _client(cast["axis"])
    theirs = next(a for a in _turn(hans, pk)["aircraft"] if a["side"] == "allied")
    response = hans.post(
        f"/api/battles/{pk}/hand-over/",
        {"side": "axis", "aircraft": theirs["id"]},
        content_type="application/json",
    )
    assert response.status_code == 400 and response.json()["field"] == "aircraft"
    _hand(hans, pk, side="axis")  # flown to its end by the computer pilots
    response = hans.post(
        f"/api/battles/{pk}/hand-over/", {"side": "axis"}, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["field"] == "status"


def test_the_page_hands_an_aircraft_over_and_shows_it_in_the_log(cast):
    pk = _create(cast, allied={"pilot": "tactical"})
    hans = _client(cast["axis"])
    page = hans.get(f"/battles/{pk}/play/").content.decode()
    assert "Hand the axis side to the computer pilot" in page
    mine = next(a for a in _turn(hans, pk)["aircraft"] if a["side"] == "axis")
    answer = hans.post(
        f"/battles/{pk}/play/",
        {"hand_side": "axis", "hand_aircraft": str(mine["id"]), "hand_to": "computer"},
    )
    assert answer.status_code == 302
    page = hans.get(f"/battles/{pk}/play/").content.decode()
    assert f"Hans handed {mine['name']} (#{mine['id']}) to the computer pilot (tactical)." in page
    assert "Take it back" in page
    bad = hans.post(f"/battles/{pk}/play/", {"hand_side": "allied", "hand_to": "computer"})
    assert bad.status_code == 403


def test_the_turn_cache_never_serves_another_battles_state(cast):
    """The state cache is keyed by what was flown: a rewritten row is replayed, not served."""
    pk = _create(cast)
    battle = Battle.objects.get(pk=pk)
    state = play.battle_state(battle)
    hits = play.STATES.hits
    assert play.battle_state(battle).log == state.log and play.STATES.hits == hits + 1
    battle.actions = battle.actions + [state.legal_actions()[0].to_json()]
    assert play.battle_state(battle).log == play.replay_state(battle).log
    assert play.STATES.hits == hits + 1  # a miss: replayed


def test_the_beat_schedule_runs_the_deadline_task():
    from django.conf import settings

    entry = next(
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "battles.pass_deadlines"
    )
    assert entry["schedule"] <= 10


def test_the_new_battle_page_sets_a_time_per_decision(cast):
    client = _client(cast["axis"])
    assert 'name="deadline_amount"' in client.get("/battles/new/").content.decode()
    post = {"scenario": "dogfight", "axis_policy": "person", "axis_user": "hans",
            "allied_policy": "tactical", "resolve": "now", "deadline_amount": "90",
            "deadline_unit": "seconds"}  # fmt: skip
    with time_machine.travel(START, tick=False):
        response = client.post("/battles/new/", post)
    battle = Battle.objects.get()
    assert response.status_code == 302 and battle.settings["deadline"] == {"seconds": 90}
    assert battle.decision_due == START + dt.timedelta(seconds=90)


@pytest.mark.parametrize(
    ("amount", "unit", "words"),
    [("soon", "minutes", "whole number of minutes"), ("3", "days", "{&quot;seconds&quot;: n}"),
     ("5", "minutes", "flown by people")],
)  # fmt: skip
def test_the_new_battle_page_names_a_bad_time_per_decision(cast, amount, unit, words):
    person = "tactical" if words == "flown by people" else "person"
    post = {"scenario": "dogfight", "axis_policy": person, "axis_user": "hans",
            "allied_policy": "tactical", "resolve": "now", "deadline_amount": amount,
            "deadline_unit": unit}  # fmt: skip
    response = _client(cast["axis"]).post("/battles/new/", post)
    page = response.content.decode()
    assert response.status_code == 400 and words in page, page[-3000:]
    assert f'name="deadline_amount" value="{amount}"' in page
    assert not Battle.objects.exists()


def test_a_move_made_after_the_deadline_is_refused_and_leaves_the_beat_nothing_to_pass(cast):
    """The deadline holds on the write (issue 23): a move a second late is refused, the
    computer's decision taken at the deadline instead, so the beat at that same moment
    passes nothing (the race below, in the order where the move is first)."""
    pk = _create(cast, deadline={"seconds": 10})
    battle = Battle.objects.get(pk=pk)
    view = play.turn_view(battle, cast[play.turn_view(battle, None)["to_act"]])
    late = battle.decision_due + dt.timedelta(seconds=1)
    with time_machine.travel(late, tick=False):
        with pytest.raises(RuleViolation, match="the deadline for this decision passed"):
            play.turn_act(
                battle_id=pk, user=cast[view["to_act"]], version=view["version"],
                action=view["legal_actions"][0],
            )  # fmt: skip
        assert play.deadline_pass(pk, now=late) == 0
    battle = Battle.objects.get(pk=pk)
    assert battle.version == view["version"] + 1
    assert battle.notes[-1]["text"] == f"{PASSED} {view['to_act']}"


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_a_deadline_racing_a_move_and_a_page_load_counts_once(cast):
    """The beat task, a page load and the person's own move, all at once on a passed
    deadline: either the move or the computer's decision is taken, never both."""
    pk = _create(cast, deadline={"seconds": 10})
    battle = Battle.objects.get(pk=pk)
    view = play.turn_view(battle, cast[play.turn_view(battle, None)["to_act"]])
    late = battle.decision_due + dt.timedelta(seconds=1)
    answers: list = []

    def run(job):
        try:
            answers.append(job())
        except Exception as exc:  # noqa: BLE001 - a refusal is what is counted
            answers.append(exc)
        finally:
            connection.close()

    user = cast[view["to_act"]]
    jobs = [
        lambda: play.deadline_pass(pk, now=late),
        lambda: play.deadline_pass(pk, now=late),
        lambda: play.turn_act(
            battle_id=pk, user=user, version=view["version"], action=view["legal_actions"][0]
        ),
    ]
    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    # all three at the same moment, a second after the deadline: a move that wins the lock
    # is refused as late, the computer's decision taken (and logged) in its stead, so no
    # pass at that moment can take it too
    with time_machine.travel(late, tick=False):
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    battle = Battle.objects.get(pk=pk)
    # a late move's refusal says the computer's decision was taken (the deadline passed)
    refusal = "deadline for this decision passed"
    took = sum(1 for a in answers if a == 1 or isinstance(a, Battle) or refusal in str(a))
    assert took == 1, answers
    # the deadline's note, and the late move's if it won the lock
    assert battle.version == view["version"] + 1 and len(battle.notes) <= 2
    assert _replays(battle)

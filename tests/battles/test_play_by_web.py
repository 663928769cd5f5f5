"""Battles flown by people through the API (issue 14): every scenario flown to its end by
two users, each action through ``/api/battles/<id>/turn/``; every refusal; the replay of
a person-flown battle; a person against the tactical computer pilot; the result handed on once."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from battles import play, services
from battles.models import Battle, BattleStatus
from roster import campaign_hooks
from rules.angels20 import Scenario, replay
from tests.battles.seating import logged_in, seated_people, seats_accepted
from tests.errors import reason

pytestmark = pytest.mark.django_db

FLIGHTS = {
    "axis": [{"aircraft_type": "Bf 109E Ace"}, {"aircraft_type": "Bf 109E Wingman"}],
    "allied": [{"aircraft_type": "Spitfire Mk I Ace"}, {"aircraft_type": "Hurricane Mk I"}],
}
SCENARIOS = {
    "dogfight": {},
    "intercept": {},
    "limited_fuel": {},
    "schnellbomber": {},
    "standard": FLIGHTS,
    "bomber_escort": FLIGHTS,
}
EVERY_OPTIONAL_RULE = {
    "tailing": True, "turn_position": True, "status": True, "pilot_survival": True,
    "midair_collision": True, "later_sixes": True,
    "clouds": ["clear", "heavy", "light", "clear", "clear", "clear"],
    "flak_fields": [[8, 10, 3]], "barrage_balloons": [[5, 12]], "night": "darkness",
    "fighter_direction": {"axis": 1, "allied": 1}, "searchlights": {"axis": True, "allied": True},
}  # fmt: skip
MAX_ACTIONS = 3000


@pytest.fixture
def cast(catalog, django_user_model):
    staff = django_user_model.objects.create_user("umpire", password="pw-umpire-1", is_staff=True)
    return {"staff": staff, **seated_people(django_user_model)}


def _create(
    cast, scenario="dogfight", *, flights=None, rules=None, allied=None, seed=11, max_turns=None
):
    settings: dict[str, Any] = {
        "seats": {"axis": {"user": "hans"}, "allied": allied or {"user": cast["allied"].pk}}
    }
    if rules:
        settings["rules"] = rules
    if max_turns:
        settings["max_turns"] = max_turns
    body = {"scenario": scenario, "flights": flights or {}, "settings": settings, "seed": seed}
    response = logged_in(cast["staff"]).post("/api/battles/create/", body, format="json")
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "in_play"
    return seats_accepted(response.json()["id"]).pk  # the umpire offered them the seats


def _fly(cast, pk: int, seed: int) -> int:
    """Both seats played by a driver picking legal actions at random, each through the API."""
    rng = random.Random(seed)
    clients = {side: logged_in(cast[side]) for side in ("axis", "allied")}
    url = f"/api/battles/{pk}/turn/"
    side = clients["axis"].get(url).json()["to_act"]
    for n in range(MAX_ACTIONS):
        if side is None:
            return n
        other = "allied" if side == "axis" else "axis"
        view = clients[side].get(f"{url}?since=999999").json()
        assert view["your_turn"] and view["legal_actions"], view
        assert "dice" not in view and "seed" not in view
        if n % 8 == 0:  # the other side sees whose turn it is, and no choices of its own
            seen = clients[other].get(f"{url}?since=999999").json()
            assert not seen["your_turn"] and seen["legal_actions"] == []
            assert seen["to_act"] == side and seen["version"] == view["version"]
        action = rng.choice(view["legal_actions"])
        answer = clients[side].post(
            url, {"version": view["version"], "action": action}, format="json"
        )
        assert answer.status_code == 200, answer.content
        assert answer.json()["version"] == view["version"] + 1
        side = answer.json()["to_act"]
    raise AssertionError(f"not over after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_two_people_fly_every_scenario_to_its_end_through_the_api(
    cast, scenario, django_capture_on_commit_callbacks
):
    pk = _create(cast, scenario, flights=SCENARIOS[scenario], max_turns=4)
    with django_capture_on_commit_callbacks(execute=True):
        actions = _fly(cast, pk, seed=len(scenario))
    battle = Battle.objects.get(pk=pk)
    assert battle.status == BattleStatus.FINISHED and actions == len(battle.actions) > 0
    assert battle.result["winner"] in ("axis", "allied", None)
    assert battle.applied_at is not None  # handed on, like an engine battle
    # the replay (seed + actions) reproduces the stored log exactly
    again = replay(Scenario.from_json(battle.setup), battle.seed, battle.actions)
    assert again.log == battle.log and again.result() == battle.result


def test_every_optional_rule_on(cast):
    pk = _create(cast, "standard", flights=FLIGHTS, rules=EVERY_OPTIONAL_RULE, max_turns=6)
    _fly(cast, pk, seed=3)
    battle = Battle.objects.get(pk=pk)
    assert battle.status == BattleStatus.FINISHED
    in_force = " ".join(battle.log[0]["optional_rules"])
    for rule in ("collision", "cloud", "flak", "balloon", "direction", "illumination"):
        assert rule in in_force, in_force
    again = replay(Scenario.from_json(battle.setup), battle.seed, battle.actions)
    assert again.log == battle.log


def test_a_person_against_the_tactical_computer_pilot(cast):
    pk = _create(cast, allied={"pilot": "tactical"}, max_turns=5)
    hans = logged_in(cast["axis"])
    url = f"/api/battles/{pk}/turn/"
    rng = random.Random(5)
    for _ in range(MAX_ACTIONS):
        view = hans.get(url).json()
        if view["status"] == "finished":
            break
        assert view["your_turn"]  # the computer has always answered already
        action = rng.choice(view["legal_actions"])
        assert (
            hans.post(
                url, {"version": view["version"], "action": action}, format="json"
            ).status_code
            == 200
        )
    battle = Battle.objects.get(pk=pk)
    assert battle.status == BattleStatus.FINISHED
    assert any(a for a in battle.actions)  # the computer's answers are in the record too
    again = replay(Scenario.from_json(battle.setup), battle.seed, battle.actions)
    assert again.log == battle.log


def _post(user, pk, version, action):
    return logged_in(user).post(
        f"/api/battles/{pk}/turn/", {"version": version, "action": action}, format="json"
    )


def test_every_refusal_changes_nothing(cast):
    pk = _create(cast)
    battle = Battle.objects.get(pk=pk)
    side = play.turn_view(battle, cast["axis"])["to_act"]
    other = "allied" if side == "axis" else "axis"
    view = logged_in(cast[side]).get(f"/api/battles/{pk}/turn/").json()
    legal = view["legal_actions"][0]
    before = Battle.objects.values().get(pk=pk)

    stale = _post(cast[side], pk, view["version"] + 1, legal)
    assert stale.status_code == 400 and stale.json()["field"] == "version"
    assert stale.json()["code"] == "conflict"
    wrong_side = _post(cast[other], pk, view["version"], legal)
    assert wrong_side.status_code == 400 and wrong_side.json()["rule"] == "000 'SEQUENCE OF PLAY'"
    illegal = _post(cast[side], pk, view["version"], {"type": "attack", "attacker": 0, "target": 3})
    assert illegal.status_code == 400 and illegal.json()["field"] == "action"
    assert illegal.json()["rule"], reason(illegal)
    garbage = _post(cast[side], pk, view["version"], {"type": "loop the loop"})
    assert garbage.status_code == 400 and garbage.json()["field"] == "action"
    outsider = _post(cast["outsider"], pk, view["version"], legal)
    assert outsider.status_code == 403
    staff = _post(cast["staff"], pk, view["version"], legal)
    assert staff.status_code == 403  # only the seat's person flies it
    anonymous = APIClient().post(
        f"/api/battles/{pk}/turn/", {"version": view["version"], "action": legal}, format="json"
    )
    assert anonymous.status_code == 401
    assert Battle.objects.values().get(pk=pk) == before
    # the outsider sees the board, no choices, and no seed
    seen = logged_in(cast["outsider"]).get(f"/api/battles/{pk}/turn/").json()
    assert seen["legal_actions"] == [] and seen["your_sides"] == []
    assert logged_in(cast["outsider"]).get(f"/api/battles/{pk}/").json()["seed"] is None
    assert logged_in(cast[side]).get(f"/api/battles/{pk}/log/").json()["seed"] is None


def test_a_finished_battle_takes_no_more_actions(cast):
    pk = _create(cast, max_turns=1)
    _fly(cast, pk, seed=1)
    battle = Battle.objects.get(pk=pk)
    answer = _post(cast["axis"], pk, battle.version, {"type": "decline"})
    assert answer.status_code == 400 and answer.json()["field"] == "status"


BAD_SEATS = [
    ({"axis": {"user": "nobody"}, "allied": {"pilot": "tactical"}}, "settings.seats.axis.user"),
    ({"axis": {"user": "hans"}, "allied": {"pilot": "genius"}}, "settings.seats.allied.pilot"),
    ({"axis": {"user": "hans"}}, "settings.seats.allied"),
    ({"axis": {"user": "hans"}, "allied": {"user": "tom"}, "neutral": {"user": "tom"}}, "settings.seats.neutral"),
    ({"axis": {"user": "hans", "colour": "red"}, "allied": {"user": "tom"}}, "settings.seats.axis"),
    ({"axis": {"user": "hans", "pilot": "genius"}, "allied": {"user": "tom"}}, "settings.seats.axis.pilot"),
    ("hans", "settings.seats"),
]  # fmt: skip


@pytest.mark.parametrize(("seats", "field"), BAD_SEATS)
def test_bad_seats_are_refused_naming_the_field(cast, seats, field):
    response = logged_in(cast["axis"]).post(
        "/api/battles/create/",
        {"scenario": "dogfight", "settings": {"seats": seats}},
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == field, response.content
    assert not Battle.objects.exists()


def test_a_player_gives_no_seed(cast):
    body = {
        "scenario": "dogfight",
        "seed": 4,
        "settings": {"seats": {"axis": {"user": "hans"}, "allied": {"pilot": "random"}}},
    }
    response = logged_in(cast["axis"]).post("/api/battles/create/", body, format="json")
    assert response.status_code == 400 and response.json()["field"] == "seed"


def test_two_computer_seats_are_an_ordinary_battle(cast, django_capture_on_commit_callbacks):
    seats = {"axis": {"pilot": "random"}, "allied": {"pilot": "tactical"}}
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.battle_create(scenario="dogfight", seed=3, settings={"seats": seats})
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    assert battle.settings == {"policies": {"axis": "random", "allied": "tactical"}}


def test_the_result_reaches_the_hooks_once(cast, monkeypatch, django_capture_on_commit_callbacks):
    seen: list[int] = []
    monkeypatch.setattr(
        campaign_hooks,
        "_installed",
        campaign_hooks.with_answer(battle_finished=lambda b: seen.append(b.pk)),
    )
    pk = _create(cast, max_turns=1)
    with django_capture_on_commit_callbacks(execute=True):
        _fly(cast, pk, seed=2)
    assert seen == [pk]
    services.battle_apply(battle_id=pk)
    assert seen == [pk]


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_players_racing_on_one_decision_exactly_one_is_applied(cast):
    pk = _create(cast, allied={"user": "hans"})  # one person flies both sides: both may act
    battle = Battle.objects.get(pk=pk)
    view = play.turn_view(battle, cast["axis"])
    answers: list[Any] = []

    def act(action):
        try:
            answers.append(
                play.turn_act(
                    battle_id=pk, user=cast["axis"], version=view["version"], action=action
                )
            )
        except Exception as exc:  # noqa: BLE001 - the refusal is what is counted
            answers.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=act, args=(a,)) for a in view["legal_actions"][:2] * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(a, Battle) for a in answers) == 1, answers
    assert Battle.objects.get(pk=pk).version == view["version"] + 1


def test_a_person_hands_a_decision_to_the_computer_pilot(cast):
    pk = _create(cast)
    battle = Battle.objects.get(pk=pk)
    side = play.turn_view(battle, cast["axis"])["to_act"]
    view = logged_in(cast[side]).get(f"/api/battles/{pk}/turn/").json()
    answer = logged_in(cast[side]).post(
        f"/api/battles/{pk}/turn/",
        {"version": view["version"], "computer": "tactical"},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    battle.refresh_from_db()
    assert battle.version == view["version"] + 1
    chosen = battle.actions[-1]  # both seats are people: no computer answer after it
    # the pilot's choice: one of the legal actions, or a whole move starting with one
    activation = {"type": "activate", "plane": chosen.get("plane"), "speed": chosen.get("speed")}
    assert chosen in view["legal_actions"] or activation in view["legal_actions"], chosen
    both = logged_in(cast[side]).post(
        f"/api/battles/{pk}/turn/",
        {"version": battle.version, "computer": "genius"},
        format="json",
    )
    assert both.status_code == 400 and both.json()["field"] in ("computer", "action")


@pytest.mark.parametrize(
    "action",
    [
        {"type": "activate", "plane": 99, "speed": 3},
        {"type": "activate", "plane": "one", "speed": [3]},
        {"type": "attack", "attacker": -7, "target": 99},
        {"type": "move_plan", "plane": 42, "speed": 2, "steps": [{"type": "straight"}] * 2},
        {"type": "move_plan", "plane": 0, "speed": 2, "steps": "straight"},
        {"type": "direct", "planes": ["x"]},
        {"type": "reposition", "plane": 12, "option": 1},
    ],
)
def test_nonsense_actions_are_a_400_never_a_500(cast, action):
    pk = _create(cast, allied={"user": "hans"})  # hans flies both sides: always his turn
    version = Battle.objects.get(pk=pk).version
    answer = _post(cast["axis"], pk, version, action)
    assert answer.status_code == 400 and answer.json()["field"] == "action", answer.content
    assert Battle.objects.get(pk=pk).version == version


def test_a_battle_of_the_computer_pilots_turn_is_shown_once_flown(
    cast, django_capture_on_commit_callbacks
):
    waiting = services.battle_create(scenario="dogfight", seed=3, resolve=False)
    assert APIClient().get(f"/api/battles/{waiting.pk}/turn/").status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        flown = services.battle_create(scenario="dogfight", seed=3)
    body = APIClient().get(f"/api/battles/{flown.pk}/turn/").json()
    assert body["status"] == "finished" and body["to_act"] is None and body["legal_actions"] == []

"""The test duels honour the whole tactical interface (issue 25, "Proof of the layer"):
``undo``, ``clone`` and ``battle_from_json`` as well as play, so every path of a battle
that calls them works for a game other than Angels 20: the play-by-web cache hands each
request a copy (``clone``), the report steps through the finished duel's events, and the
stored record replays to the same battle.

The systems are tests/rules/duel_system.py (one gunner at a time) and
tests/rules/sealed_duel.py (both aim in secret, revealed together); the stepped duel
(tests/rules/stepped_duel.py) inherits the sealed duel's battle, so it is checked too."""

from __future__ import annotations

import json
import random

import pytest
from rest_framework.test import APIClient

from battles import play, services
from battles.models import Battle
from rules.tactical import check_result, deciding_sides, legal_for, registered
from tests.rules.duel_system import DUEL, DUEL_SCENARIO
from tests.rules.sealed_duel import SEALED_DUEL, SEALED_SCENARIO
from tests.rules.stepped_duel import STEPPED_DUEL, STEPPED_SCENARIO

SYSTEMS = {
    "duel": (DUEL, DUEL_SCENARIO),
    "sealed_duel": (SEALED_DUEL, SEALED_SCENARIO),
    "stepped_duel": (STEPPED_DUEL, STEPPED_SCENARIO),
}


def _state(battle) -> str:
    return json.dumps(battle.to_json(), sort_keys=True)


def _random_action(battle, rng: random.Random):
    side = rng.choice(deciding_sides(battle))
    return rng.choice(legal_for(battle, side))


@pytest.mark.parametrize("name", sorted(SYSTEMS))
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_undo_gives_back_the_battle_and_its_dice_and_clone_is_a_copy_of_its_own(name, seed):
    system, scenario = SYSTEMS[name]
    battle = system.new_battle(scenario, seed)
    rng = random.Random(seed)
    while not battle.is_over():
        before = _state(battle)
        copy = battle.clone()
        action = _random_action(battle, rng)
        battle.apply(action)
        after, log_after = _state(battle), list(battle.log)
        assert _state(copy) == before  # nothing done to the battle reached its copy
        battle.undo()
        assert _state(battle) == before
        battle.apply(action)  # the same dice again: the same shots, the same log
        assert _state(battle) == after and battle.log == log_after
        copy.apply(action)
        assert _state(copy) == after  # the copy flies on by itself, with the same dice
    assert check_result(battle.result()) == []


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_undo_back_to_the_start_and_nothing_more(name):
    system, scenario = SYSTEMS[name]
    battle = system.new_battle(scenario, 8)
    start = _state(battle)
    rng = random.Random(8)
    taken = 0
    while not battle.is_over():
        battle.apply(_random_action(battle, rng))
        taken += 1
    for _ in range(taken):
        battle.undo()
    assert _state(battle) == start and not battle.is_over()
    with pytest.raises(ValueError, match="no action to take back"):
        battle.undo()


@pytest.mark.parametrize("name", sorted(SYSTEMS))
@pytest.mark.parametrize("seed", [5, 6])
def test_a_battle_comes_back_from_its_json_mid_duel_and_at_its_end(name, seed):
    system, scenario = SYSTEMS[name]
    battle = system.new_battle(scenario, seed)
    rng = random.Random(seed)
    while not battle.is_over():
        restored = system.battle_from_json(json.loads(json.dumps(battle.to_json())))
        assert _state(restored) == _state(battle)
        assert deciding_sides(restored) == deciding_sides(battle)
        battle.apply(_random_action(battle, rng))
    restored = system.battle_from_json(json.loads(json.dumps(battle.to_json())))
    assert restored.is_over() and restored.result() == battle.result()
    assert restored.log == battle.log
    tampered = battle.to_json()
    tampered["log"] = [*tampered["log"][:-1], {"e": "shot", "hit": True}]
    with pytest.raises(ValueError, match="not the one its scenario, seed and actions give"):
        system.battle_from_json(tampered)


def test_an_action_refused_leaves_the_battle_as_it_was():
    battle = SEALED_DUEL.new_battle(SEALED_SCENARIO, 3)
    battle.apply(SEALED_DUEL.action_from_json({"side": "axis", "aim": 2}))
    before = _state(battle)
    for bad in ({"side": "axis", "aim": 1}, {"side": "allied", "aim": 4}):
        with pytest.raises(SEALED_DUEL.refusal):
            battle.apply(SEALED_DUEL.action_from_json(bad))
        assert _state(battle) == before
    battle.undo()  # the refusals left no step to take back: this takes back axis's aim
    assert battle.deciding_sides() == [0, 1] and battle.sealed_count() == 0
    duel = DUEL.new_battle(DUEL_SCENARIO, 3)
    with pytest.raises(DUEL.refusal, match="aims 1 or 2"):
        duel.apply(DUEL.action_from_json({"aim": 3}))
    assert duel.log == [{"e": "duel_start", "turns": 6}] and duel.to_json()["actions"] == []


# -- the product's paths ------------------------------------------------------------------
@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    with registered(SEALED_DUEL):
        yield make("hans", password="pw-hans-123"), make("tom", password="pw-tom-1234")


def _seated(people, seed: int, key: str) -> Battle:
    seats = {"axis": {"user": people[0].pk}, "allied": {"user": people[1].pk}}
    return services.battle_create_from_setup(
        setup=SEALED_SCENARIO, seed=seed, source_key=key,
        settings={"seats": seats}, system="sealed_duel",
    )  # fmt: skip


def _client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _aim(client: APIClient, pk: int, side: str, aim: int):
    version = client.get(f"/api/battles/{pk}/turn/").json()["version"]
    action = {"type": "aim", "side": side, "aim": aim}
    answer = client.post(f"/api/battles/{pk}/turn/", {"version": version, "action": action}, format="json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    return answer.json()


@pytest.mark.django_db
def test_the_play_cache_hands_each_request_a_copy_of_the_duel(people):
    battle = _seated(people, 5, "test:record:cache")
    _aim(_client(people[0]), battle.pk, "axis", 2)
    battle.refresh_from_db()
    play.STATES.clear()
    first = play.battle_state(battle)  # replayed, then kept
    hits = play.STATES.hits
    second = play.battle_state(battle)
    assert play.STATES.hits == hits + 1 and _state(second) == _state(first)
    first.apply(SEALED_DUEL.action_from_json({"side": "allied", "aim": 3}))  # a request's own
    third = play.battle_state(battle)
    assert third.sealed_count() == 1 and third.deciding_sides() == [1]
    assert _state(third) == _state(second) != _state(first)
    replayed = SEALED_DUEL.replay(battle.setup, battle.seed, battle.actions)
    assert _state(third) == _state(replayed)


@pytest.mark.django_db
def test_the_report_steps_through_the_finished_duel_and_its_record_replays(people):
    battle = _seated(people, 3, "test:record:report")
    axis, allied = _client(people[0]), _client(people[1])
    while Battle.objects.get(pk=battle.pk).status == "in_play":
        _aim(axis, battle.pk, "axis", 3)
        _aim(allied, battle.pk, "allied", 1)
    battle.refresh_from_db()
    assert battle.status == "finished"
    page = axis.get(f"/battles/{battle.pk}/").content.decode()
    script = page.split('<script id="frames" type="application/json">', 1)[1]
    frames = json.loads(script.split("</script>", 1)[0])  # what report.js steps through
    assert [f["i"] for f in frames] == list(range(len(battle.log)))  # one step per event
    assert frames[0]["turn"] == 0 and frames[-1]["turn"] == battle.result["turns_played"]
    assert "Turn 1: aims revealed: aims allied 1; axis 3." in [f["text"] for f in frames]
    assert all(f["aircraft"] == [] for f in frames)  # a duel has no aircraft on a map
    assert 'data-go="turn-next"' in page and "Turn 1: aim sealed: aim 3; side axis." in page
    # the stored record is the battle: replayed, and read back from its JSON
    replayed = SEALED_DUEL.replay(battle.setup, battle.seed, battle.actions)
    assert replayed.log == battle.log and replayed.result() == battle.result
    restored = SEALED_DUEL.battle_from_json(
        {
            "scenario": battle.setup,
            "seed": battle.seed,
            "actions": battle.actions,
            "log": battle.log,
        }
    )
    assert restored.result() == battle.result

"""The bounce (002 9f) read logged out (issue 26; "nobody reads what isn't theirs"): while
the battle is in play a spectator sees no more than both sides know, so a seated player
learns nothing more by reading the battle logged out: no unit's altitude or speed before
its enemies spot it, in the turn API, the play page, its board or the log API. Once the
battle is over the report shows them all, in every frame."""

from __future__ import annotations

import json
import re

import pytest
from rest_framework.test import APIClient

from battles import services
from battles.models import BattleStatus
from battles.play import hand_over
from rules.airpirates import bounce as bo
from rules.airpirates.system import AIRPIRATES
from tests.battles.seating import everything_seen, logged_in, seated_battle, seated_people, turn_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return seated_people(django_user_model)


def _bounce_in_play(people):
    setup = AIRPIRATES.scenario_json(AIRPIRATES.scenario("bounce", 7))
    battle = seated_battle(people, setup=setup, system="airpirates", seed=7, key="test:ap:spect")
    clients = [logged_in(people[side]) for side in ("axis", "allied")]
    for _ in range(14):  # placed and marked, moving in the first impulses
        for client in clients:
            turn = turn_of(client, battle.pk)
            if turn["your_turn"] and turn["legal_actions"]:
                body = {"version": turn["version"], "action": turn["legal_actions"][0]}
                client.post(f"/api/battles/{battle.pk}/turn/", body, format="json")
                break
    battle.refresh_from_db()
    return battle


def test_logged_out_a_reader_sees_no_unspotted_units_altitude_or_speed(people):
    battle = _bounce_in_play(people)
    state = AIRPIRATES.replay(battle.setup, battle.seed, battle.actions)
    assert battle.status == BattleStatus.IN_PLAY
    assert bo.hidden(state, None) == {1, 2, 3, 4}  # nobody has spotted anybody yet
    seen = everything_seen(APIClient(), battle.pk)
    units = json.loads(seen["turn"])["view"]["units"]
    assert units and all((u["altitude"], u["speed"]) == ("?", "?") for u in units)
    for where in ("turn", "log"):
        marked = [e for e in json.loads(seen[where])["log"] if e.get("event") == "marked"]
        assert marked and all(e["speed"] == bo.HIDDEN for e in marked), where
    for where in ("page", "board"):
        labels = re.findall(r'<text class="plane-label" data-plane="\d"[^>]*>([^<]+)<', seen[where])
        assert labels and all(label.endswith("A? S?") for label in labels), (where, labels)
        assert "altitude 3" not in seen[where] and "speed 5" not in seen[where], where


def test_the_report_of_the_finished_battle_shows_every_altitude(
    people, django_capture_on_commit_callbacks
):
    battle = _bounce_in_play(people)
    with django_capture_on_commit_callbacks(execute=True):
        for side in ("axis", "allied"):  # both hand over: the computer flies it to its end
            hand_over(battle_id=battle.pk, user=people[side], side=side)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.FINISHED
    page = APIClient().get(f"/battles/{battle.pk}/").content.decode()
    frames = json.loads(re.search(r'id="frames"[^>]*>(.*?)</script>', page, re.S)[1])
    pieces = [p for f in frames for p in f.get("aircraft", [])]
    assert len(pieces) > 100 and not any("?" in json.dumps(p) for p in pieces), pieces[:3]


def test_one_person_flying_both_sides_sees_every_altitude_while_it_is_in_play(people):
    """The spectator's view is not theirs: flying every side, they know everything."""
    setup = AIRPIRATES.scenario_json(AIRPIRATES.scenario("bounce", 7))
    seats = {side: {"user": people["axis"].pk} for side in ("axis", "allied")}
    battle = services.battle_create_from_setup(
        setup=setup, seed=7, source_key="test:ap:both", settings={"seats": seats},
        system="airpirates",
    )  # fmt: skip
    client = logged_in(people["axis"])
    for _ in range(14):  # placed and marked, moving in the first impulses
        turn = turn_of(client, battle.pk)
        body = {"version": turn["version"], "action": turn["legal_actions"][0]}
        client.post(f"/api/battles/{battle.pk}/turn/", body, format="json")
    battle.refresh_from_db()
    state = AIRPIRATES.replay(battle.setup, battle.seed, battle.actions)
    assert battle.status == BattleStatus.IN_PLAY and bo.hidden(state, None) == {1, 2, 3, 4}
    seen = everything_seen(client, battle.pk)
    units = json.loads(seen["turn"])["view"]["units"]
    assert units and all("?" not in (u["altitude"], u["speed"]) for u in units)
    for where in ("page", "board"):
        labels = re.findall(r'<text class="plane-label" data-plane="\d"[^>]*>([^<]+)<', seen[where])
        assert labels and not any("?" in label for label in labels), (where, labels)
    # a spectator, reading the same battle at the same moment, still sees none of it
    units = json.loads(everything_seen(APIClient(), battle.pk)["turn"])["view"]["units"]
    assert all((u["altitude"], u["speed"]) == ("?", "?") for u in units)

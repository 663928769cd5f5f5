"""The bounce (002 9f) as two seated people read it (issue 26: a view per side): until a
side spots an enemy, that enemy's altitude and speed reach the side in no answer (the turn
API, the play page and its board, the log API): its marker reads "A? S?", its title and its
control card say it is not spotted, its marking entries have the speed blanked; a side's
own units show theirs."""

from __future__ import annotations

import json
import re

import pytest

from rules.airpirates import bounce as bo
from rules.airpirates.system import AIRPIRATES
from tests.battles.seating import everything_seen, logged_in, seated_battle, seated_people, turn_of

pytestmark = pytest.mark.django_db

UNITS = {"axis": {1, 2}, "allied": {3, 4}}
ENEMY = {"axis": "allied", "allied": "axis"}


@pytest.fixture
def people(django_user_model):
    return seated_people(django_user_model)


def _fly(people, pk: int, decisions: int) -> None:
    """``decisions`` decisions through the turn API, each seat choosing its first legal one."""
    clients = {side: logged_in(people[side]) for side in ("axis", "allied")}
    for _ in range(decisions):
        for client in clients.values():
            turn = turn_of(client, pk)
            if turn["your_turn"] and turn["legal_actions"]:
                body = {"version": turn["version"], "action": turn["legal_actions"][0]}
                assert (
                    client.post(f"/api/battles/{pk}/turn/", body, format="json").status_code == 200
                )
                break


def test_an_unspotted_enemys_altitude_and_speed_reach_no_seat(people):
    setup = AIRPIRATES.scenario_json(AIRPIRATES.scenario("bounce", 7))
    battle = seated_battle(people, setup=setup, system="airpirates", seed=7, key="test:ap:bounce:1")
    _fly(people, battle.pk, 14)  # placed and marked, moving in the first impulses
    battle.refresh_from_db()
    state = AIRPIRATES.replay(battle.setup, battle.seed, battle.actions)
    assert not state.over and bo.hidden(state, 0) == UNITS["allied"]  # nobody spotted yet
    assert bo.hidden(state, 1) == UNITS["axis"]
    for side in ("axis", "allied"):
        seen = everything_seen(logged_in(people[side]), battle.pk)
        enemy, own = UNITS[ENEMY[side]], UNITS[side]
        units = {u["id"]: u for u in json.loads(seen["turn"])["view"]["units"]}
        for uid in enemy:
            assert (units[uid]["altitude"], units[uid]["speed"]) == ("?", "?"), (side, uid)
        for uid in own:
            assert (units[uid]["altitude"], units[uid]["speed"]) == ("3", "5"), (side, uid)
        for where in ("turn", "log"):  # the enemy's marking entries: speed blanked
            entries = json.loads(seen[where])["log"]
            marked = [e for e in entries if e.get("event") == "marked" and e["unit"] in enemy]
            assert marked and all(e["speed"] == bo.HIDDEN for e in marked), (side, where)
        for where in ("page", "board"):
            html = seen[where]
            on_map = [u for u in state.units if u.hex is not None and not u.eliminated]
            for u in on_map:
                label = re.search(
                    rf'<text class="plane-label" data-plane="{u.id}"[^>]*>([^<]+)<', html
                )
                title = re.search(
                    rf'data-plane="{u.id}"[^>]*>\s*<polygon[^>]*/>\s*<title>([^<]+)<', html
                )
                assert label and title, (side, where, u.id)
                if u.id in enemy:
                    assert label[1] == f"#{u.id} A? S?", (side, where)
                    assert "not spotted yet: altitude and speed unknown" in title[1]
                    assert "altitude 3" not in title[1] and "speed 5" not in title[1]
                else:
                    assert label[1] == f"#{u.id} A3 S5" and "altitude 3, speed 5" in title[1]
            panels = html[html.index('id="unit-panels"') : html.index("<h2>Latest events</h2>")]
            for u in on_map:
                block = re.search(rf'data-unit="{u.id}">(.*?)</div>', panels, re.S)
                assert block is not None
                assert ("not spotted yet" in block[1]) == (u.id in enemy), (side, where, u.id)
            for e in re.findall(r"unit (\d) marks straight \(speed (\w+)\)", html):
                if int(e[0]) in enemy:
                    assert e[1] == "hidden", (side, where, e)

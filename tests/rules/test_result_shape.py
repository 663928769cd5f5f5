"""One result shape with each game's detail (issue 25): check_result reads the
detail keys and names a wrong one by its path; an Angels 20 result gets the
detail from its detail step; results stored before the keys still read."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules.angels20 import replay
from rules.angels20.actions import action_from_json
from rules.angels20.detail import result_detail
from rules.angels20.scenario import Scenario
from rules.tactical import check_result

GOLDENS = Path(__file__).resolve().parents[1] / "golden" / "battles"
BATTLE = "dogfight-advanced-tactical-random"


@pytest.fixture
def battle() -> dict:
    """A flown dogfight: the Allied #2 was destroyed with 3 points of damage by #1,
    and the engine rolled its 000 'PILOT SURVIVAL' d6 (5, +1 over friendly ground)."""
    data = json.loads((GOLDENS / f"{BATTLE}.json").read_text())
    return {"result": data["head"]["result"], "log": data["log"], "head": data["head"]}


def _air_pirates_entry(result: dict) -> dict:
    """The result with its first aircraft as an Air Pirates engine would give it:
    damage by area, a crew hit, a fire and the 13c1 d10 with its modifier."""
    detailed = copy.deepcopy(result)
    detailed["aircraft"][0].update(
        damage_by_part={"engine": 1, "crew": 1, "wing": 2},
        crew_hits=1,
        cockpit_hits=0,
        fires=1,
        bailout={"roll": 9, "die": "d10", "modifier": -5, "outcome": "survived", "early": False},
        victory_points=10,
    )
    return detailed


def test_check_result_accepts_each_games_detail(battle):
    assert check_result(_air_pirates_entry(battle["result"])) == []
    detailed = result_detail(battle["result"], battle["log"])
    assert check_result(detailed) == []
    detailed["kills"][0].update(
        credit_rule="001 'How Kills are Scored'",
        contenders=[1, 3],
        credit_rolls=[["kill credit roll-off: 1", 6, 5], ["kill credit roll-off: 3", 6, 2]],
    )
    assert check_result(detailed) == []


@pytest.mark.parametrize(
    ("where", "key", "value", "problem"),
    [
        ("aircraft", "crew_hits", "1", "aircraft[0].crew_hits is a whole number of 0 or more"),
        ("aircraft", "fires", -1, "aircraft[0].fires is a whole number of 0 or more"),
        ("aircraft", "damage_by_part", {"wing": 1.5}, "aircraft[0].damage_by_part.wing is a count"),
        ("aircraft", "victory_points", "ten", "aircraft[0].victory_points is null or a number"),
        ("aircraft", "bailout", 5, "aircraft[0].bailout is null or an object with keys"),
        ("kills", "credit_rule", "the last to fire", "kills[0].credit_rule is a rulebook citation"),
        ("kills", "contenders", ["#1"], "kills[0].contenders is a list of aircraft ids"),
    ],
)
def test_check_result_names_a_wrong_type_by_its_path(battle, where, key, value, problem):
    result = copy.deepcopy(battle["result"])
    result[where][0][key] = value
    problems = check_result(result)
    assert len(problems) == 1 and problems[0].startswith(problem), problems


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("die", "d8", "aircraft[0].bailout.die is one of ['2d6', 'd10', 'd6']"),
        ("roll", 7, "aircraft[0].bailout.roll is null or a face of the d6 die"),
        ("outcome", "bailed", "aircraft[0].bailout.outcome is one of"),
        ("modifier", "+1", "aircraft[0].bailout.modifier is a whole number"),
    ],
)
def test_a_wrong_bailout_is_named_down_to_its_field(battle, field, value, problem):
    result = copy.deepcopy(battle["result"])
    result["aircraft"][0]["bailout"] = {
        "roll": 3,
        "die": "d6",
        "modifier": 0,
        "outcome": "survived",
        "early": False,
        field: value,
    }
    problems = check_result(result)
    assert len(problems) == 1 and problems[0].startswith(problem), problems


def test_an_unknown_key_is_still_refused(battle):
    result = copy.deepcopy(battle["result"])
    result["aircraft"][0]["parachute"] = True
    assert check_result(result) == ["aircraft keys ['parachute'] differ"]


def test_an_angels20_result_carries_the_detail(battle):
    detailed = result_detail(battle["result"], battle["log"])
    shot_down = next(c for c in detailed["aircraft"] if c["fate"] == "destroyed")
    assert shot_down["id"] == 2 and shot_down["damage"] == 3
    assert shot_down["damage_by_part"] == {"airframe": 3}
    assert (shot_down["crew_hits"], shot_down["cockpit_hits"], shot_down["fires"]) == (0, 0, 0)
    assert shot_down["bailout"] == {
        "roll": 5,
        "die": "d6",
        "modifier": 1,
        "outcome": "survived",
        "early": False,
    }
    vp = [e for e in battle["log"] if e["e"] == "vp" and e["reason"].startswith("#2 ")]
    assert shot_down["victory_points"] == sum(e["amount"] for e in vp) > 0
    intact = [c for c in detailed["aircraft"] if c["fate"] != "destroyed"]
    assert all(c["bailout"] is None for c in intact)
    assert detailed["kills"] == [
        {
            **battle["result"]["kills"][0],
            "credit_rule": "000 'RESOLVING ATTACKS'",
            "contenders": [1],
            "credit_rolls": [],
        }
    ]
    # the victory points of each side's losses are what the other side scored
    lost = {"axis": 0.0, "allied": 0.0}
    for craft in detailed["aircraft"]:
        lost[craft["side"]] += craft["victory_points"]
    scored = battle["result"]["victory_points"]
    assert (lost["axis"], lost["allied"]) == (scored["allied"], scored["axis"])


def test_old_results_still_read(battle):
    """A result stored before the detail keys (every golden, every battle row so far)
    passes the check, and the detail step fills it without the log (points unknown)."""
    old = battle["result"]
    assert not set(old["aircraft"][0]) & {"damage_by_part", "bailout", "victory_points"}
    assert check_result(old) == []
    detailed = result_detail(old)
    assert check_result(detailed) == []
    assert all(c["victory_points"] is None for c in detailed["aircraft"])
    assert old == battle["result"] and "credit_rule" not in old["kills"][0]  # not changed


def test_the_engines_own_result_stays_as_the_goldens_store_it(battle):
    """The engine's result() has no detail keys (the golden replays stay byte-identical)."""
    head = battle["head"]
    state = replay(
        Scenario.from_json(head["setup"]),
        head["seed"],
        [action_from_json(a) for a in head["actions"]],
    )
    assert state.result() == battle["result"]

"""Golden replays: a fixed set of seeded battles (Angels 20 and Air Pirates) and
card-game games.

Each golden is recorded once by ``record.py`` and committed with its full
log. ``test_goldens.py`` checks two things for every one:

- **replay**: the recorded setup, seed and actions rebuild the same log and
  result, byte for byte (the rules did not change);
- **fly again**: the computer pilots (or the seeded random player of a card
  game) choose the same actions again from the same seed (the pilots and the
  seed derivation did not change).

This module is the one place that knows how a golden is built and flown, so
the recorder and the test cannot drift apart.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rules import cardgame
from rules.airpirates.system import AIRPIRATES
from rules.airpirates.units import NEEDS
from rules.airpirates.units import OPTIONS as AP_OPTIONS
from rules.airpirates.units import basic_game as ap_basic_game
from rules.angels20 import (
    CloudShape,
    Dice,
    Rules,
    Scenario,
    bomber_escort,
    dogfight,
    flight,
    intercept_the_interceptors,
    limited_fuel,
    new_battle,
    replay,
    schnellbomber,
    standard_scenario,
)
from rules.angels20.actions import action_from_json
from rules.angels20.pilots import make_policy, pilot_seed
from rules.angels20.stats import SIDES as ENGINE_SIDES

HERE = Path(__file__).resolve().parent
BATTLES = HERE / "battles"
CARDGAMES = HERE / "cardgame"
AIRPIRATES_BATTLES = HERE / "airpirates"

# 000 "OPTIONAL RULES" and "SPECIAL CONDITIONS", all on
OPTIONAL: dict[str, Any] = {
    "midair_collision": True,
    "random_clouds": True,
    "cloud_shapes": (CloudShape(((7, 10), (8, 10), (8, 11), (9, 11)), 2, 4),),
    "flak_fields": ((5, 9, 3), (10, 13, 2), (8, 6, 4)),
    "barrage_balloons": ((6, 14), (9, 8), (7, 12)),
    "night": "moonlight",
    "fighter_direction": (1, 1),
    "later_sixes": True,
}

AXIS_FLIGHT = ('A6M2 "Zeke"', 'Ki-61 "Tony"')
ALLIED_FLIGHT = ("P-40C Flying Tiger", "Hurricane Mk I")
ESCORTS = ("P-40C Flying Tiger", "Hurricane Mk I")
INTERCEPTORS = ('A6M2 "Zeke"', 'Ki-61 "Tony"')


def _scenario(kind: str, rules: Rules, seed: int) -> Scenario:
    if kind == "dogfight":
        return dogfight(rules=rules)
    if kind == "intercept":
        return intercept_the_interceptors(rules=rules)
    if kind == "limited_fuel":
        return limited_fuel(rules=rules)
    if kind == "schnellbomber":
        return schnellbomber(rules=rules)
    if kind == "standard":
        return standard_scenario(
            flight("axis", *AXIS_FLIGHT), flight("allied", *ALLIED_FLIGHT), Dice(seed), rules=rules
        )
    if kind == "bomber_escort":
        return bomber_escort(flight("allied", *ESCORTS), flight("axis", *INTERCEPTORS), rules=rules)
    raise ValueError(kind)


def battle_cases() -> list[dict[str, Any]]:
    """Every scenario of the book, optional rules off and on, both policies."""
    cases = []
    kinds = ("dogfight", "intercept", "limited_fuel", "schnellbomber", "standard", "bomber_escort")
    pairings = (("random", "random"), ("tactical", "random"), ("tactical", "tactical"))
    seed = 11
    for kind in kinds:
        for options in ("basic", "advanced", "optional"):
            for axis, allied in pairings:
                if options == "optional" and (axis, allied) == ("random", "random"):
                    continue
                seed += 1
                cases.append(
                    {
                        "name": f"{kind}-{options}-{axis}-{allied}",
                        "kind": kind,
                        "options": options,
                        "seed": seed,
                        "policies": {"axis": axis, "allied": allied},
                    }
                )
    return cases


def _rules(options: str) -> Rules:
    if options == "basic":
        return Rules(max_turns=12)
    if options == "advanced":
        return Rules.advanced(max_turns=12)
    return Rules.advanced(max_turns=12, **OPTIONAL)


def fly_battle(case: dict[str, Any]) -> dict[str, Any]:
    """Fly one golden battle with its computer pilots; return its full record."""
    scenario = _scenario(case["kind"], _rules(case["options"]), case["seed"])
    setup = scenario.to_json()
    state = new_battle(Scenario.from_json(setup), Dice(case["seed"]))
    pilots = {
        i: make_policy(case["policies"][side], pilot_seed(case["seed"], side))
        for i, side in enumerate(ENGINE_SIDES)
    }
    actions = []
    while not state.is_over():
        action = pilots[state.current_side()].choose(state)
        state.apply(action)
        actions.append(action.to_json())
    return {
        **case,
        "setup": setup,
        "actions": actions,
        "log": state.log,
        "result": state.result(),
    }


def replay_battle(golden: dict[str, Any]) -> dict[str, Any]:
    """Rebuild a golden battle from its setup, seed and actions alone."""
    state = replay(
        Scenario.from_json(golden["setup"]),
        golden["seed"],
        [action_from_json(a) for a in golden["actions"]],
    )
    return {"log": state.log, "result": state.result()}


# -- Air Pirates (002) ----------------------------------------------------------------
# every option of 002 but the bombers' (a fighter battle), each with what it needs
AP_ALL_FIGHTER_OPTIONS = sorted(o for o in AP_OPTIONS if o != "bombers")
assert all(set(NEEDS.get(o, ())) <= set(AP_ALL_FIGHTER_OPTIONS) for o in AP_ALL_FIGHTER_OPTIONS)


def airpirates_cases() -> list[dict[str, Any]]:
    """002's scenarios, the basic game with every fighter option, and bombers ([20]) against
    fighters; random, competent and both."""
    pairings = (("random", "random"), ("competent", "random"), ("competent", "competent"))
    cases = []
    seed = 200
    for kind in ("basic", "fighters", "bounce", "all_options", "bombers"):
        for axis, allied in pairings:
            seed += 1
            name = f"airpirates-{kind}-{axis}-{allied}"
            cases.append({"name": name, "kind": kind, "seed": seed,
                          "policies": {"axis": axis, "allied": allied}})  # fmt: skip
    return cases


def _airpirates_scenario(kind: str, seed: int) -> dict[str, Any]:
    if kind in ("basic", "fighters", "bounce"):
        return AIRPIRATES.scenario(kind, seed)
    if kind == "all_options":
        return {**AIRPIRATES.scenario("basic", seed), "options": AP_ALL_FIGHTER_OPTIONS}
    if kind == "bombers":
        return {**ap_basic_game("He 111 bomber token", "Hurricane Mk I"), "options": ["bombers"]}
    raise ValueError(kind)


def fly_airpirates(case: dict[str, Any]) -> dict[str, Any]:
    """Fly one golden Air Pirates battle with its computer pilots, as the battle layer
    seats them (``pilot_seed``); return its full record."""
    setup = _airpirates_scenario(case["kind"], case["seed"])
    battle = AIRPIRATES.new_battle(setup, case["seed"])
    pilots = [
        AIRPIRATES.computer_pilot(case["policies"][side], AIRPIRATES.pilot_seed(case["seed"], side))
        for side in AIRPIRATES.sides
    ]
    actions = []
    while not battle.is_over():
        action = pilots[battle.current_side()].choose(battle)
        battle.apply(action)
        actions.append(action.to_json())
    return {**case, "setup": setup, "actions": actions, "log": battle.log,
            "result": battle.result()}  # fmt: skip


def replay_airpirates(golden: dict[str, Any]) -> dict[str, Any]:
    """Rebuild a golden Air Pirates battle from its setup, seed and actions alone."""
    battle = AIRPIRATES.replay(golden["setup"], golden["seed"], golden["actions"])
    return {"log": battle.log, "result": battle.result()}


# -- the card game -------------------------------------------------------------------
CARD_WEIGHTS = {"assign": 4.0, "unassign": 0.5, "scramble": 2.0}


def _pick(rng: random.Random, actions: list[Any]) -> Any:
    kinds = sorted({a.kind for a in actions})
    weights = [CARD_WEIGHTS.get(k, 1.0) for k in kinds]
    if "advance" not in kinds and "unassign" in kinds:
        weights[kinds.index("unassign")] = 2.0
    kind = rng.choices(kinds, weights=weights)[0]
    return rng.choice([a for a in actions if a.kind == kind])


def cardgame_cases() -> list[dict[str, Any]]:
    return [{"name": f"cardgame-{seed}", "seed": seed, "turns": 24} for seed in (1, 2, 3, 5, 8, 13)]


def play_cardgame(case: dict[str, Any]) -> dict[str, Any]:
    """Play one golden card game with a seeded random player; return its record."""
    setup = cardgame.default_setup()
    state = cardgame.new_game(setup, Dice(case["seed"]))
    rng = random.Random(case["seed"])
    actions = []
    while not state.is_over() and state.turn < case["turns"] and state.current_side() is not None:
        action = _pick(rng, state.legal_actions())
        state.apply(action)
        actions.append(cardgame.action_to_json(action))
    return {
        **case,
        "setup": setup.to_json(),
        "actions": actions,
        "log": state.log,
        "state": _state_of(state),
    }


def _state_of(state: Any) -> dict[str, Any]:
    """The game's position: its JSON less the log (kept apart), setup and undo history."""
    return {k: v for k, v in state.to_json().items() if k not in ("log", "setup", "history")}


def replay_cardgame(golden: dict[str, Any]) -> dict[str, Any]:
    setup = cardgame.GameSetup.from_json(golden["setup"])
    state = cardgame.replay(setup, golden["seed"], golden["actions"])
    return {"log": state.log, "state": _state_of(state)}


# -- files ---------------------------------------------------------------------------
def dumps(record: dict[str, Any]) -> str:
    """Canonical text of a record: sorted keys, one log entry a line."""
    head = {k: v for k, v in record.items() if k != "log"}
    lines = ["{", f'"head": {json.dumps(head, sort_keys=True)},', '"log": [']
    log = record["log"]
    lines += [
        json.dumps(e, sort_keys=True) + ("," if i < len(log) - 1 else "") for i, e in enumerate(log)
    ]
    lines += ["]", "}"]
    return "\n".join(lines) + "\n"


def loads(text: str) -> dict[str, Any]:
    data = json.loads(text)
    return {**data["head"], "log": data["log"]}


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)

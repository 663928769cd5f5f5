"""Scenario builders and a legality-checking wrapper for the pilot tests."""

from __future__ import annotations

from battles.engine import (
    Dice,
    MovePlan,
    Rules,
    bomber_escort,
    dogfight,
    flight,
    intercept_the_interceptors,
    limited_fuel,
    new_battle,
    schnellbomber,
    standard_scenario,
)

SCENARIOS = (
    "dogfight",
    "dogfight_advanced",
    "intercept",
    "limited_fuel",
    "schnellbomber",
    "standard",
    "standard_advanced",
    "bomber_escort",
)


def make_battle(name: str, seed: int):
    if name == "dogfight":
        return new_battle(dogfight(), Dice(seed))
    if name == "dogfight_advanced":
        return new_battle(dogfight(Rules.advanced()), Dice(seed))
    if name == "intercept":
        return new_battle(intercept_the_interceptors(), Dice(seed))
    if name == "limited_fuel":
        return new_battle(limited_fuel(), Dice(seed))
    if name == "schnellbomber":
        return new_battle(schnellbomber(Rules.advanced()), Dice(seed))
    if name in ("standard", "standard_advanced"):
        dice = Dice(seed)
        rules = Rules.advanced(max_turns=12) if name == "standard_advanced" else Rules(max_turns=12)
        sc = standard_scenario(
            flight("axis", 'A6M2 "Zeke"', 'Ki-61 "Tony"', "A6M2 Zero Ace"),
            flight("allied", "P-40C Flying Tiger", "Hurricane Mk I", "Yak-1 Rookie"),
            dice,
            rules=rules,
        )
        return new_battle(sc, dice)
    if name == "bomber_escort":
        esc = flight("allied", "P-40C Flying Tiger", "Hurricane Mk I")
        icp = flight("axis", "Bf 109E Wingman", "Bf 109E Ace")
        if seed % 2:
            esc, icp = flight("axis", "Bf 109E Wingman", "Bf 109E Ace"), esc
            icp = flight("allied", "P-40C Flying Tiger", "Hurricane Mk I")
        return new_battle(bomber_escort(esc, icp, rules=Rules(max_turns=14)), Dice(seed))
    raise ValueError(name)


class Checked:
    """Wraps a policy; asserts every action it returns is legal in the state it saw."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.count = 0

    def choose(self, state):
        before = state.dumps()
        a = self.policy.choose(state)
        assert state.dumps() == before, "a policy must not change the state it is shown"
        if isinstance(a, MovePlan):
            assert a in set(state.legal_move_plans()), f"illegal plan {a}"
        else:
            assert a in state.legal_actions(), f"illegal action {a}"
        self.count += 1
        return a

"""Scenario builders and a legality-checking wrapper for the pilot tests."""

from __future__ import annotations

from rules.angels20 import (
    CATALOGUE,
    AircraftStats,
    CloudShape,
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
from rules.angels20.abilities import ABILITIES
from rules.angels20.plans import legal_move_plans

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
            flight("axis", 'A6M2 "Zeke"', 'Ki-61 "Tony"', "C.200 Saetta Rookie"),
            flight("allied", "P-40C Flying Tiger", 'I-16 "Ishak"', "Yak-1 Rookie"),
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


# ----------------------------------------------------------------- every optional rule on

FIGHTER_ABILITIES = tuple(sorted(n for n, ab in ABILITIES.items() if not ab.bomber))
ALL_OPTIONS = ("dogfight_all", "standard_all", "limited_fuel_all", "bomber_escort_all")


def with_abilities(stats: AircraftStats, names, **changes) -> AircraftStats:
    d = stats.to_json()
    d["abilities"] = list(names)
    d.update(changes)
    return AircraftStats.from_json(d)


def all_options_rules(seed: int, max_turns: int = 10) -> Rules:
    """Every optional rule and special condition of 000 on (darkness or, every third seed, moonlight)."""
    clouds = (
        {"random_clouds": True}
        if seed % 2
        else {"clouds": ("light", "solid", "heavy", "light", "heavy", "clear")}
    )
    return Rules.advanced(
        max_turns=max_turns,
        midair_collision=True,
        cloud_shapes=(CloudShape(((7, 10), (8, 10), (8, 11)), 2, 4),),
        flak_fields=((5, 9, 3), (10, 13, 2), (8, 6, 4)),
        barrage_balloons=((6, 14), (9, 8), (7, 12)),
        night="moonlight" if seed % 3 == 2 else "darkness",
        fighter_direction=(1, 1),
        searchlights=(True, True),
        later_sixes=True,
        **clouds,
    )


def make_all_options_battle(name: str, seed: int):
    """A battle of a book scenario with every optional rule on and every ability aboard."""
    rules = all_options_rules(seed)
    half = FIGHTER_ABILITIES[seed % 2 :: 2]
    other = FIGHTER_ABILITIES[1 - seed % 2 :: 2]

    def card(n, names):
        return with_abilities(CATALOGUE[n], names)

    if name == "dogfight_all":
        cat = {
            "Bf 109E Ace": card("Bf 109E Ace", half),
            "Bf 109E Wingman": card("Bf 109E Wingman", FIGHTER_ABILITIES),
            "Spitfire Mk I Ace": card("Spitfire Mk I Ace", other),
        }
        return new_battle(dogfight(rules, cat), Dice(seed))
    if name == "standard_all":
        dice = Dice(seed)
        sc = standard_scenario(
            flight("axis", card('A6M2 "Zeke"', FIGHTER_ABILITIES), card('Ki-61 "Tony"', half)),
            flight("allied", card("P-40C Flying Tiger", other), "Hurricane Mk I"),
            dice,
            rules=rules,
        )
        return new_battle(sc, dice)
    if name == "limited_fuel_all":
        cat = {
            "Bf 109E Ace": card("Bf 109E Ace", FIGHTER_ABILITIES),
            "Bf 110C": card("Bf 110C", half),
            "Hurricane Mk I": card("Hurricane Mk I", other),
            "He 111 bomber token": card("He 111 bomber token", ("Rugged",)),
        }
        return new_battle(limited_fuel(rules, cat), Dice(seed))
    if name == "bomber_escort_all":
        esc = flight("allied", card("P-40C Flying Tiger", FIGHTER_ABILITIES), "Hurricane Mk I")
        icp = flight("axis", card("Bf 109E Wingman", half), card("Bf 109E Ace", other))
        return new_battle(bomber_escort(esc, icp, rules=rules), Dice(seed))
    raise ValueError(name)


class Checked:
    """Wraps a policy; asserts every action it returns is legal in the state it saw."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.count = 0
        self.seen: list = []

    def choose(self, state):
        before = state.dumps()
        a = self.policy.choose(state)
        assert state.dumps() == before, "a policy must not change the state it is shown"
        if isinstance(a, MovePlan):
            assert a in set(legal_move_plans(state)), f"illegal plan {a}"
        else:
            assert a in state.legal_actions(), f"illegal action {a}"
        self.count += 1
        self.seen.append(a)
        return a

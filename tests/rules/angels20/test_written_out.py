"""Rules written out on the engine's hot paths for speed (issue 17) agree with
the rule functions they stand for."""

from __future__ import annotations

import random

from rules.angels20 import Dice, Rules, flight, new_battle, standard_scenario
from rules.angels20.attacks import attacks, has_attack

AXIS = ('A6M2 "Zeke"', 'Ki-61 "Tony"', "C.200 Saetta Rookie")
ALLIED = ("P-40C Flying Tiger", 'I-16 "Ishak"', "Yak-1 Rookie")


def _by_tailing(s, side: int) -> int:
    mine = s.in_play(side)
    return sum(1 for b in s.in_play(1 - side) if any(s.tailing(a, b) for a in mine))


def test_the_tailing_count_counts_what_tailing_says():
    seen = set()
    for seed, rules in enumerate(
        (Rules.advanced(), Rules.advanced(random_clouds=True), Rules.advanced(night="darkness")) * 4
    ):
        rng = random.Random(seed)
        dice = Dice(seed)
        sc = standard_scenario(flight("axis", *AXIS), flight("allied", *ALLIED), dice, rules=rules)
        s = new_battle(sc, dice)
        while not s.is_over():
            for side in (0, 1):
                n = s.tailed_count(side)
                assert n == _by_tailing(s, side)
                seen.add(n)
            s.apply_unchecked(rng.choice(s.legal_actions()))
    assert {0, 1} <= seen  # both answers came up


def test_has_attack_answers_whether_the_attack_list_is_empty():
    """has_attack tests range before the other attack rules; attacks() lists by the rules alone."""
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        dice = Dice(seed)
        sc = standard_scenario(
            flight("axis", *AXIS), flight("allied", *ALLIED), dice, rules=Rules.advanced()
        )
        s = new_battle(sc, dice)
        while not s.is_over():
            for side in (0, 1):
                got = has_attack(s, side)
                assert got == bool(attacks(s, side))
                seen.add(got)
            s.apply_unchecked(rng.choice(s.legal_actions()))
    assert seen == {False, True}  # both answers came up

"""The figures a person sees before choosing an attack are the ones the attack then uses
(000 "RESOLVING ATTACKS", "TARGET ASPECT", "ATTACK BONUSES AND PENALTIES"), and the
expected hits count an unmodified 6 as two hits."""

from __future__ import annotations

import random

from test_properties import eager_choice, make

from rules.angels20 import Attack, Dice, dogfight, new_battle
from rules.angels20.preview import attack_preview


def test_an_attacks_preview_matches_the_attack_as_rolled():
    checked = 0
    for kind, seed in [(k, seed) for k in range(4) for seed in range(3, 9)]:
        s = make(kind, seed)
        rng = random.Random(seed)
        while not s.is_over():
            legal = s.legal_actions()
            attacks = [a for a in legal if isinstance(a, Attack)]
            action = rng.choice(attacks) if attacks else eager_choice(s, rng, legal)
            if isinstance(action, Attack):
                seen = attack_preview(s, action.attacker, action.target)
                s.apply(action)
                rolled = [e for e in s.log if e["e"] == "attack"][-1]
                for field in ("range", "aspect", "target_number", "dice", "modifier"):
                    assert seen[field] == rolled[field], field
                checked += 1
            else:
                s.apply(action)
    assert checked >= 20


def test_expected_hits_count_a_six_as_two_hits():
    s = new_battle(dogfight(), Dice(1))
    rng = random.Random(1)  # both sides close in (eager_choice) until someone may fire
    while not s.is_over():
        attacks = [a for a in s.legal_actions() if isinstance(a, Attack)]
        if attacks:
            seen = attack_preview(s, attacks[0].attacker, attacks[0].target)
            tn, mod = seen["target_number"], seen["modifier"]
            hits_per_die = (sum(1 for face in range(1, 6) if face + mod >= tn) + 2) / 6
            assert seen["expected_hits"] == round(seen["dice"] * hits_per_die, 2)
            return
        s.apply(eager_choice(s, rng, s.legal_actions()))
    raise AssertionError("no attack came up")

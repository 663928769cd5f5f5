"""Angels 20 gives an attack's odds to every game's pages (rules.tactical.decision_odds):
the chance of at least one hit and the modifiers the attack is then rolled with (000
"RESOLVING ATTACKS", "ATTACK BONUSES AND PENALTIES"); other decisions have none."""

from __future__ import annotations

import random

from test_properties import eager_choice, make

from rules.angels20 import Attack
from rules.tactical import decision_odds


def test_an_attacks_odds_are_those_it_is_rolled_with():
    chances, hits, others = [], 0, 0
    for kind, seed in [(k, seed) for k in range(4) for seed in range(3, 15)]:
        s = make(kind, seed)
        rng = random.Random(seed)
        while not s.is_over():
            legal = s.legal_actions()
            attacks = [a for a in legal if isinstance(a, Attack)]
            action = rng.choice(attacks) if attacks else eager_choice(s, rng, legal)
            side = s.planes[action.attacker].side if isinstance(action, Attack) else s.to_act
            odds = decision_odds(s, side, action)
            if not isinstance(action, Attack):
                assert odds is None
                others += 1
                s.apply(action)
                continue
            assert odds is not None and decision_odds(s, 1 - side, action) is None
            s.apply(action)
            rolled = [e for e in s.log if e["e"] == "attack"][-1]
            assert [[m["name"], m["value"]] for m in odds["modifiers"]] == [
                list(m) for m in rolled["modifiers"]
            ]
            words = f"({rolled['dice']} dice, needs {rolled['target_number']})"
            assert odds["text"] == f"hits {round(odds['chance'] * 100)}% {words}"
            if odds["chance"] == 0:
                assert rolled["hits"] == 0
            chances.append(odds["chance"])
            hits += rolled["hits"] > 0
    assert len(chances) >= 60 and others > 0
    # the attacks that hit are as many as their chances say (within four standard deviations)
    spread = sum(c * (1 - c) for c in chances) ** 0.5
    assert abs(hits - sum(chances)) <= 4 * spread, (hits, sum(chances), len(chances))

"""Rules written out on the engine's hot paths for speed (issue 17) agree with
the rule functions they stand for."""

from __future__ import annotations

import random

from rules.angels20 import Dice, Rules, flight, new_battle, standard_scenario
from rules.angels20.advanced import tailed_count
from rules.angels20.attacks import attacks, has_attack
from rules.angels20.legality import activations, high_speed_rule, mover_rule
from rules.angels20.phases import MOVEMENT

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
                n = tailed_count(s, side)
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


def test_the_written_out_die_draws_what_the_generator_and_rejection_sampling_give():
    """Dice.roll writes _next64 and _below out in one body: the same faces, in the same order,
    for dice of every size the rules use and for sizes where rejection sampling bites."""
    sizes = (1, 2, 3, 6, 10, 12, 20, 52, 100, 2**63 + 1, 3 * 2**62)
    for seed in (0, 1, 7, 2**47 - 1):
        written, reference = Dice(seed), Dice(seed)
        faces = []
        for k in range(400):
            sides = sizes[k % len(sizes)]
            face = written.roll(sides, "x")
            assert face == reference._below(sides) + 1
            faces.append(face)
        assert written._state == reference._state
        assert written.count == 400
        assert [r.value for r in written.rolls] == faces  # each draw recorded as it came


def _activations_by_rule(s) -> list:
    out = []
    for p in s.planes:
        if mover_rule(s, p) is None:
            out.extend(s.st.act_normal[p.id])
            if high_speed_rule(s, p) is None:
                out.extend(s.st.act_high[p.id])
    return out


def test_the_activations_are_those_the_mover_and_high_speed_rules_allow():
    seen_crippled = False
    for seed in range(60):
        rng = random.Random(seed)
        dice = Dice(seed)
        sc = standard_scenario(
            flight("axis", *AXIS), flight("allied", *ALLIED), dice, rules=Rules.advanced()
        )
        s = new_battle(sc, dice)
        while not s.is_over():
            if s.phase == MOVEMENT and s.mover < 0:
                assert activations(s) == _activations_by_rule(s)
                seen_crippled |= any(high_speed_rule(s, p) for p in s.planes if not p.out)
            s.apply_unchecked(rng.choice(s.legal_actions()))
    assert seen_crippled  # the high-speed rule refused somebody at least once


def test_every_log_entry_ends_as_the_state_s_own_log_writes_it():
    """Six hot entries are built by hand instead of BattleState._log: each still ends with
    its kind and its game turn, in that order, as _log writes them."""
    kinds = set()
    for seed, rules in enumerate(
        (Rules.advanced(), Rules.advanced(random_clouds=True), Rules.advanced(night="darkness")) * 3
    ):
        rng = random.Random(seed)
        dice = Dice(seed)
        sc = standard_scenario(flight("axis", *AXIS), flight("allied", *ALLIED), dice, rules=rules)
        s = new_battle(sc, dice)
        while not s.is_over():
            turn = s.turn
            before = len(s.log)
            s.apply_unchecked(rng.choice(s.legal_actions()))
            for entry in s.log[before:]:
                assert list(entry)[-2:] == ["e", "turn"], entry
                assert entry["turn"] in (turn, turn + 1)
                kinds.add(entry["e"])
    assert {"activate", "step", "maneuver", "move_end", "status"} <= kinds

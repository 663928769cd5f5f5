"""Issue 17: the tactical pilot's caches never change what a position is worth."""

from __future__ import annotations

from rules.angels20 import CATALOGUE, AircraftSetup, Dice, Rules, Scenario, new_battle
from rules.angels20.hexmap import axial_to_offset
from rules.angels20.pilots import DEFAULT_WEIGHTS
from rules.angels20.pilots.context import build_context
from rules.angels20.pilots.scoring import position_score


def _setup(name: str, side: str, q: int, r: int, facing: int, alt: int = 3) -> AircraftSetup:
    col, row = axial_to_offset(q, r)
    return AircraftSetup(CATALOGUE[name], side, col, row, facing, alt)


def _zeke_against_two_rookies(rules: Rules):
    """A Zeke against two enemies with the same speeds but different guns, still to move
    (a Spitfire: the P-40B flies 2-4 / 5 since issue 24, the Yak-1 2-3 / 4-5)."""
    p40, yak = CATALOGUE["Spitfire Mk I Ace"], CATALOGUE["Yak-1 Rookie"]
    assert (p40.speed_min, p40.speed_max, p40.high_speed_max) == (
        yak.speed_min,
        yak.speed_max,
        yak.high_speed_max,
    )
    assert p40.attack != yak.attack
    sc = Scenario(
        name="two rookies",
        kind="custom",
        aircraft=(
            _setup('A6M2 "Zeke"', "axis", 8, 4, 1),
            _setup("Spitfire Mk I Ace", "allied", 12, 2, 4),
            _setup("Yak-1 Rookie", "allied", 12, 6, 4),
        ),
        rules=rules,
    )
    return new_battle(sc, Dice(1))


def test_an_enemys_threat_is_its_own_guns_whatever_was_scored_before():
    """Two enemies with equal speeds share a reach table: each must still shoot with its own guns.

    Scoring every end of move in one decision (one shared context, as the
    planner does) must give each end the value it has when scored alone.
    """
    for rules in (Rules(), Rules.advanced()):
        s = _zeke_against_two_rookies(rules)
        shared = build_context(s, DEFAULT_WEIGHTS, 0)
        statuses = (0, 3) if rules.status else (0,)
        ends = [
            (q, r, f, st)
            for q in range(5, 13)
            for r in range(0, 8)
            for f in range(6)
            for st in statuses
        ]
        together = [
            position_score(s, DEFAULT_WEIGHTS, shared, q, r, f, 3, st) for q, r, f, st in ends
        ]
        alone = [
            position_score(s, DEFAULT_WEIGHTS, build_context(s, DEFAULT_WEIGHTS, 0), q, r, f, 3, st)
            for q, r, f, st in ends
        ]
        differ = sum(a != b for a, b in zip(together, alone, strict=True))
        assert differ == 0, f"{differ} of {len(ends)} ends scored differently after others"


def _table_rows(table, facing):
    """A move table as comparable rows, the member paths turned to ``facing``."""
    from rules.angels20.pilots.reach import from_facing_0

    def turn(cells):
        return tuple(from_facing_0(facing, c) for c in cells)

    ends, grps = table
    return ends, [
        (
            g.dm,
            g.dm_first,
            tuple(ends[k] for k in g.idx),
            g.lo,
            g.hi,
            [
                (st, tuple(turn(p) for p in paths), frozenset(turn(h)), alts)
                for st, paths, h, alts in g.members
            ],
        )
        for g in grps
    ]


def test_move_tables_turned_from_facing_0_are_the_tables_built_at_each_facing():
    """Every facing's table (facing-0 groups, ends turned) is the table built at that facing."""
    from rules.angels20.pilots import TacticalPolicy
    from rules.angels20.pilots.reach import STEP_SEQS, _build_groups, _index_ends, groups

    for rules in (Rules(), Rules.advanced()):
        s = _zeke_against_two_rookies(rules)
        pilots = (TacticalPolicy(1), TacticalPolicy(2))
        for _ in range(40):  # a few turns fill the step tables
            if s.is_over():
                break
            s.apply_unchecked(pilots[s.current_side()].choose(s))
    keys = list(STEP_SEQS)
    assert len(keys) >= 5
    for key in keys:
        seqs = STEP_SEQS[key]
        alt = key[2]
        for facing in range(6):
            built = _build_groups(seqs, facing, alt)
            direct = _table_rows((_index_ends(built), built), 0)
            assert _table_rows(groups(seqs, key, facing, alt), facing) == direct, (key, facing)


def _bins_one_by_one(reach_set, bomber, tq, tr, tf, dodge):
    """Bins counted position by position, as the pilot first did (the reference)."""
    from rules.angels20.hexmap import ARC_TABLE, ASPECT_TABLE
    from rules.angels20.pilots.reach import dist, okey

    bins = {}
    for aq, ar, af in reach_set:
        dq, dr = (aq - tq, ar - tr) if dodge else (tq - aq, tr - ar)
        d = dist(dq, dr)
        if 1 <= d <= 3 and (bomber or ARC_TABLE[okey(dq, dr)][tf if dodge else af]):
            tn = ASPECT_TABLE[okey(-dq, -dr)][af if dodge else tf][0]
            bins[(d, tn)] = bins.get((d, tn), 0) + 1
    return tuple((d, tn, c) for (d, tn), c in sorted(bins.items())), len(reach_set)


def test_shot_bins_tabled_at_once_count_every_position_as_one_by_one():
    from rules.angels20.pilots.reach import dodge_bins, reach, shoot_bins

    for speeds, highs, turn in (((2, 3), (5,), True), ((2,), (), False), ((2, 3, 4), (6,), True)):
        rs = reach(speeds, highs, turn)
        rkey = (speeds, highs, turn)
        for bomber in (False, True):
            for tq in range(-9, 10):
                for tr in range(-9, 10):
                    for tf in range(6):
                        assert shoot_bins(rs, rkey, bomber, tq, tr, tf) == _bins_one_by_one(
                            rs, bomber, tq, tr, tf, False
                        )
                        assert dodge_bins(rs, rkey, bomber, tq, tr, tf) == _bins_one_by_one(
                            rs, bomber, tq, tr, tf, True
                        )


def test_all_statuses_in_one_pass_score_as_each_status_alone():
    """position_scores of all statuses at once (shared terms worked out once) gives, status
    by status, exactly the numbers of each status scored alone (clouds parts too)."""
    from rules.angels20.pilots.scoring import position_scores

    s = _zeke_against_two_rookies(Rules.advanced())
    # the P-40B has moved: exact shots both ways, tailing and next turn's reach count too
    s.planes[1].moved = True
    ctx = build_context(s, DEFAULT_WEIGHTS, 0)
    statuses = (0, 1, 2, 3, 4)
    checked = 0
    for q in range(7, 13):
        for r in range(0, 6):
            for f in range(6):
                for alt in (2, 3, 4):
                    for parts in (False, True):
                        one = [
                            position_score(s, DEFAULT_WEIGHTS, ctx, q, r, f, alt, st, parts)
                            for st in statuses
                        ]
                        assert (
                            position_scores(s, DEFAULT_WEIGHTS, ctx, q, r, f, alt, statuses, parts)
                            == one
                        ), (q, r, f, alt, parts)
                        checked += 1
    assert checked == 6 * 6 * 6 * 3 * 2


def test_an_objective_said_flat_is_zero_everywhere_and_the_others_are_not():
    """values.objective_matters lets the score skip objective(): only where it is 0.0 everywhere."""
    from pilot_helpers import SCENARIOS, make_battle

    from rules.angels20.pilots.values import objective, objective_matters

    flat = matters = 0
    for name in SCENARIOS:
        s = make_battle(name, 3)
        for p in s.planes:
            values = {
                objective(s, p.id, q, r, f, alt)
                for q in range(0, 16, 3)
                for r in range(-8, 16, 3)
                for f in (0, 3)
                for alt in (1, 3, 6)
            }
            if objective_matters(s, p.id):
                matters += 1
            else:
                flat += 1
                assert values == {0.0}, (name, p.id)
    assert flat and matters

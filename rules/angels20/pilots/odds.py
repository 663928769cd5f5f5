"""Hit and maneuver odds for the computer pilots.

Probabilities only: the pilots weigh what the engine's dice may do. The
rules they follow are the engine's (000 "MANEUVER CHECKS", "RESOLVING
ATTACKS", "FLAK FIELDS", "BARRAGE BALLOONS"); the battle state rolls them
inline, so the numbers the odds need are named here with their citation.
"""

from __future__ import annotations

from collections.abc import Sequence

# 000 "MANEUVER CHECKS": 2d6 + bonus against 10 at normal speed, 13 at high speed
# (as :func:`rules.angels20.movement.maneuver_check`).
MANEUVER_TARGET_NORMAL = 10
MANEUVER_TARGET_HIGH = 13
CRIPPLED_MANEUVER = -2  # 000 "CRIPPLED"
CLIMBING_STATUS_CLIMB = 4  # 000 "CLIMBING STATUS": a Climb as the first step
FLAK_TARGET = 4  # 000 "FLAK FIELDS" (the engine's state.FLAK_TARGET)

# P(2d6 >= n)
_P2D6_GE = {
    n: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= n) / 36.0 for n in range(-20, 30)
}


def p2d6_ge(n: int) -> float:
    """P(2d6 >= n)."""
    if n <= 2:
        return 1.0
    if n > 12:
        return 0.0
    return _P2D6_GE[n]


def maneuver_target(high: bool) -> int:
    """The maneuver check's target number at high or normal speed."""
    return MANEUVER_TARGET_HIGH if high else MANEUVER_TARGET_NORMAL


def maneuver_odds(bonus: int, high: bool, crippled: bool, climbing_climb: bool = False) -> float:
    """P(a maneuver check succeeds) with the aircraft's bonus for the maneuver."""
    b = bonus + (CRIPPLED_MANEUVER if crippled else 0)
    if climbing_climb:
        b += CLIMBING_STATUS_CLIMB
    return p2d6_ge(maneuver_target(high) - b)


_HIT_CACHE: dict[tuple[int, int, bool], tuple[float, ...]] = {}


def _hit_dist(ndice: int, p1: float, p2: float) -> list[float]:
    """Distribution of hits from ``ndice`` dice scoring 1 hit with p1, 2 with p2."""
    p0 = 1.0 - p1 - p2
    dist = [1.0]
    for _ in range(ndice):
        nd = [0.0] * (len(dist) + 2)
        for h, p in enumerate(dist):
            if p:
                nd[h] += p * p0
                nd[h + 1] += p * p1
                nd[h + 2] += p * p2
        dist = nd
    return dist


def hit_tail(ndice: int, need: int, single_six: bool = False) -> tuple[float, ...]:
    """``t[k]`` = P(at least k hits) for ``ndice`` dice needing ``need`` (modified).

    An unmodified 6 scores two hits, or one with ``single_six`` (the later
    edition's rule where the modifiers raise the number to 7 or more).
    """
    need = max(1, min(7, need))
    key = (ndice, need, single_six)
    t = _HIT_CACHE.get(key)
    if t is not None:
        return t
    p6 = 1.0 / 6.0  # an unmodified 6
    p1 = max(0, 6 - need) / 6.0  # raw 1..5 with raw + mod >= tn
    if single_six:
        p1, p2 = p1 + p6, 0.0
    else:
        p2 = p6
    dist = _hit_dist(ndice, p1, p2)
    tail = [0.0] * (len(dist) + 1)
    acc = 0.0
    for h in range(len(dist) - 1, -1, -1):
        acc += dist[h]
        tail[h] = acc
    t = tuple(tail)
    _HIT_CACHE[key] = t
    return t


def attack_odds(
    ndice: int, need: int, armor: int, vital: int, remaining: int, later: bool = False
) -> tuple[float, float]:
    """(P(destroyed), P(damaged but not destroyed)) of one attack.

    ``later``: the later-edition sixes are in force (``Rules.later_sixes``,
    published with *Bandits High*): an unmodified 6 is one hit where the
    modifiers raise the number to 7 or more.
    """
    key = (ndice, need, armor, vital, remaining, later)
    got = _ODDS.get(key)
    if got is not None:
        return got
    got = _ODDS[key] = _attack_odds(ndice, need, armor, vital, remaining, later)
    return got


# a few thousand keys at most: dice 0-8, target numbers, armor, hits left
_ODDS: dict[tuple[int, int, int, int, int, bool], tuple[float, float]] = {}


def _attack_odds(
    ndice: int, need: int, armor: int, vital: int, remaining: int, later: bool
) -> tuple[float, float]:
    if ndice <= 0:
        return 0.0, 0.0
    t = hit_tail(ndice, need, later and need >= 7)
    n = len(t) - 1
    p_vital = t[vital] if vital <= n else 0.0
    p_armor = t[armor] if armor <= n else 0.0
    p_dmg = p_armor - p_vital
    if remaining <= 1:
        return p_vital + p_dmg, 0.0
    return p_vital, p_dmg


def hazard_costs(tv_i: Sequence[float]) -> tuple[float, float]:
    """Expected loss (in the aircraft's own kill / damage values) per hex entered.

    000 "FLAK FIELDS": a flak roll of 1 in each field hex at the field's
    altitude, then d6 attack dice at target number 4 against armor and vital
    armor. 000 "BARRAGE BALLOONS": a roll of 1-2 on entering the hex at
    altitude 1, then d6: 3-4 one damage, 5-6 destroyed.
    """
    kv, dv, armor, vital, rem, _ = tv_i
    flak = 0.0
    for n in range(1, 7):
        pk, pd = attack_odds(n, FLAK_TARGET, int(armor), int(vital), int(rem))
        flak += pk * kv + pd * dv
    flak /= 36.0
    balloon = (kv + (kv if rem <= 1 else dv)) / 9.0
    return flak, balloon


# the name the tests and older callers use
_odds = attack_odds

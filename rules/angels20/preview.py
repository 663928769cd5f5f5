"""What a player sees before choosing: an attack's figures and a maneuver check's chance.

The same numbers the rules use when the action is taken (000 "RESOLVING
ATTACKS", "TARGET ASPECT", "ATTACK BONUSES AND PENALTIES", "MANEUVER
CHECKS"), computed without rolling a die or changing the state, so a person
can weigh a choice the way a player at the table does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import MANEUVER_BONUS, STATUS_CLIMBING, Attack
from .attacks import attack_figures
from .hexmap import CLOCK_NAMES

if TYPE_CHECKING:
    from .state import BattleState


def attack_preview(s: BattleState, a: int, t: int) -> dict[str, Any]:
    """Range, aspect, target number, dice, modifier and expected hits of ``a`` attacking ``t``.

    000 "RESOLVING ATTACKS": dice by range, a hit on a modified roll at or
    above the target number of the aspect; an unmodified 6 is two hits (one
    where the later-edition sixes apply and the modifiers raise the number to 7+).
    """
    st = s.st
    pt = s.planes[t]
    d, dice_n, tn, sector, mods = attack_figures(s, a, t)
    mod = sum(v for _, v in mods)
    six = 1 if st.rules.later_sixes and tn - mod >= 7 else 2
    # one die: faces 1-5 hit when face + modifier reaches the target number; a 6 is `six` hits
    per_die = (sum(1 for face in range(1, 6) if face + mod >= tn) + six) / 6
    return {
        "attacker": a,
        "target": t,
        "range": d,
        "aspect": CLOCK_NAMES[sector],
        "target_number": tn,
        "dice": dice_n,
        "modifier": mod,
        "modifiers": mods,
        "expected_hits": round(dice_n * per_die, 2),
        "armor": st.armor[t],
        "vital_armor": st.vital[t],
        "damage": pt.damage,
        "hit_points": st.hits[t],
    }


def attack_odds(s: BattleState, side: int, action: Any) -> dict[str, Any] | None:
    """The odds of an attack for the pages of every game (rules.tactical.DecisionOdds): the
    chance of at least one hit (000 "RESOLVING ATTACKS": a die hits on a modified roll at
    or above the target number, and a 6 always scores), with the attack's modifiers
    (000 "ATTACK BONUSES AND PENALTIES"); None for a decision that is not an attack."""
    if not isinstance(action, Attack) or s.planes[action.attacker].side != side:
        return None
    _, dice_n, tn, _, mods = attack_figures(s, action.attacker, action.target)
    mod = sum(v for _, v in mods)
    per_die = (sum(1 for face in range(1, 6) if face + mod >= tn) + 1) / 6
    chance = round(1 - (1 - per_die) ** dice_n, 3) if dice_n > 0 else 0.0
    return {
        "chance": chance,
        "text": f"hits {round(chance * 100)}% ({dice_n} dice, needs {tn})",
        "modifiers": [
            {"name": str(name), "value": int(v), "rule": "000 'ATTACK BONUSES AND PENALTIES'"}
            for name, v in mods
        ],
    }


def maneuver_chance(s: BattleState, plane: int, kind: str) -> float:
    """P(the maneuver check of ``kind`` succeeds) now (000 "MANEUVER CHECKS": 2d6 + bonus vs 10 or 13)."""
    st = s.st
    p = s.planes[plane]
    bonus = st.bonus[plane][MANEUVER_BONUS[kind]]
    if p.damage and st.hits[plane] - p.damage == 1:
        bonus -= 2  # 000 "CRIPPLED"
    if s.step_no == 0 and s.required == STATUS_CLIMBING and kind == "climb":
        bonus += 4  # 000 "CLIMBING STATUS"
    if st.any_hooks["maneuver"]:
        for fn in st.hooks[plane].get("maneuver", ()):
            bonus += fn(s, plane, kind) or 0
    need = (13 if p.high else 10) - bonus
    return sum(1 for x in range(1, 7) for y in range(1, 7) if x + y >= need) / 36

"""The game turn (000 "SEQUENCE OF PLAY"): initiative and the end of the turn.

000 "INITIATIVE PHASE" (with 000 "TAILING" and ability bonuses), then
turn position or fighter direction, and 000 "END OF TURN". Plain functions
of the battle state, bound as its methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import advanced, conditions, victory
from .phases import INITIATIVE, POSITION
from .stats import SIDES

if TYPE_CHECKING:
    from .state import BattleState


def start_turn(s: BattleState) -> None:
    """000 "INITIATIVE PHASE": 2d6 + bonuses; ties to the better bonus, then re-roll."""
    s.turn += 1
    s.phase = INITIATIVE
    for p in s.planes:
        p.moved = p.fired = p.grounded = p.dm_tried = p.lit = p.adjusted = False
    st = s.st
    bonus = [0, 0]
    tail = [0, 0]
    if st.rules.tailing:
        # 000 "TAILING": +2 to the side tailing more enemy aircraft
        tail = [advanced.tailed_count(s, 0), advanced.tailed_count(s, 1)]
        if tail[0] > tail[1]:
            bonus[0] += 2
        elif tail[1] > tail[0]:
            bonus[1] += 2
    if st.any_hooks["initiative"]:
        for p in s.planes:
            if not p.out:
                for fn in st.hooks[p.id].get("initiative", ()):
                    bonus[p.side] += fn(s, p.id)
    roll = s.dice.roll
    while True:
        ax = (roll(6, "initiative axis"), roll(6, "initiative axis"))
        al = (roll(6, "initiative allied"), roll(6, "initiative allied"))
        tot = (ax[0] + ax[1] + bonus[0], al[0] + al[1] + bonus[1])
        if tot[0] != tot[1]:
            winner = 0 if tot[0] > tot[1] else 1
        elif bonus[0] != bonus[1]:
            winner = 0 if bonus[0] > bonus[1] else 1
        else:
            winner = -1
        # s._log("initiative", ...) written out: every game turn
        s.log.append(
            {
                "rolls": {"axis": [ax[0], ax[1]], "allied": [al[0], al[1]]},
                "bonus": {"axis": bonus[0], "allied": bonus[1]},
                "tailing": {"axis": tail[0], "allied": tail[1]},
                "total": {"axis": tot[0], "allied": tot[1]},
                "winner": SIDES[winner] if winner >= 0 else None,
                "e": "initiative",
                "turn": s.turn,
            }
        )
        if winner >= 0:
            break
    s.init_winner = winner
    if st.rules.turn_position:
        # 000 "CHOOSING TURN POSITION"
        s.phase = POSITION
        s.to_act = winner
        return
    s.first = 1 - winner  # the winner moves second
    conditions.after_initiative(s)


def end_turn(s: BattleState) -> None:
    """000 "END OF TURN": score, check victory, pick up markers."""
    victory.scenario_end_of_turn(s)
    s._log("end_turn", vp={"axis": s.vp[0], "allied": s.vp[1]})
    verdict = victory.victory(s)
    if verdict is not None:
        victory.game_over(s, *verdict)
        return
    start_turn(s)

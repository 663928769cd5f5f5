"""The competent pilot and the honcho rule (002 17c, option honcho): it pushes the
envelope (one Maneuver Chart line higher, once a game) when the sooner completion gives a
shot, not when nothing is near, and so beats a pilot that never pushes or pushes at random
(before, a pushed marker was scored as the plain one: a coin decided)."""

from dataclasses import replace

from airpirates_helpers import BF109, SPITFIRE, battle, unit

from rules.airpirates.actions import Fire, Hold, Mark
from rules.airpirates.pilots import CompetentPilot, play_out, tactical
from rules.airpirates.state import new_battle
from rules.airpirates.units import SIDES, basic_game


def ace_marking(enemy_hex, enemy_facing):
    """An ace's Spitfire (allied, 1) at (6, 8) facing east at speed 4, to mark after a
    green Bf 109E (axis, 2) marked a straight."""
    b = battle(
        [unit("allied", SPITFIRE, quality="ace", speed=4),
         unit("axis", BF109, quality="green", speed=4)],
        [((6, 8), 0), (enemy_hex, enemy_facing)], marker="axis",
    )  # fmt: skip
    b.scenario = replace(b.scenario, options=("honcho",))
    b.apply(Mark(2, "straight"))
    assert b.current_side() == SIDES.index("allied")
    return b


def shot_on_completing(b, mark):
    """Fly ``mark`` to its completion (the Bf 109E flying straight); whether the Spitfire
    was offered a shot then (6a: forward guns fire on completing a maneuver)."""
    b.apply(mark)
    while not b.is_over() and b.unit(1).marker is not None:
        side = b.current_side()
        legal = b.legal_actions()
        holds = [a for a in legal if isinstance(a, Hold)]
        plain = [a for a in legal if isinstance(a, Mark) and a.maneuver == "straight"]
        b.apply((holds or plain or legal)[0] if side is not None else legal[0])
    while not b.is_over() and b.phase != "fire":
        b.apply(b.legal_actions()[0])
    return any(isinstance(a, Fire) and a.unit == 1 for a in b.legal_actions())


def test_pushes_when_the_sooner_turn_gives_a_shot_the_plain_one_does_not():
    chosen = CompetentPilot(1).choose(ace_marking((8, 6), 3))
    assert chosen == Mark(1, "turn_left", True)
    assert shot_on_completing(ace_marking((8, 6), 3), chosen)
    assert not shot_on_completing(ace_marking((8, 6), 3), Mark(1, "turn_left"))


def test_keeps_the_push_when_the_enemy_is_far():
    chosen = CompetentPilot(1).choose(ace_marking((24, 2), 3))
    assert isinstance(chosen, Mark) and not chosen.honcho


class CoinPilot(CompetentPilot):
    """The pilot as it was: a pushed marker worth what the plain one is."""

    def choose(self, battle):
        keep = tactical._pushes
        tactical._pushes = lambda action: False
        try:
            return super().choose(battle)
        finally:
            tactical._pushes = keep


def test_beats_a_pilot_that_pushes_at_random():
    scenario = basic_game("Spitfire Mk I Ace", "Bf 109E Wingman")
    scenario = {**scenario, "options": ["honcho"],
                "units": [{**u, "quality": "ace"} for u in scenario["units"]]}  # fmt: skip
    wins = losses = 0
    for seed in range(60):
        ours = seed % 2
        pilots = [CoinPilot(2 * seed + 1), CoinPilot(2 * seed + 1)]
        pilots[ours] = CompetentPilot(2 * seed)
        result = play_out(new_battle(scenario, seed), pilots)
        wins += result["winner"] == SIDES[ours]
        losses += result["winner"] == SIDES[1 - ours]
    assert wins > 1.3 * losses, (wins, losses)

"""002 [8] the end of the game when one side's units have all left the battle: a unit
that left (16b2, the edge ruling) is not eliminated, so the game goes on while a fire
burning on a unit still in it may yet eliminate it (13b4)."""

from airpirates_helpers import BF109, SPITFIRE, battle, unit

from rules.airpirates.actions import Change, Hold, Mark, Move
from rules.airpirates.change import steady
from rules.dice import ScriptedDice


def test_8_the_game_ends_when_a_side_has_left_and_no_fire_burns():
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((0, 8), 3), ((27, 8), 0)],  # both face off the board from opposite edges
    )
    # no marker keeps the Bf 109 on the board (3b): it leaves; the Spitfire has no fire
    assert b.unit(1).disengaged and b.is_over()
    assert b.reason == "no air unit of one side is left in the battle"
    assert b.result()["winner"] is None


def test_8_13b4_a_fire_still_burning_plays_on_and_its_kill_scores_for_the_side_gone():
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4)],
        [((13, 8), 3), ((20, 8), 0)],
        marker="allied",
    )
    spit = b.unit(2)
    spit.damage["engine"] = 1
    spit.fires.append({"part": "engine", "turn": 1, "by": 1})
    # the Bf 109 leaves the battle (as if no maneuver kept it on the board: the ruling)
    bf = b.unit(1)
    bf.eliminated, bf.disengaged, bf.hex = True, True, None
    b.apply(Mark(2, "straight"))
    assert not b.is_over()  # [8]: the Bf 109 is not eliminated; the fire may still count
    b.dice = ScriptedDice([1])  # 13b4: 1 + 0 does not put the fire out
    while b.phase != "change":
        assert not b.is_over()
        if b.phase == "move":
            b.apply(Move(2))
        elif b.phase == "fire":
            b.apply(Hold(2))
        else:
            b.apply(Mark(2, "straight"))
    b.apply(Change(2, *steady(spit, b.zooms(spit))))
    assert spit.eliminated and b.is_over()
    assert b.reason == "all air units on one side are eliminated"
    result = b.result()
    assert result["victory_points"] == {"axis": 10.0, "allied": 0.0}
    assert result["winner"] == "axis"
    assert [a["fate"] for a in result["aircraft"]] == ["retreated", "destroyed"]

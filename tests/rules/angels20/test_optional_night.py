"""Night combat, illumination and fighter direction (000 "SPECIAL CONDITIONS"), with scripted
dice, on and off."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import at_attack, battle, events, plane, pre
from optional_helpers import BF, HURRI, INIT, INIT_ALLIED, fly, purposes, rear_shot

from rules.angels20 import (
    CATALOGUE,
    Attack,
    ChoosePosition,
    Decline,
    IllegalAction,
    Rules,
)
from rules.angels20.actions import Direct
from rules.angels20.attacks import attack_problem, can_attack

# ====================================================================== night combat

NIGHT_FIGHTER = replace(CATALOGUE[BF], name="Bf 110 night", abilities=("Night Fighter",))


@pytest.mark.parametrize("night", ["day", "moonlight"])
def test_moonlight_minus_one_per_die(night):
    """000 "EFFECTS OF MOONLIGHT": "All attacks suffer an attack penalty (-1 per
    die)" - the 4s that hit by day miss by moonlight."""
    s = rear_shot([4, 4, 6, 1, 1], Rules(night=night))
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert a["target_number"] == 4
    if night == "day":
        assert a["modifiers"] == [] and a["rolls"][:3] == [[4, 4, 1], [4, 4, 1], [6, 6, 2]]
        assert (a["hits"], a["outcome"]) == (4, "damage")
    else:
        assert a["modifiers"] == [["moonlight", -1]] and a["modifier"] == -1
        assert a["rolls"][:3] == [[4, 3, 0], [4, 3, 0], [6, 5, 2]]
        assert (a["hits"], a["outcome"]) == (2, "miss")


def test_moonlight_keeps_tailing_and_attacks():
    """000 "EFFECTS OF MOONLIGHT" only penalises attacks: tailing and attacking stay."""
    s = rear_shot([1] * 5, Rules(night="moonlight", tailing=True))
    assert s.tailing(0, 1) and can_attack(s, 0, 1)
    assert events(s, "initiative")[0]["tailing"] == {"axis": 1, "allied": 0}


def test_darkness_no_attack_without_a_means():
    """000 "EFFECTS OF DARKNESS" / Requirements to Attack: without a night-fighting
    ability, direction or an illuminated target there is no attack, so the Attack
    phase passes with no shot; and tailing is ignored."""
    s = rear_shot([], Rules(night="darkness", tailing=True))
    assert s.turn == 2 and events(s, "attack") == []
    assert [e["side"] for e in events(s, "no_attacks")] == ["allied", "axis"]
    assert not s.tailing(0, 1)
    assert [e["tailing"] for e in events(s, "initiative")] == [{"axis": 0, "allied": 0}] * 2
    rule, _ = attack_problem(s, 0, 1)
    assert rule == "000 'Requirements to Attack'"
    # the same geometry by day tails and attacks
    s = rear_shot([1] * 5, Rules(tailing=True))
    assert s.tailing(0, 1) and s.legal_actions() == [Attack(0, 1), Decline()]


def test_darkness_night_fighter_may_attack_at_minus_one():
    """000 "EFFECTS OF DARKNESS": "a special ability allowing it to attack in
    darkness" (Night Fighter), with the -1 per die."""
    s = rear_shot([4, 4, 5, 1, 1], Rules(night="darkness"), stats=NIGHT_FIGHTER)
    assert s.legal_actions() == [Attack(0, 1), Decline()]
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert a["modifiers"] == [["darkness", -1]]
    assert [r[1] for r in a["rolls"]] == [3, 3, 4, 0, 0] and a["hits"] == 1
    # the ability alone does nothing to the Hurricane, which still can't fire back
    assert not can_attack(s, 1, 0)


def test_darkness_direction_enables_the_attack():
    """000 "EFFECTS OF DARKNESS": "it is under direction" (000 "FIGHTER DIRECTION")."""
    s = battle(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
        INIT + [6, 6, 6, 1, 1, 4],
        Rules(night="darkness", fighter_direction=(1, 0)),
    )
    assert s.phase == "direction" and s.current_side() == 0
    s.apply(Direct((0,)))
    assert s.planes[0].directed and s.phase == "movement"
    fly(s)
    assert s.legal_actions() == [Attack(0, 1), Decline()]
    s.apply(Attack(0, 1))
    a = events(s, "attack")[0]
    assert a["modifiers"] == [["darkness", -1]] and a["outcome"] == "destroyed"
    # without direction (Direct nobody) the same position has no shot
    s = battle(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
        INIT,
        Rules(night="darkness", fighter_direction=(1, 0)),
    )
    s.apply(Direct(()))
    fly(s)
    assert s.turn == 2 and events(s, "attack") == []


@pytest.mark.parametrize("roll, lit", [(4, False), (5, True)])
def test_darkness_illumination_enables_the_attack(roll, lit):
    """000 "EFFECTS OF DARKNESS": "the target is illuminated"; 000 "ILLUMINATION":
    a fighter is illuminated on 5+, rolled just before the Attack phase."""
    s = rear_shot([roll], Rules(night="darkness", searchlights=(True, False)))
    (e,) = [x for x in events(s, "illumination") if x["turn"] == 1]
    assert (e["plane"], e["roll"], e["need"], e["lit"]) == (1, roll, 5, lit)
    if lit:
        assert s.phase == "attack" and s.planes[1].lit
        assert s.legal_actions() == [Attack(0, 1), Decline()]
    else:
        assert s.turn == 2 and events(s, "attack") == []
    kinds = [x["e"] for x in s.log]
    assert kinds.index("illumination") < kinds.index("attack_phase")


# ====================================================================== illumination


@pytest.mark.parametrize(
    "kind, need",
    [
        ("heavy bomber", 2),
        ("medium bomber", 3),
        ("bomber", 3),  # a plain bomber is a medium bomber (ruling "Bomber classes")
        ("light bomber", 4),
        ("heavy fighter", 4),
        ("fighter", 5),
        ("naval fighter", 5),
    ],
)
@pytest.mark.parametrize("below", [True, False])
def test_illumination_by_class(kind, need, below):
    """000 "ILLUMINATION" / Illumination Roll: heavy bomber 2+, medium bomber 3+,
    light bomber 4+, heavy fighter 4+, fighter or naval fighter 5+ - each class at
    its number is lit, one below is not."""
    target = replace(CATALOGUE[HURRI], name=kind, kind=kind)
    roll = need - 1 if below else need
    s = at_attack(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0, stats=target)],
        [roll],
        Rules(night="darkness", searchlights=(True, False)),
    )
    # only the enemies of the side with searchlights roll
    (e,) = [x for x in events(s, "illumination") if x["turn"] == 1]
    assert (e["plane"], e["roll"], e["need"], e["lit"]) == (1, roll, need, not below)
    if below:  # not lit: in darkness nobody has a shot, the turn is over
        assert s.turn == 2 and events(s, "attack") == []
    else:
        assert s.phase == "attack" and s.planes[1].lit
        assert s.legal_actions() == [Attack(0, 1), Decline()]


def test_bomber_ability_on_a_fighter_card_is_a_medium_bomber():
    """000 "ILLUMINATION" with ruling "Bomber classes": a fighter card flown as a
    bomber rolls as a medium bomber (3+)."""
    target = replace(CATALOGUE[HURRI], abilities=("Bomber",))
    s = at_attack(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0, stats=target)],
        [3],
        Rules(night="darkness", searchlights=(True, False)),
    )
    assert events(s, "illumination")[0]["need"] == 3 and s.planes[1].lit


def test_searchlights_of_both_sides():
    """000 "ILLUMINATION": each side's searchlights roll for the enemy aircraft (ruling
    "Night, fighter direction, illumination"); a lit Bf 109 can be attacked too."""
    s = rear_shot([4, 5], Rules(night="darkness", searchlights=(True, True)))
    assert [(e["plane"], e["roll"], e["lit"]) for e in events(s, "illumination")] == [
        (0, 4, False),
        (1, 5, True),
    ]
    s = rear_shot([1], Rules(night="darkness", searchlights=(False, True)))
    assert [(e["plane"], e["lit"]) for e in events(s, "illumination") if e["turn"] == 1] == [
        (0, False)
    ]
    assert s.turn == 2  # the Hurricane is not lit: the Bf 109 has no shot


def test_illumination_rerolled_each_turn():
    """000 "ILLUMINATION": lit "until the end of the game turn"."""
    s = battle(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0)],
        INIT + [6] + INIT + [2],
        Rules(night="darkness", searchlights=(True, False)),
    )
    fly(s)
    assert s.planes[1].lit
    s.apply(Decline())
    assert s.turn == 2 and s.phase == "movement" and not s.planes[1].lit
    fly(s)
    e = events(s, "illumination")
    assert [(x["turn"], x["roll"], x["lit"]) for x in e] == [(1, 6, True), (2, 2, False)]


def test_no_illumination_by_day_or_moonlight():
    """000 "ILLUMINATION" is part of "NIGHT COMBAT" in darkness: by day or moonlight
    searchlights roll nothing (and direction is not assigned)."""
    for night in ("day", "moonlight"):
        s = rear_shot(
            [1] * 5,
            Rules(night=night, searchlights=(True, True), fighter_direction=(2, 2)),
        )
        assert events(s, "illumination") == [] and events(s, "direction") == []
        assert "illumination" not in purposes(s)
        assert s.legal_actions() == [Attack(0, 1), Decline()]
        s.apply(Attack(0, 1))
        mods = events(s, "attack")[0]["modifiers"]
        assert mods == ([] if night == "day" else [["moonlight", -1]])


# ====================================================================== fighter direction


def test_direction_options_are_fighter_sets_up_to_capacity():
    """000 "FIGHTER DIRECTION": "For each point of direction capacity available, you
    can provide fighter direction to one friendly fighter" - any set of own
    fighters up to the capacity; never a bomber, never an enemy."""
    he111 = CATALOGUE["He 111 bomber token"]
    s = battle(
        [
            plane(BF, "axis", 0, 0, 0),
            plane(BF, "axis", 2, 0, 0),
            plane("Bf 110C", "axis", 4, 0, 0),
            plane(BF, "axis", 6, 0, 0, stats=he111),
            plane(HURRI, "allied", 0, 8, 0),
        ],
        INIT,
        Rules(night="darkness", fighter_direction=(2, 0)),
    )
    assert s.phase == "direction" and s.current_side() == 0
    assert s.legal_actions() == [
        Direct(()),
        Direct((0,)),
        Direct((1,)),
        Direct((2,)),
        Direct((0, 1)),
        Direct((0, 2)),
        Direct((1, 2)),
    ]
    for bad in (Direct((0, 1, 2)), Direct((3,)), Direct((4,))):
        with pytest.raises(IllegalAction) as err:
            s.apply(bad)
        assert err.value.rule == "000 'FIGHTER DIRECTION'"
    s.apply(Direct((0, 2)))
    assert [p.directed for p in s.planes] == [True, False, True, False, False]
    assert events(s, "direction")[0]["planes"] == [0, 2]
    assert s.phase == "movement"  # the Allies have no capacity: nothing to assign


@pytest.mark.parametrize(
    "init, order", [(INIT, ["allied", "axis"]), (INIT_ALLIED, ["axis", "allied"])]
)
def test_direction_after_initiative_first_player_first(init, order):
    """000 "FIGHTER DIRECTION" / Assigning Direction: "After the Initiative phase"
    (ruling "Night, fighter direction, illumination": first player first)."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 0, 8, 0)],
        init,
        Rules(night="darkness", fighter_direction=(1, 1)),
    )
    kinds = [e["e"] for e in s.log]
    assert kinds[-1] == "initiative" and s.phase == "direction"
    first = s.current_side()
    s.apply(Direct((first,)))  # plane ids happen to equal side indices here
    s.apply(Direct((1 - first,)))
    assert [e["side"] for e in events(s, "direction")] == order
    assert s.phase == "movement" and all(p.directed for p in s.planes)


def test_direction_after_the_turn_position_choice():
    """000 "FIGHTER DIRECTION" with 000 "CHOOSING TURN POSITION": the initiative
    winner chooses first, then the first player assigns direction."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 0, 8, 0)],
        INIT,
        Rules(night="darkness", fighter_direction=(1, 1), turn_position=True),
    )
    assert s.phase == "position"
    s.apply(ChoosePosition(True))  # the Axis moves first
    assert s.phase == "direction" and s.current_side() == 0


def test_direction_kept_until_reassigned():
    """000 "FIGHTER DIRECTION": "Your aircraft receives direction until you choose to
    reassign direction to a different aircraft in a subsequent Initiative phase"."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(BF, "axis", 3, 0, 0), plane(HURRI, "allied", 0, 8, 0)],
        INIT + INIT + INIT,
        Rules(night="darkness", fighter_direction=(1, 0)),
        pad=False,
    )
    s.apply(Direct((0,)))
    fly(s)
    assert s.turn == 2 and s.phase == "direction"
    assert s.planes[0].directed  # still directed into the next Initiative phase
    assert Direct((0,)) in s.legal_actions()  # keeping it is one of the choices
    s.apply(Direct((0,)))
    fly(s)
    assert s.turn == 3 and [p.directed for p in s.planes] == [True, False, False]
    s.apply(Direct((1,)))  # reassigned
    assert [p.directed for p in s.planes] == [False, True, False]


@pytest.mark.parametrize("night", ["day", "moonlight"])
def test_direction_only_in_darkness(night):
    """000 "FIGHTER DIRECTION" belongs to night combat in darkness (ruling): by day or
    moonlight there is no direction phase and Direct is refused."""
    s = battle(
        [plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 0, 8, 0)],
        INIT,
        Rules(night=night, fighter_direction=(1, 1)),
    )
    assert s.phase == "movement"
    with pytest.raises(IllegalAction) as err:
        s.apply(Direct((0,)))
    assert "Assigning Direction" in err.value.rule
    assert not any(p.directed for p in s.planes)

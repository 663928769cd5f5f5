"""002 17c, the honcho rule (option honcho): an ace's undamaged unit marks a maneuver one
Maneuver Chart line higher once a game, and is eliminated by an engine, crew, wing or
rudder hit while pushing the envelope."""

from dataclasses import replace

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, move_all, unit

from rules.airpirates import effects as fx
from rules.airpirates import honcho as ho
from rules.airpirates.actions import IllegalAction, Mark, action_from_json
from rules.airpirates.charts import hexes
from rules.airpirates.maneuvers import line
from rules.airpirates.units import Unit
from rules.dice import ScriptedDice


def setup(options=("honcho",), quality="ace"):
    """An ace's Spitfire (allied, 1) at speed 4 and a Bf 109E (axis, 2) far off, marking."""
    b = battle(
        [unit("allied", SPITFIRE, quality=quality, speed=4), unit("axis", BF109, speed=4)],
        [((6, 8), 0), ((20, 3), 3)], marker="allied",
    )  # fmt: skip
    b.scenario = replace(b.scenario, options=tuple(options))
    assert b.phase == "setup_mark" and b.current_side() == 1  # allied marks first
    return b


def test_the_ace_marks_one_line_higher_once():
    b = setup()
    spit = b.unit(1)
    normal = line(spit, "turn")
    assert normal >= 2
    assert Mark(1, "turn_left", True) in b.legal_actions()
    assert Mark(1, "straight", True) not in b.legal_actions()  # line 1: none higher
    b.apply(action_from_json({"kind": "mark", "unit": 1, "maneuver": "turn_left", "honcho": True}))
    assert spit.marker["line"] == normal - 1 and spit.marker["honcho"] is True
    assert spit.marker["hex"] == (6 + hexes(normal - 1, 4), 8)  # east along the row
    pushed = b.log[-1]
    assert pushed["event"] == "pushed the envelope" and pushed["rule"] == "002 '17c'"
    assert Unit.from_json(spit.to_json()).honcho == {"turn": 1, "impulse": 0,
                                                     "maneuver": "turn_left"}  # fmt: skip
    spit.marker = None  # completed
    assert "only once per game" in ho.refusal(b, spit, "turn_right")[1]


@pytest.mark.parametrize(
    ("options", "quality", "damage", "why"),
    [
        ((), "ace", None, "not in play"),
        (("honcho",), "experienced", None, "piloted by an ace"),
        (("honcho",), "ace", "fuselage", "must be undamaged"),
    ],
)
def test_refused_by_the_rule(options, quality, damage, why):
    b = setup(options, quality)
    if damage:
        b.unit(1).damage[damage] = 1
    assert not any(isinstance(a, Mark) and a.honcho for a in b.legal_actions())
    with pytest.raises(IllegalAction, match=why):
        b.apply(Mark(1, "turn_left", True))
    assert b.unit(1).marker is None


@pytest.mark.parametrize(("part", "eliminated"), [("wing", True), ("rudder", True),
                                                  ("engine", True), ("fuselage", False)])  # fmt: skip
def test_a_hit_while_pushing_the_envelope_eliminates(part, eliminated):
    b = setup()
    b.apply(Mark(1, "turn_left", True))
    spit, enemy = b.unit(1), b.unit(2)
    b.dice = ScriptedDice([10])  # an engine hit's fire roll: no fire
    placed = fx.place_hits(b, enemy, spit, 1, part)
    fx.after_hits(b, enemy, spit, placed)
    assert spit.eliminated is eliminated
    if eliminated:
        assert b.log[-1]["event"] == "eliminated" and b.log[-1]["rule"] == "002 '17c'"


def test_after_the_maneuver_a_wing_hit_is_only_a_hit():
    b = setup()
    b.apply(Mark(1, "turn_left", True))
    b.apply(Mark(2, "straight"))
    while b.unit(1).marker is not None:
        move_all(b)
        while b.phase not in ("move",) and b.unit(1).marker is not None:
            b.apply(b.legal_actions()[-1])  # hold fire, and on
    spit = b.unit(1)
    assert spit.honcho is not None
    fx.after_hits(b, b.unit(2), spit, fx.place_hits(b, b.unit(2), spit, 1, "wing"))
    assert not spit.eliminated and spit.damage["wing"] == 1


def test_without_the_option_marks_are_as_before():
    b = setup(())
    assert all(a.to_json().get("honcho") is None for a in b.legal_actions())


@pytest.mark.parametrize("seed", [2, 6])
def test_random_aces_push_the_envelope_at_most_once_each_and_replay(seed):
    from rules.airpirates.state import new_battle, replay
    from rules.airpirates.system import RandomPilot
    from rules.airpirates.units import basic_game

    aces = basic_game("Bf 110C", "Hurricane Mk I", quality="ace")
    b = new_battle({**aces, "options": ["honcho"]}, seed)
    pilots = [RandomPilot(seed), RandomPilot(seed + 1)]
    while not b.is_over():
        b.apply(pilots[b.current_side()].choose(b))
    pushed = [e["unit"] for e in b.log if e["event"] == "pushed the envelope"]
    assert pushed and len(pushed) == len(set(pushed))  # used, and once a game each
    assert {u.id for u in b.units if u.honcho is not None} == set(pushed)
    assert replay(b.scenario, b.seed, b.actions).to_json() == b.to_json()

"""002 13e the optional crash rule (option ``crashes``): a unit with one crew or engine
hit or two wing hits diving to altitude 0 in the Change Phase rolls a d10 plus its speed,
10 or more crashing it (13e1), the pilot surviving on exactly 10 (13e1.1); a LaGG-3
completing a tight turn rolls a d10 plus its speed, 10 or more spinning it in (13e1.2)."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, unit

from rules.airpirates import change as ch
from rules.airpirates.actions import Change, Hold, Mark, Move
from rules.airpirates.units import Scenario
from rules.dice import ScriptedDice

CRASH = "002 '13e1'"
LAGG = "002 '13e1.2'"


def to_change(b, marks=None):
    """Fly on, holding fire, to the next Change Phase (``marks``: unit -> first marker)."""
    marks = dict(marks or {})
    while b.phase != "change" and not b.is_over():
        u = b.pending(b.current_side())[0]
        if b.phase == "move":
            b.apply(Move(u.id))
        elif b.phase == "fire":
            b.apply(Hold(u.id))
        else:
            b.apply(Mark(u.id, marks.pop(u.id, "straight")))
    return b


def diving(options=("crashes",), altitude=1, **damage):
    """Unit 1 (axis Spitfire) at ``altitude`` with ``damage``, in turn 1's Change Phase."""
    b = battle([unit("axis", SPITFIRE, altitude=altitude), unit("allied", BF109, speed=2)],
               [((3, 3), 0), ((3, 12), 0)])  # fmt: skip
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    to_change(b)
    b.unit(1).damage.update(damage)
    return b


def dive_to(b, altitude, rolls):
    """Unit 1 changes to ``altitude`` at its fastest speed there; returns that speed."""
    u = b.unit(1)
    speed = max(s for a, s in ch.options(u) if a == altitude)
    b.dice = ScriptedDice(rolls)
    b.apply(Change(1, altitude, speed))
    assert b.dice.remaining == 0
    return speed


@pytest.mark.parametrize("damage", [{"crew": 1}, {"engine": 1}, {"wing": 2}])
def test_13e1_a_damaged_unit_diving_to_0_crashes_on_10_or_more(damage):
    b = diving(**damage)
    speed = b.unit(1).speed
    speed = dive_to(b, 0, [10])
    assert speed >= 1
    crash = [e for e in b.log if e["rule"] == CRASH and e["event"] == "crashed"][0]
    assert crash["roll"] == 10 and crash["modifier"] == speed
    assert crash["pilot_survived"] is False  # 10 + speed > 10 (13e1.1)
    assert b.unit(1).eliminated and b.kills[-1]["attacker"] is None
    assert b.victory_points()["allied"] == 10.0


def test_13e1_1_the_pilot_survives_a_modified_10_and_9_pulls_out():
    b = diving(crew=1)
    speed = max(s for a, s in ch.options(b.unit(1)) if a == 0)
    dive_to(b, 0, [10 - speed])
    gone = [e for e in b.log if e["event"] == "eliminated"][-1]
    assert gone["rule"] == CRASH and gone["pilot_survived"] is True

    b = diving(crew=1)
    dive_to(b, 0, [9 - speed])
    assert not b.unit(1).eliminated and b.unit(1).altitude == 0
    assert b.log[-1]["event"] == "pulled out of the dive" or any(
        e["event"] == "pulled out of the dive" for e in b.log
    )


def test_13e1_no_bail_out_roll_after_a_crash():
    b = diving(options=("bailout", "crashes"), engine=1)
    dive_to(b, 0, [10])  # no 13c1 die asked for
    assert b.unit(1).eliminated and b.unit(1).bailout is None


@pytest.mark.parametrize(
    ("options", "damage", "altitude", "to"),
    [((), {"crew": 1}, 1, 0),  # the option off
     (("crashes",), {"wing": 1}, 1, 0),  # one wing hit is not enough
     (("crashes",), {}, 1, 0),  # undamaged
     (("crashes",), {"crew": 1}, 2, 1)],  # dived, but not to the ground
)  # fmt: skip
def test_13e1_no_roll_without_the_option_the_hits_or_the_ground(options, damage, altitude, to):
    b = diving(options=options, altitude=altitude, **damage)
    dive_to(b, to, [])
    assert not b.unit(1).eliminated
    assert not [e for e in b.log if e["rule"] == CRASH]


def lagg(options=("crashes",), name="LaGG-3"):
    """A LaGG-3 (axis unit 1, a Yak-1's card) marked for a tight turn in the set-up."""
    b = battle([unit("axis", "Yak-1 Rookie", name=name, quality="average", speed=3),
                unit("allied", BF109, speed=2)], [((8, 8), 0), ((3, 12), 0)])  # fmt: skip
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    return b


def fly_tight_turn(b, rolls):
    b.dice = ScriptedDice(rolls)
    to_change(b, {1: "tight_right"})
    assert b.dice.remaining == 0
    return [e for e in b.log if e["rule"] == LAGG]


def test_13e1_2_a_lagg3_spins_in_on_10_or_more_with_its_speed():
    b = lagg()
    speed = b.unit(1).speed
    events = fly_tight_turn(b, [10 - speed])
    assert events[0]["event"] == "spun out of control" and events[0]["modifier"] == speed
    assert b.unit(1).eliminated and b.unit(1).id not in [u.id for u in b.units if u.hex]


def test_13e1_2_a_lagg3_below_10_completes_its_tight_turn():
    b = lagg()
    events = fly_tight_turn(b, [9 - b.unit(1).speed])
    assert events[0]["event"] == "held the tight turn" and not b.unit(1).eliminated
    completed = [e for e in b.log if e["event"] == "moved" and e["unit"] == 1 and e["completed"]]
    assert completed[0]["completed"] == "tight_right"


@pytest.mark.parametrize(("options", "name"), [((), "LaGG-3"), (("crashes",), "Yak-1")])
def test_13e1_2_no_roll_without_the_option_or_for_another_aircraft(options, name):
    b = lagg(options, name)
    assert fly_tight_turn(b, []) == []
    assert not b.unit(1).eliminated


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_with_every_option_on_random_play_ends_and_replays(seed):
    """Random legal play with collisions and crashes on (two LaGG-3s among the units):
    no listed action is refused, the game ends, and its record replays to the same state."""
    from rules.airpirates.state import new_battle, replay
    from rules.airpirates.system import RandomPilot
    from rules.airpirates.units import OPTIONS, basic_game

    scenario = basic_game("Yak-1 Rookie", "Bf 109E Wingman")
    for n, entry in enumerate(scenario["units"][:2]):
        entry["name"], entry["nation"] = f"LaGG-3 #{n + 1}", "Soviet"  # 13d2: they may ram
    scenario["options"] = list(OPTIONS)
    b = new_battle(scenario, seed)
    pilots = [RandomPilot(seed), RandomPilot(seed + 100)]
    while not b.is_over():
        b.apply(pilots[b.current_side()].choose(b))
    assert b.result()["reason"] != "in play"
    assert replay(b.scenario, b.seed, b.actions).to_json() == b.to_json()

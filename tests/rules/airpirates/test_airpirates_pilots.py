"""The computer pilots of 002 (rules/airpirates/pilots): legal, deterministic, seek the
tail, break contact when beaten, and beat random play (the full measure: bench/)."""

import json
from dataclasses import dataclass
from typing import ClassVar

from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates import spotting as sp
from rules.airpirates.actions import (
    BreakContact,
    Change,
    EndAnnouncements,
    EndSpotting,
    Fire,
    Hold,
    Mark,
    Move,
    PassMarker,
    Spot,
)
from rules.airpirates.fire import position_modifier
from rules.airpirates.hexes import ahead
from rules.airpirates.pilots import CompetentPilot, NovicePilot, TacticalPilot, play_out
from rules.airpirates.state import new_battle
from rules.airpirates.system import AIRPIRATES, RandomPilot
from rules.airpirates.units import OPTIONS, SIDES, Scenario, basic_game

MATCH = basic_game("Bf 109E Wingman", "Hurricane Mk I")


def fly(scenario, seed, pilots):
    """Every action through the checked ``apply``: an illegal choice raises."""
    b = new_battle(scenario, seed)
    while not b.is_over():
        b.apply(pilots[b.current_side()].choose(b))
    return b


def test_the_system_offers_the_pilots_by_name():
    assert set(AIRPIRATES.pilots) == {"competent", "novice", "random"}
    pilot = AIRPIRATES.computer_pilot("competent", AIRPIRATES.pilot_seed(3, "axis"))
    assert isinstance(pilot, TacticalPilot)


def test_every_choice_is_legal_with_every_option_on():
    scenario = {**basic_game("Bf 110C", "Spitfire Mk I Ace"), "options": list(
        ("bailout", "break_contact", "head_on", "points", "tail_chase", "zoom_climb"))}  # fmt: skip
    for seed, pilots in ((1, [CompetentPilot(1), RandomPilot(2)]),
                         (2, [NovicePilot(3), CompetentPilot(4)])):  # fmt: skip
        b = fly(scenario, seed, pilots)
        assert b.is_over() and b.result()["reason"] != "in play"


def test_every_choice_is_legal_with_the_rules_added_since_on():
    """Spotting with the sun and the bounce, bombers, collisions, ramming, crashes, 17b:
    kinds of decision (the sun, spotting attempts) the pilots meet with these options."""
    scenario = {**basic_game("Bf 109E Wingman", "Hurricane Mk I"), "options": list(OPTIONS)}
    for seed, pilots, ours in ((3, [CompetentPilot(5), RandomPilot(6)], "axis"),
                               (4, [RandomPilot(7), NovicePilot(8)], "allied")):  # fmt: skip
        b = fly(scenario, seed, pilots)
        assert b.is_over() and b.result()["reason"] != "in play"
        assert any(a["kind"] == "spot" and b.unit(a["unit"]).side == ours for a in b.actions)


def spot_phase():
    """Impulse I's Spotting Phase, the axis to act: a Bf 109E (unit 1) flying east, a
    Spitfire two hexes ahead (unit 2) and one eight hexes ahead (unit 3)."""
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=2),
         unit("allied", SPITFIRE, speed=2)],
        [((5, 5), 0), ((7, 5), 0), ((13, 5), 0)],
    )  # fmt: skip
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": ["spotting"]})
    b.spotting = sp.initial(b)
    mark_all(b, {})
    assert move_all(b) == [] and b.phase == "spot" and SIDES[b.current_side()] == "axis"
    return b


def test_tries_to_spot_the_enemy_likeliest_to_be_tallied():
    b = spot_phase()
    assert {Spot(1, 2), Spot(1, 3), EndSpotting()} <= set(b.legal_actions())
    for seed in range(3):  # 15b3.3: -2 for two hexes, -8 for eight; trying costs nothing
        assert CompetentPilot(seed).choose(b) == Spot(1, 2)
    b.apply(Spot(1, 2))
    assert b.spotting["tried"] == [1] and CompetentPilot(0).choose(b) != Spot(1, 3)


def test_flies_faster_than_an_enemy_four_hexes_ahead_to_close_on_it():
    """Turn 1's Change Phase ([7]): a Spitfire four hexes ahead of a Bf 109E, both flying
    east at speed 4 and staying at 4; the Bf 109E takes 5 to close in (level with it)."""
    b = battle(
        [unit("axis", BF109, speed=4), unit("allied", SPITFIRE, speed=4)],
        [((3, 8), 0), ((7, 8), 0)],
    )
    while b.phase != "change":  # straight on, holding fire
        b.apply(next(a for a in b.legal_actions() if isinstance(a, (Move, Hold))
                     or (isinstance(a, Mark) and a.maneuver == "straight")))  # fmt: skip
    assert CompetentPilot(1).choose(b) == PassMarker()  # 3a2: the Spitfire shows its change
    b.apply(PassMarker())
    b.apply(Change(2, 1, 4))
    assert {Change(1, 1, 4), Change(1, 1, 5)} <= set(b.legal_actions())
    for seed in range(3):
        assert CompetentPilot(seed).choose(b) == Change(1, 1, 5)


def test_deterministic_given_the_seed():
    runs = [fly(MATCH, 5, [CompetentPilot(11), NovicePilot(12)]).actions for _ in range(2)]
    assert json.dumps(runs[0]) == json.dumps(runs[1])


def tail_and_head_on():
    """Unit 1 (axis, facing east) has just completed a straight; two hexes ahead, in one
    hex, unit 3 flies away from it (its tail) and unit 4 flies at it (head-on)."""
    here = (8, 8)
    _, second = ahead(here, 0, 2)
    b = battle(
        [unit("axis", BF109), unit("axis", BF109), unit("allied", BF109), unit("allied", BF109)],
        [(here, 0), ((2, 14), 0), (second, 0), (second, 3)],
    )
    b.phase, b.impulse, b.phase_started, b.completed = "fire", 1, False, {1: "straight"}
    return b


def test_prefers_the_tail_shot_to_the_head_on_one():
    b = tail_and_head_on()
    me, tail, head_on = b.unit(1), b.unit(3), b.unit(4)
    assert position_modifier(me, tail) == -1  # rear hexside +1, two hexes -2 (6c1.3)
    assert position_modifier(me, head_on) == -2  # front hexside 0, two hexes -2
    assert {Fire(1, 3), Fire(1, 4), Hold(1)} <= set(b.legal_actions())
    for seed in range(5):
        assert CompetentPilot(seed).choose(b) == Fire(1, 3)


def test_keeps_its_last_box_for_a_better_shot_where_a_novice_fires():
    b = tail_and_head_on()
    b.unit(3).hex = None
    b.unit(3).eliminated = True  # only the head-on target is left, one altitude up (-2)
    b.unit(4).altitude = b.unit(1).altitude + 1
    b.unit(1).ammunition_used = b.unit(1).card["ammunition"] - 1  # one box left, turn 1
    assert CompetentPilot(1).choose(b) == Hold(1)
    assert NovicePilot(1).choose(b) == Fire(1, 4)


def test_fires_its_last_box_in_the_last_impulses_with_no_better_shot_to_wait_for():
    """The same poor shot, in turn 8's impulse V ([8]: the game ends after impulse VI)."""
    b = tail_and_head_on()
    b.unit(3).hex = None
    b.unit(3).eliminated = True
    b.unit(4).altitude = b.unit(1).altitude + 1
    b.unit(1).ammunition_used = b.unit(1).card["ammunition"] - 1
    b.turn, b.impulse = 8, 5
    assert CompetentPilot(1).choose(b) == Fire(1, 4)


def to_break_phase():
    """Turn 2's Break Contact Phase ([16]) with the allied side announcing first."""
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=2)],
        [((5, 3), 0), ((5, 12), 0)],
        marker="allied",
    )
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": ["break_contact"]})
    while b.turn < 2 and not b.is_over():
        if b.phase == "move":
            move_all(b)
        else:
            mark_all(b, {})
    assert b.phase == "break" and SIDES[b.current_side()] == "allied"
    return b


def test_breaks_contact_when_beaten_and_not_before():
    b = to_break_phase()
    assert CompetentPilot(1).choose(b) == EndAnnouncements()  # fresh, nothing scored
    b.unit(2).ammunition_used = b.unit(2).card["ammunition"]  # nothing left to fire
    assert CompetentPilot(1).choose(b) == BreakContact(2)
    b = to_break_phase()
    spitfire = b.unit(2)
    spitfire.damage.update(fuselage=spitfire.card["fuselage_boxes"] - 1, wing=1)
    spitfire.damage.update(wing=spitfire.card["wing_boxes"] - 1)  # the next hit likely its last
    assert CompetentPilot(1).choose(b) == BreakContact(2)
    assert NovicePilot(1).choose(b) == EndAnnouncements()  # a novice stays, beaten or not


def test_competent_beats_random_in_most_of_a_small_seeded_match():
    wins = 0
    for seed in range(8):
        ours = seed % 2
        pilots = [RandomPilot(100 + seed), RandomPilot(100 + seed)]
        pilots[ours] = CompetentPilot(200 + seed)
        result = play_out(new_battle(MATCH, seed), pilots)
        wins += result["winner"] == SIDES[ours]
    assert wins >= 7


@dataclass(frozen=True)
class Ram:
    unit: int
    KIND: ClassVar[str] = "ram"


@dataclass(frozen=True)
class NoRam:
    unit: int
    KIND: ClassVar[str] = "no_ram"


class Asked:
    """A battle asking a decision of a kind the pilot has never seen."""

    phase = "collision"

    def __init__(self, legal):
        self.legal = legal

    def legal_actions(self):
        return self.legal

    def current_side(self):
        return 0

    def phase_name(self):
        return "a new phase"

    class scenario:
        width, height = 28, 16


def test_an_unknown_kind_of_decision_falls_back_to_the_passive_choice():
    assert CompetentPilot(1).choose(Asked([Ram(1), NoRam(1)])) == NoRam(1)
    assert CompetentPilot(1).choose(Asked([Ram(1), Ram(2)])) == Ram(1)

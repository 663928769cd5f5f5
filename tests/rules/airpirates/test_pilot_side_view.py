"""The computer pilots of 002 read only their side's view (rules/airpirates/pilots/view.py):
under the bounce an enemy not yet spotted flies at an altitude and speed they cannot see
(002 9f), and with 13a6 an enemy's starting ammunition is hidden. Changing what is hidden
must not change a single decision. The sun (9a1.7) is laid along the gameboard's length,
and the pilots place their units facing it (15b3.4)."""

import copy

import pytest

from rules.airpirates import ammunition as am
from rules.airpirates import bounce as bo
from rules.airpirates.pilots import CompetentPilot, NovicePilot, play_out
from rules.airpirates.scenarios import scenario
from rules.airpirates.state import new_battle
from rules.airpirates.system import RandomPilot
from rules.airpirates.units import SIDES


def _altered_flight(battle, side):
    """A copy of ``battle`` in which every enemy ``side`` has not spotted flies otherwise."""
    other = copy.deepcopy(battle)
    for uid in bo.hidden(battle, side):
        u = other.unit(uid)
        u.altitude = 0 if u.altitude >= 3 else 5
        u.speed = int(u.card["min_speed"]) if u.speed > int(u.card["min_speed"]) + 1 else 6
    return other


def _decisions_with_hidden(seed, pilot_class, alter, hidden_now, options_extra=(), key="bounce"):
    """Fly a battle of scenario ``key`` (the pilot against random); at each decision of the pilot's side
    while something is hidden from it, ask a fresh pilot (same seed) on the battle and on a
    copy with the hidden things changed (where both offer the same legal actions). Returns (decisions compared, those that differed)."""
    sc = scenario(key, seed)
    sc["options"] = [*sc.get("options", []), *options_extra]
    battle = new_battle(sc, seed)
    ours = seed % 2
    pilots = [RandomPilot(seed + 1), RandomPilot(seed + 1)]
    pilots[ours] = pilot_class(seed)
    compared = differed = 0
    steps = 0
    while not battle.is_over() and steps < 4000:
        side = battle.current_side()
        other = alter(battle, side) if side == ours and hidden_now(battle, side) else None
        # the referee's own steps (which units move this impulse) follow the real speeds:
        # only the pilot's choices among the same legal actions are compared
        if other is not None and other.legal_actions() == battle.legal_actions():
            mine = pilot_class(1000 + steps).choose(battle)
            theirs = pilot_class(1000 + steps).choose(other)
            compared += 1
            differed += mine != theirs
        battle.apply_unchecked(pilots[side].choose(battle))
        steps += 1
    return compared, differed


@pytest.mark.parametrize("pilot_class", [CompetentPilot, NovicePilot])
def test_an_unseen_enemys_altitude_and_speed_change_no_decision(pilot_class):
    compared = differed = 0
    for seed in range(6):
        c, d = _decisions_with_hidden(
            seed, pilot_class, _altered_flight, lambda b, s: bool(bo.hidden(b, s))
        )
        compared, differed = compared + c, differed + d
    assert compared >= 60  # the bounce keeps enemies hidden for many decisions
    assert differed == 0


def _altered_boxes(battle, side):
    """A copy in which every enemy started with no box more than it has marked off."""
    other = copy.deepcopy(battle)
    for u in other.units:
        if u.side != SIDES[side]:
            u.card = {**u.card, "ammunition": u.ammunition_used}
    return other


def test_an_enemys_hidden_starting_ammunition_changes_no_decision():
    compared = differed = 0
    for seed in range(4):
        c, d = _decisions_with_hidden(
            seed,
            CompetentPilot,
            _altered_boxes,
            lambda b, s: am.hidden(b),
            ("variable_ammunition", "hidden_ammunition"),
            key="basic",
        )
        compared, differed = compared + c, differed + d
    assert compared >= 60
    assert differed == 0


def test_an_enemys_ammunition_seen_when_not_hidden_does_count():
    """The check above can fail: with the ammunition open (no 13a6), an enemy's boxes are
    the pilot's to read, and some decision turns on them."""
    differed = 0
    for seed in range(4):
        _, d = _decisions_with_hidden(
            seed,
            CompetentPilot,
            _altered_boxes,
            lambda b, s: True,
            ("variable_ammunition",),
            key="basic",
        )
        differed += d
    assert differed > 0


def test_the_competent_holder_lays_the_sun_along_the_board_and_faces_it():
    """Placed first (no enemy on the board yet), a unit faces the sun from an edge."""
    first_faced = 0
    for seed in range(12):
        battle = new_battle(scenario("bounce", seed), seed)
        play_out(battle, [CompetentPilot(seed), CompetentPilot(seed + 1)])
        sun = battle.spotting["sun"]
        assert sun in (0, 3), seed  # east or west: the board's 28-hex length
        first = next(e for e in battle.log if e["event"] == "placed")
        first_faced += first["facing"] == sun
    assert first_faced == 12

"""Scenarios and their victory conditions (000 "SCENARIOS"), flight building, results."""

from __future__ import annotations

import pytest
from engine_helpers import advance, at_attack, battle, events, plane, play, pre

from rules.angels20 import (
    CATALOGUE,
    Activate,
    Attack,
    Decline,
    Dice,
    Maneuver,
    Rules,
    Scenario,
    ScenarioError,
    ScriptedDice,
    bomber_escort,
    dogfight,
    flight,
    intercept_the_interceptors,
    limited_fuel,
    new_battle,
    schnellbomber,
    standard_scenario,
    validate_flight,
)
from rules.angels20.actions import STRAIGHT, TURN_LEFT

BF, HURRI, HE111 = "Bf 109E Wingman", "Hurricane Mk I", "He 111 bomber token"


def near_edge_north(name, side, col, **kw):
    """A setup in the map's top row, facing north: one step leaves the map."""
    from rules.angels20 import AircraftSetup

    return AircraftSetup(
        stats=CATALOGUE[name], side=side, col=col, row=0, facing=0, altitude=3, **kw
    )


def test_builtin_scenarios_build_and_round_trip():
    for sc in (dogfight(), intercept_the_interceptors(), limited_fuel(), schnellbomber()):
        assert Scenario.from_json(sc.to_json()) == sc
        s = new_battle(sc, Dice(1))
        assert s.turn == 1 and s.phase == "movement"
    assert limited_fuel().rules.max_turns == 5


def test_dogfight_first_to_drive_off_an_enemy_wins():
    s = battle(
        [plane(BF, "axis", 0, 0, 0), near_edge_north(HURRI, "allied", 25)],
        [6, 6, 1, 1],
        kind="dogfight",
    )
    play(s, Activate(1, 2), STRAIGHT)  # off the north edge
    play(s, Activate(0, 2), STRAIGHT, STRAIGHT)
    assert s.is_over()
    r = s.result()
    assert r["winner"] == "axis" and "first" in r["reason"]
    assert r["aircraft"][1]["fate"] == "retreated" and r["victory_points"] == {
        "axis": CATALOGUE[HURRI].cost / 2,
        "allied": 0.0,
    }


def test_intercept_allied_win_by_climbing_to_5_undamaged():
    s = battle(
        [
            plane(BF, "axis", 0, 6, 0),
            plane(HURRI, "allied", 0, 0, 0, alt=4),
            plane(HURRI, "allied", 4, 0, 0, alt=4),
        ],
        [6, 6, 1, 1, 5, 5, 5, 5],
        kind="intercept",
    )
    play(s, Activate(1, 2), Maneuver("climb"), STRAIGHT)
    assert not s.is_over()
    play(s, Activate(2, 2), Maneuver("climb"), STRAIGHT)
    assert s.is_over() and s.result()["winner"] == "allied"


def test_intercept_a_retreat_does_not_win_but_a_shoot_down_does():
    s = battle(
        [
            plane(BF, "axis", 0, 0, 0),
            near_edge_north(HURRI, "allied", 25),
            plane(HURRI, "allied", 10, 0, 0),
        ],
        [6, 6, 1, 1],
        kind="intercept",
    )
    play(s, Activate(1, 2), STRAIGHT)
    advance(s)
    assert not s.is_over() and s.turn == 2
    s = at_attack(
        [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0), pre(HURRI, "allied", 8, 0, 0)],
        [6, 6, 6, 1, 1, 4],
        kind="intercept",
    )
    s.apply(Attack(0, 1))
    assert s.is_over() and s.result()["winner"] == "axis"


def fuel_battle(**kw):
    return battle(
        [
            plane(BF, "axis", 0, 0, 3, role="fuel_limited"),
            plane(HE111, "axis", 6, 0, 0, role="bomber"),
            plane(HURRI, "allied", 12, 0, 0),
        ],
        [6, 6, 1, 1],
        kind="limited_fuel",
        free_exit_edge="south",
        must_exit_by_turn=1,
        **kw,
    )


def test_limited_fuel_bombers_cannot_turn_until_attacked():
    s = fuel_battle()
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT)
    s.apply(Activate(1, 2))
    assert s.legal_actions() == [STRAIGHT]
    s.planes[1].attacked = True
    assert TURN_LEFT in s.legal_actions()
    assert all(not isinstance(a, Maneuver) for a in s.legal_actions())  # bombers never maneuver


def test_limited_fuel_fighters_out_of_fuel_count_as_destroyed():
    s = fuel_battle(rules=Rules(max_turns=5))
    advance(s)  # turn 1 ends with the Bf 109 still on the map
    d = [e for e in events(s, "destroyed") if e["plane"] == 0]
    assert d and d[0]["how"] == "out of fuel"
    assert s.vp[1] == float(CATALOGUE[BF].cost)
    assert events(s, "survival") == []


def test_limited_fuel_south_exit_is_free_and_undamaged_bombers_win():
    from rules.angels20 import AircraftSetup

    bf = AircraftSetup(
        stats=CATALOGUE[BF], side="axis", col=3, row=29, facing=3, altitude=4, role="fuel_limited"
    )
    s = battle(
        [bf, plane(HE111, "axis", 6, 0, 0, role="bomber"), plane(HURRI, "allied", 12, 0, 0)],
        [6, 6, 1, 1],
        rules=Rules(max_turns=1),
        kind="limited_fuel",
        free_exit_edge="south",
        must_exit_by_turn=1,
    )
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT, Activate(0, 2), STRAIGHT)
    assert events(s, "exit")[0]["edge"] == "south" and s.vp == [0.0, 0.0]
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT)
    r = s.result()
    assert r["winner"] == "axis" and r["reason"] == "neither bomber damaged"


def test_limited_fuel_damaged_bomber_means_victory_points_decide():
    s = battle(
        [
            plane(BF, "axis", 0, 0, 0),
            plane(HE111, "axis", 6, 0, 0, role="bomber"),
            plane(HURRI, "allied", 12, 0, 0),
        ],
        [6, 6, 1, 1],
        rules=Rules(max_turns=1),
        kind="limited_fuel",
        start_vp=(0, 5),
    )
    s.planes[1].damage = 1
    advance(s)
    assert s.result()["winner"] == "allied" and s.result()["reason"] == "most victory points"


def test_schnellbomber_strafing_scores_ten_and_sixty_wins():
    ac = [
        plane(BF, "axis", 0, 0, 0),
        plane("Bf 110C", "axis", 6, 0, 0, alt=1, role="strafer"),
        plane("Spitfire Mk I Ace", "allied", 12, 0, 0),
    ]
    s = battle(ac, [6, 6, 1, 1], kind="schnellbomber", vp_target=60)
    advance(s)
    assert [e["amount"] for e in events(s, "vp")] == [10.0] and not s.is_over()
    # a difficult maneuver that turn: no strafing
    s = battle(ac, [6, 6, 1, 1, 1, 1], kind="schnellbomber", vp_target=60)
    play(s, Activate(2, 2), STRAIGHT, STRAIGHT, Activate(0, 2), STRAIGHT, STRAIGHT)
    play(s, Activate(1, 2), Maneuver("climb"), STRAIGHT)  # fails: stays at altitude 1
    assert s.planes[1].alt == 1 and events(s, "vp") == []
    s = battle(ac, [6, 6, 1, 1], kind="schnellbomber", vp_target=60, start_vp=(50, 0))
    advance(s)
    assert s.is_over() and s.result()["winner"] == "axis" and s.vp[0] == 60.0


@pytest.mark.parametrize(
    "start, winner, over",
    [
        ((60, 0), "axis", True),
        ((60, 60), None, False),
        ((61, 60), "axis", True),
        ((10, 70), "allied", True),
    ],
)
def test_standard_sixty_points_and_ties(start, winner, over):
    ac = [plane(BF, "axis", 0, 0, 0), plane(HURRI, "allied", 10, 0, 0)]
    s = battle(ac, [6, 6, 1, 1], kind="standard", vp_target=60, start_vp=start)
    advance(s)
    assert s.is_over() is over
    if over:
        assert s.result()["winner"] == winner


def test_standard_no_aircraft_left_most_remaining_wins():
    ac = [
        plane(BF, "axis", 0, 0, 0),
        plane(BF, "axis", 3, 0, 0),
        near_edge_north(HURRI, "allied", 25),
    ]
    s = battle(ac, [6, 6, 1, 1], kind="standard", vp_target=60)
    play(s, Activate(2, 2), STRAIGHT)
    advance(s)
    r = s.result()
    assert r["winner"] == "axis" and "most aircraft remaining" in r["reason"]


def test_standard_scenario_rolls_advantage_and_situation():
    axis = flight("axis", 'A6M2 "Zeke"', 'Ki-61 "Tony"')
    allied = flight("allied", "P-40C Flying Tiger", HURRI)
    dice = ScriptedDice([2, 5] + [6, 6, 1, 1])  # advantage: Axis; situation 5
    sc = standard_scenario(axis, allied, dice)
    assert (sc.advantaged_side, sc.situation) == ("axis", 5)
    assert sc.start_vp == (0.0, 20.0)  # the blue (disadvantaged) player's bonus
    assert sc.setup_rolls == (("advantage", 2), ("starting situation", 5))
    s = new_battle(sc, dice)
    assert s.vp == [0.0, 20.0] and events(s, "battle_start")[0]["setup_rolls"] == [
        ["advantage", 2],
        ["starting situation", 5],
    ]
    for sit, bonus in [(1, 0), (4, 10), (6, 30)]:
        sc = standard_scenario(axis, allied, dice, advantage="allied", situation=sit)
        assert sc.start_vp == (float(bonus), 0.0)


def test_flight_building_rules():
    with pytest.raises(ScenarioError, match="2 to 5 aircraft"):
        validate_flight(flight("axis", 'A6M2 "Zeke"'))
    with pytest.raises(ScenarioError, match="over 100"):
        validate_flight(flight("allied", "Spitfire Mk I Ace", "Spitfire Mk I Ace", HURRI))
    with pytest.raises(ScenarioError, match="CHOOSING SIDES"):
        validate_flight(flight("axis", 'A6M2 "Zeke"', HURRI))
    with pytest.raises(ScenarioError, match="YEAR"):
        validate_flight(flight("axis", 'A6M2 "Zeke"', 'Ki-61 "Tony"'), year=1942)
    with pytest.raises(ScenarioError, match="THEATER"):
        validate_flight(flight("axis", BF, "Bf 109E Ace"), theater="South Pacific")
    validate_flight(flight("axis", BF, "Bf 109E Ace"), year=1940, theater="Europe, Western Front")


def test_bomber_escort_both_through_escort_wins():
    from rules.angels20 import AircraftSetup
    from rules.angels20.aircraft import medium_bomber

    b = medium_bomber("United States")
    ac = [
        AircraftSetup(stats=b, side="allied", col=4, row=0, facing=0, altitude=3, role="bomber"),
        AircraftSetup(stats=b, side="allied", col=9, row=0, facing=0, altitude=3, role="bomber"),
        plane("P-40C Flying Tiger", "allied", 0, 6, 0),
        plane(BF, "axis", 6, 6, 0),
    ]
    s = battle(
        ac, [6, 6, 1, 1], kind="bomber_escort", escort_side="allied", bomber_exit_edge="north"
    )
    advance(s)
    r = s.result()
    assert r["winner"] == "allied" and r["reason"] == "both bombers reached the far side"
    assert r["victory_points"] == {"axis": 0.0, "allied": 0.0}


def test_bomber_escort_one_through_fighter_losses_decide():
    from rules.angels20 import AircraftSetup
    from rules.angels20.aircraft import medium_bomber

    b = medium_bomber("United States")
    ac = [
        AircraftSetup(stats=b, side="allied", col=4, row=0, facing=0, altitude=3, role="bomber"),
        AircraftSetup(stats=b, side="allied", col=9, row=12, facing=0, altitude=3, role="bomber"),
        plane("P-40C Flying Tiger", "allied", 0, 6, 0),
        plane(BF, "axis", 6, 6, 0),
    ]
    s = battle(
        ac, [6, 6, 1, 1], kind="bomber_escort", escort_side="allied", bomber_exit_edge="north"
    )
    s.planes[1].out = 1  # the second bomber has been shot down
    s.planes[1].killer = 3
    s.planes[3].out = 1  # and the Bf 109 too, by the P-40
    s.planes[3].killer = 2
    advance(s)
    r = s.result()
    assert r["winner"] == "allied" and "more enemy fighter points" in r["reason"]


def test_bomber_escort_builder():
    sc = bomber_escort(
        flight("allied", "P-40C Flying Tiger", HURRI), flight("axis", BF, "Bf 109E Ace")
    )
    bombers = [a for a in sc.aircraft if a.role == "bomber"]
    assert len(bombers) == 2 and all(a.side == "allied" for a in bombers)
    assert abs(bombers[0].col - bombers[1].col) >= 3  # at least 3 hexes apart
    s = new_battle(sc, Dice(3))
    assert s.phase == "movement"


def test_result_shape_with_kills_and_survival():
    ac = [
        pre(BF, "axis", 0, 2, 0, pilot_ref="pilot-7"),
        pre(HURRI, "allied", 0, 0, 0, pilot_ref="pilot-9"),
        pre(HURRI, "allied", 9, 0, 0),
    ]
    s = at_attack(ac, [6, 6, 6, 1, 1, 5], kind="dogfight", territory=("enemy", "friendly"))
    s.apply(Attack(0, 1))
    assert s.is_over()
    r = s.result()
    assert set(r) == {
        "scenario",
        "kind",
        "winner",
        "reason",
        "victory_points",
        "turns_played",
        "aircraft",
        "kills",
    }
    assert r["kills"] == [
        {
            "attacker": 0,
            "attacker_pilot_ref": "pilot-7",
            "target": 1,
            "target_pilot_ref": "pilot-9",
            "turn": 1,
        }
    ]
    dead = r["aircraft"][1]
    assert dead["fate"] == "destroyed" and dead["destroyed_by_pilot_ref"] == "pilot-7"
    # over friendly territory: 5 + 1 >= 4
    assert (dead["survival_roll"], dead["survival_modifier"], dead["pilot_survived"]) == (
        5,
        1,
        True,
    )
    assert [a["fate"] for a in r["aircraft"]] == ["intact", "destroyed", "intact"]
    assert r["turns_played"] == 1 and r["winner"] == "axis"


def test_pilot_survival_over_enemy_territory():
    ac = [pre(BF, "axis", 0, 0, 0), pre(HURRI, "allied", 0, 2, 0), pre(BF, "axis", 9, 0, 0)]
    s = at_attack(ac, [6, 6, 6, 6, 4], init=(1, 1, 6, 6), territory=("enemy", "friendly"))
    s.apply(Attack(1, 0))
    e = events(s, "survival")[0]
    assert (e["roll"], e["modifier"], e["survived"]) == (4, -1, False)
    if s.current_side() == 0:
        s.apply(Decline())


def test_bomber_escort_no_bomber_through_interceptors_win():
    from rules.angels20 import AircraftSetup
    from rules.angels20.aircraft import medium_bomber

    b = medium_bomber("United States")
    ac = [
        AircraftSetup(stats=b, side="allied", col=4, row=12, facing=0, altitude=3, role="bomber"),
        AircraftSetup(stats=b, side="allied", col=9, row=12, facing=0, altitude=3, role="bomber"),
        plane("P-40C Flying Tiger", "allied", 0, 6, 0),
        plane(BF, "axis", 6, 6, 0),
    ]
    s = battle(
        ac, [6, 6, 1, 1], kind="bomber_escort", escort_side="allied", bomber_exit_edge="north"
    )
    for i in (0, 1):
        s.planes[i].out = 1
        s.planes[i].hex = -1
    advance(s)
    r = s.result()
    assert r["winner"] == "axis" and r["reason"] == "no bomber reached the far side"


def test_pilot_survival_can_be_switched_off():
    ac = [pre(BF, "axis", 0, 2, 0), pre(HURRI, "allied", 0, 0, 0), pre(HURRI, "allied", 9, 0, 0)]
    s = at_attack(ac, [6, 6, 6, 1, 1], rules=Rules(pilot_survival=False))
    s.apply(Attack(0, 1))
    assert events(s, "destroyed") and events(s, "survival") == []

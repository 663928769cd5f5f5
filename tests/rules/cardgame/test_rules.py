"""Setup, the eight phases, the mission rules, victory (003_93ec40e0c2d0344c.txt)."""

from __future__ import annotations

from collections import Counter

import pytest
from campaign_game_helpers import (
    SETUP,
    add_dice,
    assert_cards_consistent,
    empty_hands,
    fresh,
    give_events,
    mission_scenario,
    put_mission,
    put_plane,
    stack_top,
)

from rules.cardgame import (
    ALLIED,
    AXIS,
    MISSIONS,
    Advance,
    Assign,
    ChooseLoss,
    Discard,
    GameSetup,
    RuleError,
    ScrambleFighter,
    Unassign,
    default_setup,
    experience_bonus,
    load_plane_catalog,
    new_game,
    production_draws,
)
from rules.cardgame.state import (
    BOMBING,
    BRIEFING,
    DEBRIEFING,
    EVENT,
    EXPERIENCE,
    INDUSTRY,
    INTERCEPTION,
    LOSSES,
    MISSION,
    OVER,
    PRODUCTION,
    SCRAMBLE,
    STRATEGY,
)
from rules.dice import Dice, ScriptedDice

LANC = "Avro 683 Lancaster"  # HB AF10 SF6
BLEN = "Bristol Blenheim"  # B AF10 SF9
SPIT = "Supermarine Spitfire"  # F AF6 GF9
HURR = "Hawker Hurricane"  # F AF7 GF8 NF
A20 = "Douglas A-20 Havoc"  # B AF10 SF8 GF9 NF
BF109 = "Messerschmitt Bf 109"  # F AF7
FW190 = "Focke Wulf FW 190"  # FB AF6 GF7 NF
HE111 = "Heinkel He 111"  # HB AF10 SF8
STUKA = "Junkers Ju 87 Stuka"  # B AF10 GF7
OIL = "Attack Oilfield"  # S1
CITY = "Attack City"  # S3
CONVOY = "Attack Ground Convoy"  # G1
AMPHIB = "Support Amphibious Landing"  # G2


def pass_window(state):
    step, mission = state.step, state.current_mission
    while state.step == step and state.current_mission == mission and not state.is_over():
        state.apply(Advance(state.current_side()))


def advance_to(state, phase):
    while state.phase != phase:
        state.apply(Advance(state.current_side()))


# -- setup ------------------------------------------------------------------------
def test_decks_exactly_as_listed():
    assert Counter(s.side for s in SETUP.plane_cards.values()) == {ALLIED: 30, AXIS: 34}
    specs = {s.name: s for s in load_plane_catalog()}
    assert specs[BF109].copies == 7 and specs[SPIT].copies == 3
    assert specs[FW190].night_fighter and not specs[BF109].night_fighter
    assert specs[LANC].sf == 6 and specs[LANC].gf is None and specs[LANC].card_type == "HB"
    assert len(SETUP.mission_cards) == 42
    kinds = Counter(m.kind for m in MISSIONS)
    assert kinds == {"G": 15, "S": 16, "E": 11}
    assert [m.level for m in MISSIONS if m.level > 1] == [3, 2, 3, 2]
    assert sum(1 for m in MISSIONS if m.name == "Attack Shipyard") == 2
    assert len(SETUP.event_cards) == 34 and len(set(SETUP.event_cards.values())) == 34


def test_plane_specs_as_plain_data():
    rows = [
        {"name": "Test Fighter", "side": "Allied", "card_type": "F", "copies": 2, "af": 5, "sf": None, "gf": 7,
         "night_fighter": True},
        {"name": "Test Bomber", "side": "Axis", "card_type": "HB", "copies": "3", "af": "10", "sf": "4", "gf": "",
         "night_fighter": "no"},
    ]  # fmt: skip
    setup = default_setup(planes=rows)
    assert setup.plane_decks[ALLIED] == ("allied-c01", "allied-c02")
    assert len(setup.plane_decks[AXIS]) == 3
    spec = setup.plane_cards["axis-c01"]
    assert (spec.af, spec.sf, spec.gf, spec.night_fighter, spec.is_heavy) == (
        10,
        4,
        None,
        False,
        True,
    )
    assert GameSetup.from_json(setup.to_json()) == setup
    with pytest.raises(ValueError):
        default_setup(planes=[{**rows[0], "card_type": "X"}])


def test_setup_pp_rolloff_with_reroll_and_first_event_draw():
    dice = ScriptedDice([4, 4, 3, 8])  # tie, re-roll: axis 8 beats allied 3
    state = new_game(SETUP, dice, shuffle=False)
    assert state.pp == {ALLIED: 10, AXIS: 10} and state.st == {ALLIED: 0, AXIS: 0}
    assert state.active == AXIS and state.phase == EVENT and state.turn == 1
    assert state.first_roll["rolls"] == [{ALLIED: 4, AXIS: 4}, {ALLIED: 3, AXIS: 8}]
    assert len(state.hands[AXIS]) == 2 and state.hands[ALLIED] == []
    roll = next(e for e in state.log if e["type"] == "first_turn_roll")
    assert [d[2] for d in roll["dice"]] == [4, 4, 3, 8]
    assert_cards_consistent(state)


def test_setup_shuffles_are_seeded_and_recorded():
    a = new_game(SETUP, Dice(7))
    b = new_game(SETUP, Dice(7))
    c = new_game(SETUP, Dice(8))
    assert a.to_json() == b.to_json()
    assert a.event_deck != c.event_deck or a.mission_deck != c.mission_deck
    assert a.mission_deck != sorted(a.mission_deck)
    shuffles = [e for e in a.log if e["type"] == "shuffle"]
    assert {e["deck"] for e in shuffles} == {"plane:allied", "plane:axis", "mission", "event"}
    assert all(e["secret"]["dice"] for e in shuffles)


def test_no_missions_on_first_turn():
    state = fresh()
    advance_to(state, MISSION)
    assert state.missions_in_play and any(p["side"] == ALLIED for p in state.planes.values())
    plane = next(p for p, v in state.planes.items() if v["side"] == ALLIED)
    with pytest.raises(RuleError) as err:
        state.apply(Assign(ALLIED, plane, state.missions_in_play[0]))
    assert err.value.rule == "003 'SETUP'"
    assert not any(isinstance(a, Assign) for a in state.legal_actions())


# -- the phases of a turn ---------------------------------------------------------------
def test_phase_sequence_event_industry_production_briefing():
    state = fresh()
    assert len(state.hands[ALLIED]) == 2  # EVENT PHASE: draw 2
    state.apply(Advance(ALLIED))
    assert state.phase == INDUSTRY and state.pp[ALLIED] == 11  # +1 PP
    state.apply(Advance(ALLIED))
    assert state.phase == PRODUCTION
    assert sum(1 for p in state.planes.values() if p["side"] == ALLIED) == 4  # 11 PP -> 4 cards
    assert list(state.planes) == ["allied-1", "allied-2", "allied-3", "allied-4"]
    state.apply(Advance(ALLIED))
    assert state.phase == BRIEFING
    assert len(state.missions_in_play) == 3  # the first three (ground support) cards
    for phase in (MISSION, STRATEGY, EXPERIENCE, DEBRIEFING):
        state.apply(Advance(ALLIED))
        assert state.phase == phase
    state.apply(Advance(ALLIED))
    assert state.phase == EVENT and state.active == AXIS and state.turn == 2
    assert (
        state.missions_in_play == [] and len(state.mission_discard) == 3
    )  # discard missions in play
    assert state.history[-1] == {
        "turn": 1,
        "side": ALLIED,
        "pp": {ALLIED: 11, AXIS: 10},
        "st": {ALLIED: 0, AXIS: 0},
    }
    assert len(state.hands[AXIS]) == 2
    assert_cards_consistent(state)


@pytest.mark.parametrize(
    "pp,cards",
    [
        (0, 0),
        (1, 1),
        (2, 1),
        (3, 2),
        (5, 2),
        (6, 3),
        (9, 3),
        (10, 4),
        (14, 4),
        (15, 5),
        (20, 5),
        (21, 6),
        (40, 6),
    ],
)
def test_production_table(pp, cards):
    assert production_draws(pp) == cards
    state = fresh()
    state.pp[ALLIED] = pp - 1  # +1 in the Industry phase
    advance_to(state, PRODUCTION)
    assert len(state.planes) == cards


def test_briefing_keeps_bombing_missions_and_trades_espionage_for_two_events():
    state = fresh()
    stack_top(state, "mission", [CONVOY, "Pick Up Spy", OIL])
    advance_to(state, BRIEFING)
    names = [state.card_name(m) for m in state.missions_in_play]
    assert names == [CONVOY, OIL]
    assert [state.card_name(m) for m in state.mission_discard] == ["Pick Up Spy"]
    assert len(state.hands[ALLIED]) == 4  # 2 (event phase) + 2 (espionage)


def test_briefing_with_three_espionage_missions():
    state = fresh()
    stack_top(state, "mission", ["Pick Up Spy", "Deliver Message", "Transport General"])
    advance_to(state, BRIEFING)
    assert state.missions_in_play == [] and len(state.hands[ALLIED]) == 8


# -- mission phase ------------------------------------------------------------------------
def test_strategic_mission_needs_one_sf_plane_per_level():
    state, ids = mission_scenario({CITY: [LANC, LANC, SPIT]}, launch=False)
    with pytest.raises(RuleError) as err:
        state.apply(Advance(ALLIED))
    assert err.value.rule == "003 'MISSION PHASE'" and "needs 3" in err.value.message
    assert Advance(ALLIED) not in state.legal_actions()
    b17 = put_plane(state, ALLIED, "Boeing B-17 Flying Fortress")
    state.apply(Assign(ALLIED, b17, ids[f"m:{CITY}"]))
    state.apply(Advance(ALLIED))
    assert state.step == SCRAMBLE


def test_ground_support_mission_needs_one_gf_plane_per_level():
    state, ids = mission_scenario({AMPHIB: [SPIT, LANC]}, launch=False)
    with pytest.raises(RuleError) as err:
        state.apply(Advance(ALLIED))
    assert err.value.rule == "003 'MISSION PHASE'"  # the Lancaster has no GF
    state.apply(Unassign(ALLIED, ids[LANC]))
    hurricane = put_plane(state, ALLIED, HURR)
    state.apply(Assign(ALLIED, hurricane, ids[f"m:{AMPHIB}"]))
    state.apply(Advance(ALLIED))
    assert state.step == SCRAMBLE


def test_a_plane_flies_one_mission_a_turn_and_only_own_planes_in_mission_phase():
    state, ids = mission_scenario({OIL: [LANC], CONVOY: []}, defenders=[BF109], launch=False)
    with pytest.raises(RuleError) as err:
        state.apply(Assign(ALLIED, ids[LANC], ids[f"m:{CONVOY}"]))
    assert err.value.rule == "003 'SCRAMBLE SEGMENT'"
    with pytest.raises(RuleError) as err:
        state.apply(Assign(AXIS, ids[BF109], ids[f"m:{OIL}"]))
    assert err.value.rule == "003 'TURN SEQUENCE'"
    spit = put_plane(state, ALLIED, SPIT)
    with pytest.raises(RuleError) as err:
        state.apply(ScrambleFighter(ALLIED, spit))
    assert err.value.rule == "003 'SCRAMBLE SEGMENT'"
    state.phase = BRIEFING
    state.step = ""
    with pytest.raises(RuleError) as err:
        state.apply(Assign(ALLIED, spit, ids[f"m:{OIL}"]))
    assert err.value.rule == "003 'MISSION PHASE'"


def test_missions_without_planes_are_not_flown():
    state, ids = mission_scenario({OIL: [], CONVOY: []})
    assert state.phase == STRATEGY and state.results == []


def test_scramble_only_fighters_only_defender_once_a_turn():
    state, ids = mission_scenario({OIL: [LANC], "Attack Port": [BLEN]}, defenders=[BF109, HE111])
    assert state.step == SCRAMBLE and state.current_side() == AXIS
    with pytest.raises(RuleError) as err:
        state.apply(ScrambleFighter(AXIS, ids[HE111]))
    assert err.value.rule == "003 'SCRAMBLE SEGMENT'"
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    with pytest.raises(RuleError) as err:
        state.apply(ScrambleFighter(AXIS, ids[BF109]))
    assert err.value.rule == "003 'SCRAMBLE SEGMENT'"
    state.apply(Advance(AXIS))
    with pytest.raises(RuleError) as err:
        state.apply(ScrambleFighter(ALLIED, ids[LANC]))
    assert err.value.rule == "003 'SCRAMBLE SEGMENT'"
    state.apply(Advance(ALLIED))
    assert state.step == INTERCEPTION
    add_dice(state, 1, 1, 1)  # Lancaster, Bf 109, flak: all miss
    pass_window(state)
    assert state.step == BOMBING
    add_dice(state, 1)  # the Lancaster bombs and misses
    pass_window(state)
    assert state.current_mission == ids["m:Attack Port"] and state.step == SCRAMBLE
    assert ScrambleFighter(AXIS, ids[BF109]) not in state.legal_actions()  # already intercepted


def test_interception_rolls_flak_losses_chosen_by_owner_and_kill_credit():
    state, ids = mission_scenario({OIL: [LANC, SPIT]}, defenders=[BF109])
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    pass_window(state)
    # Lancaster 10 (>= AF10 hit), Spitfire 3 (miss), Bf 109 7 (hit), flak 7 (hit, AF 7)
    add_dice(state, 10, 3, 7, 7)
    pass_window(state)
    assert state.step == LOSSES and state.current_side() == ALLIED
    assert state.losses_todo == {ALLIED: [ids[BF109], "flak"], AXIS: [ids[LANC]]}
    with pytest.raises(RuleError) as err:
        state.apply(ChooseLoss(ALLIED, ids[BF109]))
    assert err.value.rule == "003 'INTERCEPTION SEGMENT'"
    assert {a.plane for a in state.legal_actions() if isinstance(a, ChooseLoss)} == {
        ids[LANC],
        ids[SPIT],
    }
    state.apply(ChooseLoss(ALLIED, ids[SPIT]))
    state.apply(ChooseLoss(ALLIED, ids[LANC]))
    assert state.current_side() == AXIS
    state.apply(ChooseLoss(AXIS, ids[BF109]))
    # both attackers are down: no bombing roll, the mission fails
    assert state.phase == STRATEGY
    assert state.results == [
        {"mission": ids[f"m:{OIL}"], "kind": "S", "level": 1, "success": False}
    ]
    assert [(k["shooter"], k["victim"]) for k in state.kills] == [
        (ids[BF109], ids[SPIT]),
        ("flak", ids[LANC]),
        (ids[LANC], ids[BF109]),
    ]
    assert {k["credit_rule"] for k in state.kills} == {"card:roll-order"}
    assert state.planes == {}
    assert sorted(state.plane_discard[ALLIED]) == sorted(
        [state.lost[ids[LANC]]["card"], state.lost[ids[SPIT]]["card"]]
    )
    assert state.lost[ids[SPIT]]["shot_down_by"] == ids[BF109]
    assert state.lost[ids[LANC]]["kills"] == 1
    eng = state.engagements[-1]
    assert eng["losses"] == [ids[SPIT], ids[LANC], ids[BF109]] and eng["pending_hits"] == []
    assert [d[2] for d in eng["dice"]] == [10, 3, 7, 7]
    assert_cards_consistent(state)


def test_default_loss_policy_is_a_real_action():
    state, ids = mission_scenario({OIL: [LANC, SPIT]}, defenders=[BF109], xm={LANC: 3})
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    pass_window(state)
    add_dice(state, 1, 1, 7, 1)  # only the Bf 109 hits
    pass_window(state)
    assert state.step == LOSSES and Advance(ALLIED) in state.legal_actions()
    state.apply(Advance(ALLIED))  # default: fewest experience markers first
    assert ids[SPIT] in state.lost and ids[LANC] in state.planes
    assert state.step == BOMBING


@pytest.mark.parametrize("die,hit", [(6, False), (7, True), (10, True)])
def test_flak_roll_at_af_7(die, hit):
    state, ids = mission_scenario({OIL: [LANC]})
    pass_window(state)
    add_dice(state, 1, die)  # Lancaster misses; flak
    pass_window(state)
    if hit:
        assert state.step == LOSSES and state.losses_todo == {ALLIED: ["flak"]}
    else:
        assert state.step == BOMBING


def test_defending_night_fighters_get_af_plus_one():
    state, ids = mission_scenario({OIL: [A20]}, defenders=[FW190, BF109])  # A-20 attacking NF
    state.apply(ScrambleFighter(AXIS, ids[FW190]))
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    assert state.modifier(ids[FW190], "af") == 1
    assert state.modifier(ids[BF109], "af") == 0
    assert state.modifier(ids[A20], "af") == 0  # a night fighter attacking gets nothing
    pass_window(state)
    add_dice(state, 9, 5, 6, 1)  # A-20 9 (<10), FW 190 5+1 >= 6, Bf 109 6 < 7, flak 1
    pass_window(state)
    rolls = state.log[-2]["rolls"] if state.log[-2]["type"] == "interception" else None
    interception = next(e for e in reversed(state.log) if e["type"] == "interception")
    assert [r["hit"] for r in interception["rolls"]] == [False, True, False, False]
    assert rolls is None or rolls == interception["rolls"]
    assert state.losses_todo == {ALLIED: [ids[FW190]]}


@pytest.mark.parametrize(
    "scramble,die,success", [(False, 5, True), (True, 5, False), (True, 6, True)]
)
def test_air_supremacy_plus_one_when_no_fighter_scrambles(scramble, die, success):
    state, ids = mission_scenario({OIL: [LANC]}, defenders=[BF109])
    if scramble:
        state.apply(ScrambleFighter(AXIS, ids[BF109]))
        add_dice(state, 1, 1, 1)
    else:
        add_dice(state, 1, 1)
    pass_window(state)
    pass_window(state)
    assert state.step == BOMBING
    add_dice(state, die)  # Lancaster SF 6
    pass_window(state)
    bombing = next(e for e in reversed(state.log) if e["type"] == "bombing")
    assert bombing["air_supremacy"] is (not scramble)
    assert bombing["success"] is success
    assert state.phase == STRATEGY
    assert state.pp[AXIS] == (9 if success else 10)


def test_one_successful_bomber_makes_the_mission_a_success_and_ground_support_gives_st():
    state, ids = mission_scenario({AMPHIB: [SPIT, HURR, LANC]}, defenders=[BF109])
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    pass_window(state)
    add_dice(state, 1, 1, 1, 1, 1)
    pass_window(state)
    add_dice(
        state, 2, 8
    )  # Spitfire GF9: 2 fails; Hurricane GF8: 8 succeeds; the Lancaster has no GF
    pass_window(state)
    bombing = next(e for e in reversed(state.log) if e["type"] == "bombing")
    assert [r["plane"] for r in bombing["rolls"]] == [ids[SPIT], ids[HURR]]
    assert bombing["success"] and state.st[ALLIED] == 2 and state.pp[AXIS] == 10


def test_strategy_phase_sums_levels_of_completed_missions():
    state, ids = mission_scenario({OIL: [LANC], "Attack Port": [BLEN], CONVOY: [SPIT]})
    add_dice(state, 1, 1, 6)  # oilfield: no interception hits, Lancaster 6 >= 6-1
    for _ in range(2):
        pass_window(state)
    pass_window(state)
    add_dice(state, 1, 1, 1)  # port: Blenheim 1+1 < 9: fails
    for _ in range(3):
        pass_window(state)
    add_dice(state, 1, 1, 9)  # convoy: Spitfire 9 >= 9
    for _ in range(3):
        pass_window(state)
    assert state.phase == STRATEGY
    assert [r["success"] for r in state.results] == [True, False, True]
    assert state.pp[AXIS] == 9 and state.st[ALLIED] == 1


@pytest.mark.parametrize(
    "xm,bonus", [(0, 0), (1, 0), (2, 1), (4, 1), (5, 2), (8, 2), (9, 3), (15, 3)]
)
def test_experience_thresholds(xm, bonus):
    assert experience_bonus(xm) == bonus
    state, ids = mission_scenario({CONVOY: [SPIT]}, xm={SPIT: xm})
    assert state.modifier(ids[SPIT], "af") == bonus and state.modifier(ids[SPIT], "gf") == bonus
    add_dice(
        state, 6 - bonus if bonus else 5, 1
    )  # Spitfire AF 6: hits exactly when the bonus is counted
    pass_window(state)
    pass_window(state)
    interception = next(e for e in reversed(state.log) if e["type"] == "interception")
    assert interception["rolls"][0]["hit"] is (bonus > 0)


def test_experience_phase_marks_planes_that_flew_and_intercepted():
    state, ids = mission_scenario({OIL: [LANC, SPIT]}, defenders=[BF109, FW190], xm={SPIT: 1})
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    pass_window(state)
    add_dice(state, 10, 1, 1, 1)  # Lancaster shoots down the Bf 109
    pass_window(state)
    state.apply(ChooseLoss(AXIS, ids[BF109]))
    add_dice(state, 1)
    pass_window(state)
    idle = put_plane(state, ALLIED, HURR)
    advance_to(state, EXPERIENCE)
    assert state.planes[ids[LANC]]["xm"] == 1
    assert state.planes[ids[SPIT]]["xm"] == 2  # now a Flier: +1
    assert state.modifier(ids[SPIT], "af") == 1
    assert state.planes[ids[FW190]]["xm"] == 0 and state.planes[idle]["xm"] == 0
    assert ids[BF109] not in state.planes


def test_hand_limit_in_debriefing():
    state = fresh()
    advance_to(state, DEBRIEFING)
    give_events(
        state, ALLIED, ["Storm", "Chaff", "Rockets", "Dogfight", "Scramble", "Overcast", "Surprise"]
    )
    assert len(state.hands[ALLIED]) == 9
    with pytest.raises(RuleError) as err:
        state.apply(Advance(ALLIED))
    assert err.value.rule == "003 'DEBRIEFING PHASE'"
    discards = [a for a in state.legal_actions() if isinstance(a, Discard)]
    assert len(discards) == 9 and Advance(ALLIED) not in state.legal_actions()
    state.apply(discards[0])
    state.apply(discards[1])
    with pytest.raises(RuleError) as err:
        state.apply(discards[2])
    assert err.value.rule == "003 'DEBRIEFING PHASE'"
    state.apply(Advance(ALLIED))
    assert state.active == AXIS and len(state.hands[ALLIED]) == 7 and len(state.event_discard) == 2


def test_empty_deck_is_reshuffled_from_its_discard_with_a_recorded_shuffle():
    state = fresh()
    empty_hands(state)
    state.event_discard.extend(state.event_deck[:-1])
    del state.event_deck[:-1]
    state.dice.extend([1] * 40)  # the shuffle's draws
    state._draw_events(ALLIED, 2, "test")
    assert len(state.hands[ALLIED]) == 2 and state.event_discard == []
    kinds = [e["type"] for e in state.log[-3:]]
    assert kinds == ["reshuffle", "shuffle", "draw_events"]
    assert state.log[-2]["draws"] == 32  # Fisher-Yates over the 33 discarded cards
    assert_cards_consistent(state)


def test_exhausted_deck_and_discard_draw_stops_short():
    state = fresh()
    for side in (ALLIED,):
        state.plane_discard[side] = []
        while state.plane_deck[side][1:]:
            state._put_planes_in_play(side, 1, "test")
    state.pp[ALLIED] = 30
    advance_to(state, PRODUCTION)
    assert sum(1 for p in state.planes.values() if p["side"] == ALLIED) == 30
    assert any(e["type"] == "deck_exhausted" and e["drawn"] == 1 for e in state.log)
    assert_cards_consistent(state)


def test_victory_by_production():
    state, ids = mission_scenario({CITY: [LANC, LANC, "Handley Page Halifax"]})
    state.pp[AXIS] = 2
    add_dice(state, 1, 1, 1, 1, 6, 1, 1)  # no hits; first Lancaster 6 >= 6-1
    for _ in range(3):
        pass_window(state)
    assert state.is_over() and state.phase == OVER
    assert state.result() == {"winner": ALLIED, "reason": "production", "turn": 1,
                              "pp": {ALLIED: 10, AXIS: 0}, "st": {ALLIED: 0, AXIS: 0}}  # fmt: skip
    assert state.legal_actions() == [] and state.history[-1]["pp"][AXIS] == 0
    with pytest.raises(RuleError) as err:
        state.apply(Advance(ALLIED))
    assert err.value.rule == "003 'VICTORY'"


@pytest.mark.parametrize(
    "st_before,opp,wins", [(4, 2, True), (4, 3, False), (3, 0, False), (4, 0, True)]
)
def test_victory_by_strategy_tokens(st_before, opp, wins):
    state, ids = mission_scenario({CONVOY: [SPIT]})
    state.st = {ALLIED: st_before, AXIS: opp}
    add_dice(state, 1, 1, 9)
    for _ in range(3):
        pass_window(state)
    assert state.st[ALLIED] == st_before + 1
    assert state.is_over() is wins
    if wins:
        assert state.winner == ALLIED and state.end_reason == "strategy"


def test_wrong_side_and_wrong_phase_errors_name_the_rule():
    state = fresh()
    with pytest.raises(RuleError) as err:
        state.apply(Advance(AXIS))
    assert err.value.rule == "003 'TURN SEQUENCE'"
    with pytest.raises(RuleError) as err:
        state.apply(Discard(ALLIED, state.hands[ALLIED][0]))
    assert err.value.rule == "003 'DEBRIEFING PHASE'"
    mid = put_mission(state, OIL)
    pid = put_plane(state, ALLIED, LANC)
    with pytest.raises(RuleError) as err:
        state.apply(Assign(ALLIED, pid, mid))
    assert err.value.rule == "003 'MISSION PHASE'"


def test_unassign_before_launch_only():
    state, ids = mission_scenario({OIL: [LANC, SPIT]}, launch=False)
    state.apply(Unassign(ALLIED, ids[SPIT]))
    with pytest.raises(RuleError) as err:
        state.apply(Unassign(ALLIED, ids[SPIT]))
    assert err.value.rule == "003 'MISSION PHASE'"
    state.apply(Advance(ALLIED))
    assert state.attackers_on(ids[f"m:{OIL}"]) == [ids[LANC]]
    with pytest.raises(RuleError) as err:
        state.apply(Unassign(AXIS, ids[LANC]))
    assert err.value.rule == "003 'MISSION PHASE'"


def test_legal_actions_are_exactly_the_actions_apply_accepts():
    state, ids = mission_scenario({OIL: [LANC, SPIT]}, defenders=[BF109, FW190], launch=False,
                                  hands={ALLIED: ["Night Raid", "Industrialization"]})  # fmt: skip
    for _ in range(3):
        side = state.current_side()
        legal = state.legal_actions()
        assert legal == sorted(legal, key=lambda a: (a.kind, str(a)))
        candidates = list(state._candidates(side)) + [
            Advance(other) for other in (ALLIED, AXIS) if other != side
        ]
        for action in candidates:
            clone = state.clone()
            try:
                clone.apply(action)
                accepted = True
            except RuleError:
                accepted = False
            assert accepted is (action in legal), action
        state.apply(Advance(side))

"""Every event card's effect, timing and target (003 "EVENT DECK CARD LIST")."""

from __future__ import annotations

import pytest
from campaign_game_helpers import (
    add_dice,
    assert_cards_consistent,
    fresh,
    give_events,
    mission_scenario,
    put_plane,
    stack_top,
)
from test_rules import A20, BF109, BLEN, CONVOY, FW190, LANC, OIL, SPIT, advance_to, pass_window

from rules.cardgame import (
    ALLIED,
    AXIS,
    EVENT_RULES,
    Advance,
    GiveExperience,
    PlayEvent,
    RuleError,
    ScrambleFighter,
)
from rules.cardgame.state import BOMBING, EXPERIENCE, INDUSTRY, LOSSES, SCRAMBLE, STRATEGY

TYPH = "Hawker Typhoon"  # FB AF8 GF6
FORCES = ("af", "sf", "gf")


def give_priority(state, side):
    if state.current_side() != side:
        state.apply(Advance(state.current_side()))
    assert state.current_side() == side


def s_scenario(hands):
    state, ids = mission_scenario({OIL: [LANC, BLEN, SPIT]}, defenders=[BF109, FW190], hands=hands)
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    state.apply(ScrambleFighter(AXIS, ids[FW190]))
    return state, ids


def g_scenario(hands):
    state, ids = mission_scenario(
        {CONVOY: [A20, TYPH, SPIT]}, defenders=[BF109, FW190], hands=hands
    )
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    state.apply(ScrambleFighter(AXIS, ids[FW190]))
    return state, ids


S_PLANES = (LANC, BLEN, SPIT, BF109, FW190)
ALL_DOWN = {(p, f): -1 for p in S_PLANES for f in FORCES}

# card, scenario, who plays, target, option, expected changes {(plane, force): delta}
MODIFIERS = [
    ("Fighter Escort", "S", ALLIED, "", "", {(BF109, "af"): -1, (FW190, "af"): -1}),
    ("Fighter Escort", "S", AXIS, "", "", {(LANC, "af"): -1, (BLEN, "af"): -1, (SPIT, "af"): -1}),
    ("Daring Low Level Raid", "S", ALLIED, BLEN, "", {(BLEN, "sf"): 1}),
    ("Inclement Weather", "S", AXIS, "", "", ALL_DOWN),
    ("Overcast", "S", ALLIED, "", "", ALL_DOWN),
    ("Saturation Bombing", "S", ALLIED, "", "", {(LANC, "sf"): 2}),
    ("Carpet Bombing", "S", ALLIED, "", "", {(LANC, "sf"): 2}),
    ("Incendiary Bombs", "S", ALLIED, BLEN, "", {(BLEN, "sf"): 2}),
    ("High Explosive Bombs", "G", ALLIED, A20, "", {(A20, "gf"): 2}),
    ("Superior Tactics", "S", AXIS, "", "", {(BF109, "af"): 1, (FW190, "af"): 1}),
    ("Superior Tactics", "S", ALLIED, "", "", {(SPIT, "af"): 1}),
    ("Chaff", "S", ALLIED, "", "", {(BF109, "af"): -2, (FW190, "af"): -2}),
    ("Out of the Sun", "S", AXIS, BF109, "", {(BF109, "af"): 2}),
    ("Out of the Sun", "S", ALLIED, SPIT, "", {(SPIT, "af"): 2}),
    ("Surprise", "S", ALLIED, FW190, "", {(FW190, "af"): -3}),
    ("Precision Bombsights", "S", ALLIED, LANC, "", {(LANC, "sf"): 1, (LANC, "gf"): 1}),
    ("Precision Bombsights", "G", ALLIED, TYPH, "", {(TYPH, "sf"): 1, (TYPH, "gf"): 1}),
    ("Rockets", "S", AXIS, FW190, "af", {(FW190, "af"): 1}),
    ("Rockets", "G", ALLIED, TYPH, "gf", {(TYPH, "gf"): 1}),
    ("Radar Towers", "S", AXIS, "", "", {(BF109, "af"): 1, (FW190, "af"): 1}),
    ("Night Raid", "S", ALLIED, "", "", {(LANC, "sf"): 1, (BLEN, "sf"): 1}),
    ("Daylight Raid", "G", ALLIED, "", "", {(A20, "gf"): 1, (TYPH, "gf"): 1}),
    ("Dogfight", "S", ALLIED, "", "", {(SPIT, "af"): 1, (BF109, "af"): 1, (FW190, "af"): 1}),
    ("Set Piece Attack", "S", ALLIED, "", "", {(LANC, "sf"): 1, (BLEN, "sf"): 1}),
    ("Pathfinder", "S", ALLIED, "", "", {(LANC, "sf"): 1, (BLEN, "sf"): 1}),
    ("Strafing Runs", "G", ALLIED, SPIT, "", {(SPIT, "gf"): 2}),
    ("Scramble", "S", AXIS, "", "", {(BF109, "af"): 1, (FW190, "af"): 1}),
]


def test_every_modifier_card_is_covered():
    covered = {row[0] for row in MODIFIERS}
    assert covered == {n for n, r in EVENT_RULES.items() if r.effect == "modifier"}
    assert len(EVENT_RULES) == 34


@pytest.mark.parametrize(
    "card,scen,side,target,option,expected", MODIFIERS, ids=[f"{r[0]}-{r[2]}" for r in MODIFIERS]
)
def test_modifier_cards(card, scen, side, target, option, expected):
    state, ids = (s_scenario if scen == "S" else g_scenario)({side: [card]})
    planes = [k for k in ids if not k.startswith("m:")]

    def mods():
        return {(p, f): state.modifier(ids[p], f) for p in planes for f in FORCES}

    before = mods()
    give_priority(state, side)
    (cid,) = [c for c in state.hands[side] if state.card_name(c) == card]
    action = PlayEvent(side, cid, ids[target] if target else "", option)
    assert action in state.legal_actions()
    state.apply(action)
    after = mods()
    delta = {k: after[k] - before[k] for k in before if after[k] != before[k]}
    assert delta == expected
    assert cid in state.event_discard and cid not in state.hands[side]
    assert state.mission_mods[-1]["name"] == card
    assert_cards_consistent(state)


def test_modifiers_last_for_the_mission_only():
    state, ids = mission_scenario(
        {OIL: [LANC], "Attack Port": [BLEN]}, hands={ALLIED: ["Night Raid"]}
    )
    give_priority(state, ALLIED)
    state.apply(PlayEvent(ALLIED, state.hands[ALLIED][0]))
    assert state.modifier(ids[LANC], "sf") == 1
    add_dice(state, 1, 1, 1)
    for _ in range(3):
        pass_window(state)
    assert state.step == SCRAMBLE and state.modifier(ids[BLEN], "sf") == 0


def test_bombing_card_turns_a_failed_roll_into_a_success():
    state, ids = mission_scenario(
        {OIL: [BLEN]}, defenders=[BF109], hands={ALLIED: ["Incendiary Bombs"]}
    )
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    add_dice(state, 1, 1, 1)
    pass_window(state)
    pass_window(state)
    assert state.step == BOMBING and state.current_side() == ALLIED
    state.apply(PlayEvent(ALLIED, state.hands[ALLIED][0], ids[BLEN]))
    add_dice(state, 7)  # 7 + 2 >= SF 9
    pass_window(state)
    assert state.results[-1]["success"] and state.pp[AXIS] == 9


def test_air_attack_card_changes_the_interception_roll():
    state, ids = mission_scenario({OIL: [LANC]}, defenders=[FW190], hands={ALLIED: ["Surprise"]})
    state.apply(ScrambleFighter(AXIS, ids[FW190]))
    give_priority(state, ALLIED)
    state.apply(PlayEvent(ALLIED, state.hands[ALLIED][0], ids[FW190]))
    pass_window(state)
    add_dice(state, 1, 7, 1)  # FW 190: 7 + 1 (night fighter) - 3 < 6 (a hit without Surprise)
    pass_window(state)
    assert state.step == BOMBING


@pytest.mark.parametrize(
    "card,side,target,step,rule",
    [
        (
            "Daring Low Level Raid",
            ALLIED,
            LANC,
            SCRAMBLE,
            "003 'EVENT DECK CARD LIST'",
        ),  # heavy bomber
        ("Out of the Sun", ALLIED, LANC, SCRAMBLE, "003 'EVENT DECK CARD LIST'"),  # not a fighter
        ("Incendiary Bombs", ALLIED, SPIT, SCRAMBLE, "003 'EVENT DECK CARD LIST'"),  # not a bomber
        (
            "Incendiary Bombs",
            ALLIED,
            FW190,
            SCRAMBLE,
            "003 'EVENT DECK CARD LIST'",
        ),  # not own plane
        ("Surprise", AXIS, SPIT, SCRAMBLE, "003 'EVENT DECK CARD LIST'"),  # attacker's card
        ("Radar Towers", ALLIED, "", SCRAMBLE, "003 'EVENT DECK CARD LIST'"),  # defender's card
        ("Storm", ALLIED, "m:" + OIL, SCRAMBLE, "003 'EVENT DECK CARD LIST'"),  # defender's card
        ("Chaff", ALLIED, "", BOMBING, "003 'INTERCEPTION SEGMENT'"),  # air attack rolls are over
        ("Heavy Flak", AXIS, "", BOMBING, "003 'INTERCEPTION SEGMENT'"),
        (
            "Storm",
            AXIS,
            "m:" + OIL,
            BOMBING,
            "003 'EVENT DECK CARD LIST'",
        ),  # the mission has been flown
        (
            "Industrialization",
            ALLIED,
            "",
            SCRAMBLE,
            "003 'EVENT DECK CARD LIST'",
        ),  # not during a mission
        ("Rockets", AXIS, BF109, SCRAMBLE, "003 'EVENT DECK CARD LIST'"),  # no af/gf option chosen
    ],
)
def test_event_played_at_the_wrong_time_or_on_the_wrong_target(card, side, target, step, rule):
    state, ids = s_scenario({side: [card]})
    if step == BOMBING:
        add_dice(state, 1, 1, 1, 1, 1, 1)
        pass_window(state)
        pass_window(state)
        assert state.step == BOMBING
    give_priority(state, side)
    cid = state.hands[side][0]
    action = PlayEvent(side, cid, ids.get(target, ""))
    assert action not in state.legal_actions()
    with pytest.raises(RuleError) as err:
        state.apply(action)
    assert err.value.rule == rule


def test_event_cannot_be_played_while_losses_are_chosen():
    state, ids = mission_scenario({OIL: [LANC]}, hands={ALLIED: ["Night Raid"]})
    add_dice(state, 1, 9)
    pass_window(state)
    pass_window(state)
    assert state.step == LOSSES
    with pytest.raises(RuleError) as err:
        state.apply(PlayEvent(ALLIED, state.hands[ALLIED][0]))
    assert err.value.rule == "003 'EVENT DECK CARD LIST'"


@pytest.mark.parametrize("card", ["Industrialization", "Boost Production"])
def test_gain_pp_cards(card):
    state = fresh()
    (cid,) = give_events(state, ALLIED, [card])
    state.apply(PlayEvent(ALLIED, cid))
    assert state.pp[ALLIED] == 11
    state.apply(Advance(ALLIED))
    assert state.phase == INDUSTRY and state.pp[ALLIED] == 12
    (other,) = give_events(state, AXIS, [card])
    with pytest.raises(RuleError) as err:
        state.apply(PlayEvent(AXIS, other))  # not the axis turn
    assert err.value.rule == "003 'TURN SEQUENCE'"


def test_exceed_quotas_puts_a_plane_in_play():
    state = fresh()
    stack_top(state, "plane:allied", [SPIT])
    (cid,) = give_events(state, ALLIED, ["Exceed Quotas"])
    state.apply(PlayEvent(ALLIED, cid))
    assert [(p["id"], state.plane_spec(p["id"]).name) for p in state.planes.values()] == [
        ("allied-1", SPIT)
    ]
    assert_cards_consistent(state)


@pytest.mark.parametrize("card", ["Increase Tempo", "Round the Clock Sorties"])
def test_draw_mission_cards(card):
    state = fresh()
    advance_to(state, "briefing")
    stack_top(state, "mission", [OIL, "Pick Up Spy"])
    a, b = give_events(state, ALLIED, [card, "Storm"])
    state.apply(PlayEvent(ALLIED, a))
    assert state.card_name(state.missions_in_play[-1]) == OIL and len(state.missions_in_play) == 4
    if card == "Increase Tempo":
        (c,) = give_events(state, ALLIED, ["Round the Clock Sorties"])
    else:
        (c,) = give_events(state, ALLIED, ["Increase Tempo"])
    hand = len(state.hands[ALLIED])
    state.apply(PlayEvent(ALLIED, c))  # an espionage card: discarded for 2 event cards
    assert len(state.missions_in_play) == 4 and len(state.hands[ALLIED]) == hand - 1 + 2
    advance_to(state, STRATEGY)
    (d,) = give_events(state, ALLIED, [card])
    with pytest.raises(RuleError) as err:
        state.apply(PlayEvent(ALLIED, d))
    assert err.value.rule == "003 'EVENT DECK CARD LIST'"


def test_pilot_training_gives_three_planes_one_xp_each():
    state = fresh()
    planes = [put_plane(state, ALLIED, n) for n in (SPIT, LANC, BLEN, A20)]
    enemy = put_plane(state, AXIS, BF109)
    (cid,) = give_events(state, ALLIED, ["Pilot Training"])
    state.apply(PlayEvent(ALLIED, cid))
    assert state.pending["remaining"] == 3
    with pytest.raises(RuleError) as err:
        state.apply(Advance(ALLIED))
    assert err.value.rule == "003 'EVENT DECK CARD LIST'"
    assert {a.plane for a in state.legal_actions()} == set(planes)
    with pytest.raises(RuleError):
        state.apply(GiveExperience(ALLIED, enemy))
    state.apply(GiveExperience(ALLIED, planes[0]))
    with pytest.raises(RuleError) as err:
        state.apply(GiveExperience(ALLIED, planes[0]))
    assert err.value.rule == "003 'EVENT DECK CARD LIST'"
    state.apply(GiveExperience(ALLIED, planes[1]))
    state.apply(GiveExperience(ALLIED, planes[3]))
    assert state.pending is None
    assert [state.planes[p]["xm"] for p in planes] == [1, 1, 0, 1]
    state.apply(Advance(ALLIED))


def test_pilot_training_with_fewer_planes_and_with_none():
    state = fresh()
    (cid,) = give_events(state, ALLIED, ["Pilot Training"])
    with pytest.raises(RuleError) as err:
        state.apply(PlayEvent(ALLIED, cid))
    assert err.value.rule == "003 'EVENT DECK CARD LIST'"
    plane = put_plane(state, ALLIED, SPIT)
    state.apply(PlayEvent(ALLIED, cid))
    state.apply(GiveExperience(ALLIED, plane))
    assert state.pending is None and state.planes[plane]["xm"] == 1


@pytest.mark.parametrize("card", ["Storm", "Decoy Target", "Series of Blunders"])
def test_discard_target_mission_cards(card):
    state, ids = mission_scenario(
        {OIL: [LANC], CONVOY: [SPIT]}, defenders=[BF109], hands={AXIS: [card]}
    )
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    state.apply(PlayEvent(AXIS, state.hands[AXIS][0], ids["m:" + OIL]))
    assert (
        ids["m:" + OIL] in state.mission_discard and ids["m:" + OIL] not in state.missions_in_play
    )
    # the next mission is up; the Bf 109 is released and may intercept it
    assert state.current_mission == ids["m:" + CONVOY] and state.step == SCRAMBLE
    assert ScrambleFighter(AXIS, ids[BF109]) in state.legal_actions()
    add_dice(state, 1, 1, 1)
    for _ in range(3):
        pass_window(state)
    advance_to(state, EXPERIENCE)
    assert state.planes[ids[LANC]]["xm"] == 0 and state.planes[ids[SPIT]]["xm"] == 1
    assert [r["mission"] for r in state.results] == [ids["m:" + CONVOY]]
    assert_cards_consistent(state)


def test_discard_a_later_mission():
    state, ids = mission_scenario({OIL: [LANC], CONVOY: [SPIT]}, hands={AXIS: ["Storm"]})
    state.apply(PlayEvent(AXIS, state.hands[AXIS][0], ids["m:" + CONVOY]))
    assert state.current_mission == ids["m:" + OIL]
    add_dice(state, 1, 1, 1)
    for _ in range(3):
        pass_window(state)
    assert state.phase == STRATEGY and len(state.results) == 1


def test_navigation_error_grounds_a_plane_and_the_mission_flies_if_still_strong_enough():
    state, ids = mission_scenario({OIL: [LANC, SPIT]}, hands={AXIS: ["Navigation Error"]})
    state.apply(PlayEvent(AXIS, state.hands[AXIS][0], ids[SPIT]))
    assert ids[SPIT] in state.grounded and state.attackers_on(ids["m:" + OIL]) == [ids[LANC]]
    add_dice(state, 1, 1, 1)
    for _ in range(3):
        pass_window(state)
    advance_to(state, EXPERIENCE)
    assert state.planes[ids[SPIT]]["xm"] == 0 and state.planes[ids[LANC]]["xm"] == 1


def test_navigation_error_on_the_only_bomber_aborts_the_mission():
    state, ids = mission_scenario({OIL: [LANC, SPIT]}, hands={AXIS: ["Navigation Error"]})
    state.apply(PlayEvent(AXIS, state.hands[AXIS][0], ids[LANC]))
    assert state.phase == STRATEGY and state.results == []
    assert ids["m:" + OIL] in state.missions_in_play  # not flown, discarded at debriefing
    assert any(e["type"] == "mission_aborted" for e in state.log)


def test_navigation_error_only_on_attacking_planes():
    state, ids = mission_scenario(
        {OIL: [LANC]}, defenders=[BF109], hands={AXIS: ["Navigation Error"]}
    )
    with pytest.raises(RuleError) as err:
        state.apply(PlayEvent(AXIS, state.hands[AXIS][0], ids[BF109]))
    assert err.value.rule == "003 'EVENT DECK CARD LIST'"


@pytest.mark.parametrize("card", ["Heavy Flak", "Air Defense"])
def test_extra_flak_roll(card):
    state, ids = mission_scenario({OIL: [LANC, BLEN]}, hands={AXIS: [card]})
    state.apply(PlayEvent(AXIS, state.hands[AXIS][0]))
    pass_window(state)
    add_dice(state, 1, 1, 7, 8)  # two flak rolls, both hit
    pass_window(state)
    interception = next(e for e in reversed(state.log) if e["type"] == "interception")
    assert interception["flak_rolls"] == 2
    assert state.losses_todo == {ALLIED: ["flak", "flak"]}

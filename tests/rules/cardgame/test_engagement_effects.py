"""What the card game hands an engine with the interception it waits for: the event
cards in play, the flak rolls and the NF marks (rules.cardgame.effects)."""

from __future__ import annotations

from campaign_game_helpers import mission_scenario
from test_rules import A20, BF109, BLEN, CONVOY, FW190, LANC, OIL, SPIT, pass_window

from rules.cardgame import ALLIED, AXIS, Advance, PlayEvent, ScrambleFighter
from rules.cardgame.effects import INTERCEPTION_EVENTS, engagement_effects, resolve_flak_only
from rules.cardgame.engagement import FLAK
from rules.cardgame.state import AWAITING_RESULT
from rules.dice import ScriptedDice

WAIT = "table"  # a mode that waits for its result, as the engine does (no app registers it)


def _play(state, side, card, target=""):
    if state.current_side() != side:
        state.apply(Advance(state.current_side()))
    state.apply(
        PlayEvent(side, next(c for c in state.hands[side] if state.card_name(c) == card), target)
    )


def _waiting(hands, plays, defenders=(BF109, FW190), attack=(LANC, BLEN, SPIT, A20), option=""):
    state, ids = mission_scenario({OIL: list(attack)}, defenders=list(defenders), hands=hands)
    state.mode_overrides[ids["m:" + OIL]] = WAIT
    for d in defenders:
        state.apply(ScrambleFighter(AXIS, ids[d]))
    for side, card, target in plays:
        if state.current_side() != side:
            state.apply(Advance(state.current_side()))
        cid = next(c for c in state.hands[side] if state.card_name(c) == card)
        state.apply(PlayEvent(side, cid, ids.get(target, ""), option))
    pass_window(state)  # scramble window closes
    pass_window(state)  # interception window closes: the game waits
    assert state.step == AWAITING_RESULT
    return state, ids


def test_no_effects_while_the_game_waits_for_nothing():
    state, _ = mission_scenario({OIL: [LANC]}, defenders=[BF109])
    assert engagement_effects(state) is None


def test_the_interception_events_are_the_air_attack_and_flak_cards():
    assert {
        "Fighter Escort", "Inclement Weather", "Overcast", "Superior Tactics", "Chaff",
        "Out of the Sun", "Surprise", "Rockets", "Radar Towers", "Heavy Flak", "Air Defense",
        "Dogfight", "Scramble",
    } == INTERCEPTION_EVENTS  # fmt: skip


def test_cards_in_play_flak_and_night_fighters_are_handed_over():
    hands = {ALLIED: ["Chaff", "Out of the Sun", "Daylight Raid"], AXIS: ["Heavy Flak", "Surprise"]}
    state, ids = _waiting(hands, [])  # (Surprise is the attacker's card: it stays in hand)
    assert engagement_effects(state)["events"] == []
    assert engagement_effects(state)["flak_rolls"] == 1
    # NF marks: A-20 (attacker) and Fw 190 (defender); the defending one gets +1 in 003
    effects = engagement_effects(state)
    assert sorted(effects["night_fighters"]) == sorted([ids[A20], ids[FW190]])
    assert effects["defending_night_fighters"] == [ids[FW190]]

    state, ids = mission_scenario(
        {OIL: [LANC, BLEN, SPIT, A20]}, defenders=[BF109, FW190], hands=hands
    )
    state.mode_overrides[ids["m:" + OIL]] = WAIT
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    state.apply(ScrambleFighter(AXIS, ids[FW190]))
    _play(state, AXIS, "Heavy Flak")
    _play(state, ALLIED, "Chaff")
    _play(state, ALLIED, "Out of the Sun", ids[SPIT])
    pass_window(state)
    pass_window(state)
    effects = engagement_effects(state)
    assert effects["flak_rolls"] == 2 and effects["flak_af"] == 7
    assert effects["events"] == [
        {"name": "Chaff", "side": ALLIED, "target": "", "force": "af"},
        {"name": "Out of the Sun", "side": ALLIED, "target": ids[SPIT], "force": "af"},
    ]
    # the waiting game's own record is unchanged: engagement_input has only its old keys
    assert set(state.engagement_input) == {
        "mission_id", "mission_name", "mission_kind", "mission_level", "attacker", "defender",
        "attackers", "defenders", "flak_rolls", "flak_af",
    }  # fmt: skip


def test_rockets_for_ground_force_is_not_an_interception_effect():
    state, ids = mission_scenario(
        {CONVOY: [A20, SPIT]}, defenders=[BF109], hands={ALLIED: ["Rockets"]}
    )
    state.mode_overrides[ids["m:" + CONVOY]] = WAIT
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    if state.current_side() != ALLIED:
        state.apply(Advance(state.current_side()))
    state.apply(PlayEvent(ALLIED, state.hands[ALLIED][0], ids[A20], "gf"))
    pass_window(state)
    pass_window(state)
    assert engagement_effects(state)["events"] == []


def _flak_engagement():
    return {
        "mission_id": "m1",
        "attackers": [
            {"plane_id": "allied-1", "experience": 3},
            {"plane_id": "allied-2", "experience": 0},
            {"plane_id": "allied-3", "experience": 0},
        ],
    }


def test_flak_only_shoots_down_the_default_loss_on_seven_or_more():
    effects = {"flak_rolls": 2, "flak_af": 7}
    result = resolve_flak_only(_flak_engagement(), effects, ScriptedDice([7, 6]), mode="engine")
    # one hit (7 >= AF 7), one miss (6): the plane with fewest markers, first in mission order
    assert result.losses == ("allied-2",)
    assert [(k.shooter_id, k.victim_id) for k in result.kills] == [(FLAK, "allied-2")]
    assert result.dice == (("flak 1", 10, 7), ("flak 2", 10, 6))
    both = resolve_flak_only(_flak_engagement(), effects, ScriptedDice([10, 9]), mode="engine")
    assert both.losses == ("allied-2", "allied-3")
    none = resolve_flak_only(_flak_engagement(), effects, ScriptedDice([6, 1]), mode="engine")
    assert none.losses == () and none.kills == ()

"""Whole games with random legal actions; replay, clone, JSON round trip, views."""

from __future__ import annotations

import json
import random

import pytest
from campaign_game_helpers import (
    SETUP,
    assert_cards_consistent,
    fresh,
    give_events,
    mission_scenario,
)

from rules.cardgame import (
    ALLIED,
    AXIS,
    SIDES,
    Advance,
    EngagementResult,
    EnterResult,
    GameState,
    Kill,
    RuleError,
    ScrambleFighter,
    SetEngagementMode,
    action_from_json,
    action_to_json,
    new_game,
    other,
    replay,
    spectator_view,
    view_for,
)
from rules.cardgame.engagement import STANDARD_RESOLUTION
from rules.cardgame.state import AWAITING_RESULT, BOMBING, STRATEGY
from rules.cardgame.visibility import _log_entry
from rules.dice import Dice

SEEDS = range(30)
TURN_CAP = 100


def hidden_tokens(state: GameState, viewer: str | None) -> list[str]:
    """The ids and names (as JSON strings) of every hand but the viewer's."""
    tokens = []
    for side in SIDES:
        if side != viewer:
            for card in state.hands[side]:
                tokens += [f'"{card}"', f'"{state.card_name(card)}"']
    return tokens


def check_view(state: GameState, viewer: str | None, log_since: int) -> None:
    """No view shows a hand other than the viewer's (neither card ids nor
    names), a deck's order (only counts), or a shuffle's secret."""
    view = view_for(state, viewer, log_since=log_since)
    text = json.dumps(view)
    for token in hidden_tokens(state, viewer):
        assert token not in text, (viewer, token)
    assert '"secret"' not in text and '"private"' not in text and '"order"' not in text
    assert isinstance(view["decks"]["event"], int) and isinstance(view["decks"]["mission"], int)
    assert all(isinstance(n, int) for n in view["decks"]["plane"].values())


def check_new_log_entries(state: GameState, log_since: int) -> None:
    """The cheap per-action part: the log entries just added, as each viewer sees them."""
    for viewer in (*SIDES, None):
        text = json.dumps([_log_entry(e, viewer) for e in state.log[log_since:]])
        for token in hidden_tokens(state, viewer):
            assert token not in text, (viewer, token)
        assert '"secret"' not in text


WEIGHTS = {"assign": 4.0, "unassign": 0.5, "scramble": 2.0}


def pick(rng: random.Random, actions: list) -> object:
    """A random legal action: a random kind of action first (advance, assign,
    play...; assignments and scrambles weighted up so that planes fly), then a
    random action of that kind, so that the hundreds of possible assignments
    do not swamp everything else."""
    kinds = sorted({a.kind for a in actions})
    weights = [WEIGHTS.get(k, 1.0) for k in kinds]
    if "advance" not in kinds and "unassign" in kinds:  # an under-strength mission: undo
        weights[kinds.index("unassign")] = 2.0
    kind = rng.choices(kinds, weights=weights)[0]
    return rng.choice([a for a in actions if a.kind == kind])


def play_random(
    seed: int, *, check: str = "", turn_cap: int = TURN_CAP
) -> tuple[GameState, list[dict]]:
    """``check``: "" none; "step" the per-action invariants (cards in exactly
    one place, PP/ST >= 0, the new log entries hide the hands; full views of
    all three viewers at every change of turn and every 50 actions); "full"
    all three full views after every action."""
    state = new_game(SETUP, Dice(seed))
    rng = random.Random(seed)
    record: list[dict] = []
    while not state.is_over() and state.turn <= turn_cap:
        actions = state.legal_actions()
        assert actions, f"no legal action at turn {state.turn} {state.phase}/{state.step}"
        if check == "full":
            assert all(a.side == state.current_side() for a in actions)
        action = pick(rng, actions)
        log_len, turn = len(state.log), state.turn
        state.apply(action)
        record.append(action_to_json(action))
        if check:
            assert_cards_consistent(state)
            assert all(v >= 0 for v in (*state.pp.values(), *state.st.values()))
            if check == "full" or state.turn != turn or len(record) % 50 == 0:
                for viewer in (*SIDES, None):
                    check_view(state, viewer, log_len)
            else:
                check_new_log_entries(state, log_len)
            if len(record) % 499 == 0:
                assert state.clone().to_json() == state.to_json()
                assert (
                    GameState.from_json(json.loads(json.dumps(state.to_json()))).to_json()
                    == state.to_json()
                )
    return state, record


def test_random_games_to_victory_keep_every_invariant(capsys):
    finished = []
    for seed in SEEDS:
        state, record = play_random(seed, check="step")
        finished.append((seed, state.winner, state.end_reason, state.turn, len(record)))
        if state.is_over():
            assert state.winner in SIDES
            opp = other(state.winner)
            assert state.pp[opp] == 0 or (
                state.st[state.winner] >= 5 and state.st[state.winner] >= 2 * state.st[opp]
            )
    over = [f for f in finished if f[1] is not None]
    with capsys.disabled():
        turns = sorted(f[3] for f in over)
        print(
            f"\n[campaign game] {len(over)}/{len(finished)} random games reached victory before turn {TURN_CAP};"
            f" turns min/median/max {turns[0]}/{turns[len(turns) // 2]}/{turns[-1]};"
            f" by production {sum(f[2] == 'production' for f in over)}, by strategy {sum(f[2] == 'strategy' for f in over)}"
        )
    assert len(over) >= 0.9 * len(finished)


@pytest.mark.parametrize("seed", [100, 101, 102])
def test_random_play_with_full_views_after_every_action(seed):
    state, record = play_random(seed, check="full", turn_cap=25)
    assert record


@pytest.mark.parametrize("seed", [3, 11])
def test_replay_gives_the_same_state(seed):
    state, record = play_random(seed)
    again = replay(SETUP, seed, record)
    assert again.to_json() == state.to_json()
    again = replay(SETUP, seed, [action_from_json(a) for a in record[:500]])
    assert again.to_json() == replay(SETUP, seed, record[:500]).to_json()


def test_json_round_trip_and_clone_continue_identically():
    state, record = play_random(5)
    partial = replay(SETUP, 5, record[:300])
    data = json.loads(json.dumps(partial.to_json()))
    restored = GameState.from_json(data)
    assert restored.to_json() == partial.to_json()
    copy = partial.clone()
    for a in record[300:]:
        restored.apply(action_from_json(a))
        copy.apply(action_from_json(a))
    assert restored.to_json() == state.to_json() == copy.to_json()
    # the clone is independent
    before = partial.to_json()
    copy.pp[ALLIED] = 99
    copy.hands[AXIS].append("x")
    assert partial.to_json() == before


def test_scripted_dice_state_round_trip():
    state, ids = mission_scenario({"Attack Oilfield": ["Avro 683 Lancaster"]})
    state.dice.extend([1, 1, 6])
    restored = GameState.from_json(json.loads(json.dumps(state.to_json())))
    for s in (state, restored):
        while s.phase != STRATEGY:
            s.apply(Advance(s.current_side()))
    assert restored.to_json() == state.to_json() and state.pp[AXIS] == 9


def test_view_for_hides_the_other_hand_and_the_deck_order():
    state = fresh()
    give_events(state, AXIS, ["Storm", "Chaff"])
    allied, axis, spectator = view_for(state, ALLIED), view_for(state, AXIS), spectator_view(state)
    assert [c["name"] for c in allied["hand"]] == [state.card_name(c) for c in state.hands[ALLIED]]
    assert [c["name"] for c in axis["hand"]] == ["Storm", "Chaff"]
    assert allied["hand_counts"] == {ALLIED: 2, AXIS: 2} and spectator["hand"] is None
    assert "Storm" not in json.dumps(allied) and "Storm" not in json.dumps(spectator)
    draw = next(e for e in allied["log"] if e["type"] == "draw_events")
    assert draw["names"] and "names" not in next(
        e for e in axis["log"] if e["type"] == "draw_events"
    )
    assert allied["decks"] == {"plane": {ALLIED: 30, AXIS: 34}, "mission": 42, "event": 30}
    assert (
        allied["legal_actions"] == [{"type": "advance", "side": ALLIED}]
        and axis["legal_actions"] == []
    )
    shuffled = new_game(SETUP, Dice(1))
    text = json.dumps(view_for(shuffled, ALLIED))
    assert "secret" not in text and not any(
        e["type"] == "shuffle" and "dice" in e for e in view_for(shuffled, ALLIED)["log"]
    )
    assert view_for(state, ALLIED, log_since=len(state.log))["log"] == []


# -- the engagement resolution step ---------------------------------------------------------
def test_engagement_resolver_is_pluggable_with_the_same_result_shape():
    seen = []

    def engine(engagement, dice):  # a stand-in "engine" that decides losses itself
        seen.append(engagement)
        lanc = engagement.attackers[0].plane_id
        bf = engagement.defenders[0].plane_id
        return EngagementResult(mode="engine", mission_id=engagement.mission_id, losses=(bf,),
                                kills=(Kill(lanc, bf, "engine:tail-gunner"),))  # fmt: skip

    state, ids = mission_scenario(
        {"Attack Oilfield": ["Avro 683 Lancaster"]}, defenders=["Messerschmitt Bf 109"]
    )
    # the game's own resolution, passed with it: no registry, nothing to restore
    state.resolution = STANDARD_RESOLUTION.with_mode("engine", engine)
    state = state.clone()  # and a copy of the game resolves as the game does
    state.mode_overrides[ids["m:Attack Oilfield"]] = "engine"
    state.apply(ScrambleFighter(AXIS, ids["Messerschmitt Bf 109"]))
    for _ in range(4):
        state.apply(Advance(state.current_side()))
    assert (
        seen[0].attackers[0].af == 10
        and seen[0].flak_rolls == 1
        and seen[0].defenders[0].side == AXIS
    )
    assert state.step == BOMBING and ids["Messerschmitt Bf 109"] in state.lost
    assert state.kills[-1]["credit_rule"] == "engine:tail-gunner"
    assert state.engagements[-1]["mode"] == "engine"
    # another game keeps the standard resolution: its engine engagement waits for a result
    other, ids = mission_scenario(
        {"Attack Oilfield": ["Avro 683 Lancaster"]}, defenders=["Messerschmitt Bf 109"]
    )
    other.mode_overrides[ids["m:Attack Oilfield"]] = "engine"
    other.apply(ScrambleFighter(AXIS, ids["Messerschmitt Bf 109"]))
    for _ in range(4):
        other.apply(Advance(other.current_side()))
    assert other.step == AWAITING_RESULT and len(seen) == 1


def test_table_mode_waits_for_an_entered_result_and_checks_it():
    # "table" waits for its result in every game (STANDARD_RESOLUTION)
    state, ids = mission_scenario({"Attack Oilfield": ["Avro 683 Lancaster"]}, launch=False)
    oil, lanc = ids["m:Attack Oilfield"], ids["Avro 683 Lancaster"]
    state.apply(SetEngagementMode(oil, "table"))
    state.apply(Advance(ALLIED))  # launch
    for _ in range(4):
        state.apply(Advance(state.current_side()))
    assert (
        state.step == AWAITING_RESULT
        and state.current_side() is None
        and state.legal_actions() == []
    )
    assert state.engagement_input["attackers"][0]["plane_id"] == lanc
    assert view_for(state, AXIS)["engagement_input"]["mission_id"] == oil
    with pytest.raises(RuleError) as err:
        state.apply(Advance(ALLIED))
    assert err.value.rule == "003 'INTERCEPTION SEGMENT'"
    bad = EngagementResult("table", oil, losses=("axis-99",))
    with pytest.raises(RuleError) as err:
        state.apply(EnterResult(json.dumps(bad.to_json())))
    assert err.value.rule == "003 'INTERCEPTION SEGMENT'"
    with pytest.raises(RuleError) as err:
        state.apply(EnterResult("{not json"))
    assert err.value.rule == "003 'INTERCEPTION SEGMENT'"
    with pytest.raises(RuleError) as err:
        state.apply(SetEngagementMode(oil, "card"))  # too late
    assert err.value.rule == "003 'INTERCEPTION SEGMENT'"
    good = EngagementResult("table", oil, retreats=(lanc,))
    state.apply(EnterResult(json.dumps(good.to_json())))
    assert (
        state.phase == STRATEGY and state.results[-1]["success"] is False
    )  # retreated: no bombing roll
    assert state.engagements[-1]["retreats"] == [lanc]


def test_umpire_actions_are_recorded_and_replayed():
    state = new_game(SETUP, Dice(4))
    rng = random.Random(4)
    record = []
    while state.turn < 12 and not state.is_over():
        if state.step == AWAITING_RESULT:
            m = state.current_mission
            victim = state.engagement_input["attackers"][0]["plane_id"]
            shooter = (state.engagement_input["defenders"] or [{"plane_id": "flak"}])[0]["plane_id"]
            result = EngagementResult(
                "table", m, losses=(victim,), kills=(Kill(shooter, victim, "table:entered"),)
            )
            action = EnterResult(json.dumps(result.to_json()))
        elif state.step == "scramble" and state.current_mission not in state.mode_overrides:
            action = SetEngagementMode(state.current_mission, "table")
        else:
            action = pick(rng, state.legal_actions())
        state.apply(action)
        record.append(action_to_json(action))
    assert any(e["type"] == "engagement_result" for e in state.log)
    assert {k["credit_rule"] for k in state.kills} == {"table:entered"}
    assert replay(SETUP, 4, record).to_json() == state.to_json()


def test_unknown_engagement_mode_is_refused_before_anything_moves():
    state, ids = mission_scenario({"Attack Oilfield": ["Avro 683 Lancaster"]})
    with pytest.raises(RuleError) as err:
        state.apply(SetEngagementMode(ids["m:Attack Oilfield"], "nonsense"))
    assert err.value.rule == "003 'INTERCEPTION SEGMENT'"
    state.mode_overrides[ids["m:Attack Oilfield"]] = (
        "nonsense"  # e.g. a resolver unregistered since
    )
    state.apply(Advance(AXIS))
    state.apply(Advance(ALLIED))
    state.apply(Advance(ALLIED))
    before = state.to_json()
    with pytest.raises(RuleError) as err:
        state.apply(Advance(AXIS))
    assert err.value.rule == "003 'INTERCEPTION SEGMENT'"
    assert state.to_json() == before


def test_engagement_result_json_round_trip():
    state, ids = mission_scenario({"Attack Oilfield": ["Avro 683 Lancaster"]})
    state.dice.extend([10, 9])
    for _ in range(4):
        state.apply(Advance(state.current_side()))
    result = EngagementResult.from_json(state.engagement)
    assert result.to_json() == state.engagement and result.pending_hits == ((ALLIED, ("flak",)),)
    assert [r.hit for r in result.rolls] == [True, True]

"""Issue 24 §2: a force roll's modifier carries its sources in the card game's
event records, so the campaign log can name the cards behind it (the sentences:
tests/campaign/test_log_modifier_sources.py)."""

from __future__ import annotations

from campaign_game_helpers import add_dice, mission_scenario
from test_rules import BF109, LANC, OIL, pass_window

from rules.cardgame import ALLIED, AXIS, Advance, PlayEvent, ScrambleFighter


def _play(state, side, name):
    if state.current_side() != side:
        state.apply(Advance(state.current_side()))
    card = next(c for c in state.hands[side] if state.card_name(c) == name)
    state.apply(PlayEvent(side, card))


def _logged(state, kind):
    return [e for e in state.log if e["type"] == kind]


def test_a_bombing_roll_names_each_card_behind_its_modifier():
    state, ids = mission_scenario(
        {OIL: [LANC]}, hands={ALLIED: ["Night Raid", "Inclement Weather"]}
    )
    _play(state, ALLIED, "Night Raid")
    _play(state, ALLIED, "Inclement Weather")
    add_dice(state, *[1] * 6)
    while not _logged(state, "bombing"):
        pass_window(state)
    (roll,) = _logged(state, "bombing")[0]["rolls"]
    assert roll["modifiers"] == [["Night Raid", 1], ["Inclement Weather", -1], ["air supremacy", 1]]
    assert roll["modifier"] == 1


def test_an_interception_roll_names_each_card_behind_its_modifier():
    state, ids = mission_scenario(
        {OIL: [LANC]}, defenders=[BF109], hands={AXIS: ["Inclement Weather"]}
    )
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    _play(state, AXIS, "Inclement Weather")
    add_dice(state, *[1] * 6)
    while not _logged(state, "interception"):
        pass_window(state)
    rolls = {r["shooter_id"]: r for r in _logged(state, "interception")[0]["rolls"]}
    fighter = rolls[ids[BF109]]
    assert ["Inclement Weather", -1] in [list(m) for m in fighter["modifiers"]]
    assert sum(a for _, a in fighter["modifiers"]) == fighter["modifier"]

"""Every entry type the card game logs reads as a sentence (campaign.log_sentences).

The types are read out of the card game's source (every ``_log("<type>", ...)`` in
rules/cardgame/), so a new type without a sentence, or without an example here, fails."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from campaign.log_sentences import SENTENCES, LogNames, log_sentence
from rules.cardgame import default_setup, new_game
from rules.cardgame.commander import COMMANDERS
from rules.cardgame.visibility import view_for
from rules.dice import Dice, derive_seed

CARDGAME = Path(__file__).resolve().parents[2] / "rules" / "cardgame"
LOGGED = re.compile(r'_log\(\s*"(\w+)"')


def logged_types() -> set[str]:
    return {t for path in CARDGAME.rglob("*.py") for t in LOGGED.findall(path.read_text())}


def _names() -> LogNames:
    names = LogNames(viewer="axis")
    names.planes = {
        "axis-1": {"name": "Junkers Ju 88", "pilot_id": 41, "pilot": "Lt. Hans Wolf"},
        "axis-2": {"name": "Messerschmitt Bf 109"},
        "allied-3": {"name": "Supermarine Spitfire"},
    }
    names.missions = {"m30": "Attack Radar Towers", "m02": "Support Amphibious Landing"}
    names.battles = {(3, "m02"): [{"label": "battle #7 (finished)", "url": "/battles/7/"}]}
    return names


B = {"n": 1, "turn": 3, "side": "axis", "phase": "mission"}
# one example of every entry type, and the words its sentence must contain
EXAMPLES: dict[str, tuple[dict, list[str]]] = {
    "setup": ({"pp": {"allied": 10, "axis": 10}, "decks": {"plane": {"allied": 30, "axis": 34}, "mission": 42, "event": 34}},
              ["The campaign begins", "Production Points allied 10, axis 10", "mission deck 42"]),
    "shuffle": ({"deck": "plane:axis", "cards": 34, "draws": 33}, ["The axis plane deck is shuffled (34 cards)."]),
    "first_turn_roll": ({"rolls": [{"allied": 3, "axis": 4}], "first": "axis"},
                        ["allied rolls 3, axis rolls 4", "Axis takes the first turn."]),
    "draw_events": ({"who": "axis", "reason": "event phase", "count": 2, "names": ["Rockets", "Chaff"]},
                    ["Axis draws 2 event cards (event phase): Rockets, Chaff."]),
    "pp": ({"who": "axis", "change": 1, "pp": 11, "reason": "industry"},
           ["Axis gains 1 Production Point (the Industry phase): now 11 PP."]),
    "planes_into_play": ({"who": "axis", "reason": "production (11 PP)", "planes": [{"id": "axis-1", "card": "c", "name": "Junkers Ju 88"}]},
                         ["Axis puts 1 plane into play (production (11 PP)): Junkers Ju 88 (axis-1), flown by Lt. Hans Wolf."]),
    "espionage": ({"mission": "m33", "name": "Drop Off Saboteurs", "reason": "briefing"},
                  ["espionage mission m33 is drawn (briefing) and discarded for 2 event cards"]),
    "mission_into_play": ({"mission": "m30", "name": "Attack Radar Towers", "kind": "S", "level": 1, "reason": "briefing"},
                          ["The mission Attack Radar Towers (strategic bombing, level 1) comes into play (briefing)."]),
    "first_turn": ({"note": "003 SETUP"}, ["Axis's first turn: no missions may be flown. (rulebook 003, Setup)"]),
    "launch": ({"missions": {"m30": ["axis-1", "axis-2"]}},
               ["Axis launches: Attack Radar Towers with Junkers Ju 88 (axis-1), flown by Lt. Hans Wolf; Messerschmitt Bf 109 (axis-2)."]),
    "strategy": ({"st_gained": 1, "pp_destroyed": 0, "st": {"allied": 0, "axis": 1}, "pp": {"allied": 10, "axis": 11}},
                 ["Strategy phase: Axis gains 1 Strategy Token and destroys 0", "ST allied 0, axis 1"]),
    "experience": ({"planes": {"axis-2": 3}}, ["gains 1 experience marker: Messerschmitt Bf 109 (axis-2) (now 3)."]),
    "debriefing": ({"discarded_missions": ["m30"]}, ["the missions in play are discarded: Attack Radar Towers."]),
    "assign": ({"plane": "axis-2", "mission": "m30"}, ["Axis assigns Messerschmitt Bf 109 (axis-2) to Attack Radar Towers."]),
    "unassign": ({"plane": "axis-2", "mission": "m30"}, ["Axis takes Messerschmitt Bf 109 (axis-2) off Attack Radar Towers."]),
    "scramble": ({"plane": "allied-3", "mission": "m30"}, ["Allied scrambles Supermarine Spitfire (allied-3) against Attack Radar Towers."]),
    "engagement_mode": ({"mission": "m02", "mode": "engine"}, ["engagement over Support Amphibious Landing resolved by the tactical engine"]),
    "pass": ({"who": "allied", "step": "scramble"}, ["Allied passes (scramble segment)."]),
    "mission_start": ({"mission": "m30", "name": "Attack Radar Towers", "kind": "S", "level": 1, "attackers": ["axis-2"]},
                      ["Mission Attack Radar Towers (strategic bombing, level 1) is flown by Messerschmitt Bf 109 (axis-2)."]),
    "engagement_start": ({"mission": "m02", "mode": "engine", "engagement": {}},
                         ["interception over Support Amphibious Landing is resolved by the tactical engine", "(report: battle #7 (finished))."]),
    "interception": ({"mission": "m02", "mode": "card", "rolls": [
        {"shooter_id": "axis-2", "side": "axis", "die": 5, "modifier": -1, "target": 7, "hit": False},
        {"shooter_id": "allied-3", "side": "allied", "die": 9, "modifier": 1, "target": 6, "hit": True},
        {"shooter_id": "flak", "side": "allied", "die": 7, "modifier": 0, "target": 7, "hit": True}]},
        ["axis 0 hits in 1, allied 2 hits in 2", "Messerschmitt Bf 109 (axis-2) rolls 5-1 against 7: miss", "flak rolls 7 against 7: hit"]),
    "losses_to_choose": ({"hits": {"axis": 4, "allied": 3}},
                         ["Axis must choose 4 planes shot down and Allied must choose 3 planes shot down"]),
    "loss_chosen": ({"who": "axis", "plane": "axis-2"}, ["Axis gives up Messerschmitt Bf 109 (axis-2) as shot down."]),
    "loss_default": ({"who": "axis", "planes": ["axis-2"]}, ["the least experienced: Messerschmitt Bf 109 (axis-2)."]),
    "engagement_result": ({"mission": "m02", "losses": ["axis-2"], "retreats": [],
                           "kills": [{"shooter_id": "allied-3", "victim_id": "axis-2", "credit_rule": "card"}]},
                          ["Over Support Amphibious Landing: Messerschmitt Bf 109 (axis-2) shot down by Supermarine Spitfire (allied-3) (report: battle #7 (finished))."]),
    "bombing": ({"mission": "m30", "force": "sf", "air_supremacy": True, "success": True,
                 "rolls": [{"plane": "axis-1", "die": 6, "modifier": 1, "target": 7, "success": True}]},
                ["Bombing Attack Radar Towers (SF rolls with air supremacy", "the mission succeeds", "rolls 6+1 against 7: hit"]),
    "mission_discarded": ({"mission": "m30", "reason": "Decoy Target"}, ["The mission Attack Radar Towers is discarded (the card Decoy Target)."]),
    "mission_aborted": ({"mission": "m30", "reason": "Navigation Error: under strength"},
                        ["The mission Attack Radar Towers is called off (Navigation Error: under strength)."]),
    "play_event": ({"who": "axis", "card": "e21", "name": "Rockets", "target": "axis-2", "option": "gf"},
                   ["Axis plays Rockets on Messerschmitt Bf 109 (axis-2) (GF)."]),
    "discard": ({"who": "axis", "card": "e03", "name": "Overcast", "reason": "hand limit"}, ["Axis discards Overcast (over the hand limit"]),
    "reshuffle": ({"deck": "event", "cards": 33}, ["The event deck ran out: its 33 discarded cards are shuffled into a new deck."]),
    "deck_exhausted": ({"deck": "plane:axis", "wanted": 6, "drawn": 3},
                       ["The axis plane deck and its discard pile are empty: 3 of 6 cards drawn."]),
    "correction": ({"pp": {"allied": 12}, "st": {}}, ["The umpire corrects the running totals: PP allied 12."]),
    "pilot_experience": ({"planes": {"axis-2": 9}}, ["Pilots bring their experience to the planes they were given: Messerschmitt Bf 109 (axis-2) starts with 9 XM (Ace)."]),
    "victory": ({"winner": "axis", "reason": "strategy", "pp": {"allied": 15, "axis": 19}, "st": {"allied": 2, "axis": 5}},
                ["Axis wins the campaign by holding twice the opponent's Strategy Tokens (minimum 5)"]),
}  # fmt: skip


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", str(html))).split())


def test_every_logged_type_has_a_sentence_and_an_example():
    types = logged_types()
    assert len(types) >= 30  # the reading of the source found the log calls
    assert types - set(SENTENCES) == set(), "log types without a sentence"
    assert types - set(EXAMPLES) == set(), "log types without an example in this test"


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_the_sentence_of(kind):
    data, wanted = EXAMPLES[kind]
    html = log_sentence({**B, "type": kind, **data}, _names())
    text = _text(html).replace(" )", ")").replace("( ", "(").replace(" ,", ",").replace(" .", ".")
    text = text.replace(" ;", ";").replace(" :", ":")
    for words in wanted:
        assert words in text, f"{kind}: {words!r} not in {text!r}"
    assert "{'" not in text and "=" not in text


def test_sentences_link_pilots_battles_and_cards():
    names = _names()
    result = log_sentence(
        {**B, "type": "engagement_result", **EXAMPLES["engagement_result"][0]}, names
    )
    assert '<a href="/battles/7/">battle #7 (finished)</a>' in result
    assert '<a href="/pilots/41/">Lt. Hans Wolf</a>' in log_sentence(
        {**B, "type": "assign", "plane": "axis-1", "mission": "m30"}, names
    )
    played = log_sentence(
        {
            **B,
            "type": "play_event",
            "who": "axis",
            "card": "e",
            "name": "Out of the Sun",
            "target": "",
            "option": "",
        },
        names,
    )
    assert 'href="#event-out-of-the-sun"' in played
    # another side's draw names no card (the entry as the other side's view gives it)
    drawn = log_sentence(
        {**B, "type": "draw_events", "who": "allied", "reason": "event phase", "count": 2}, names
    )
    assert _text(drawn) == "Allied draws 2 event cards (event phase)."
    # a name is escaped, never markup
    names.planes["axis-9"] = {"name": "<b>Me 262</b>"}
    assert "&lt;b&gt;" in log_sentence(
        {**B, "type": "assign", "plane": "axis-9", "mission": "m30"}, names
    )


def test_a_played_game_reads_as_sentences_for_both_sides():
    state = new_game(default_setup(), Dice(5, record=False))
    dice = {s: Dice(derive_seed(5, f"commander {s}"), record=False) for s in ("allied", "axis")}
    for _ in range(2500):
        side = state.current_side()
        if side is None:
            break
        state.apply_unchecked(COMMANDERS["random"](state, side, dice[side]))
    for viewer in ("allied", "axis", None):
        view = view_for(state, viewer)
        names = LogNames(viewer=viewer)
        names.learn(view["log"])
        seen = set()
        for entry in view["log"]:
            text = _text(log_sentence(entry, names))
            assert "no sentence yet" not in text and "{'" not in text, entry
            seen.add(entry["type"])
        assert {"interception", "engagement_result", "bombing", "assign"} <= seen
        if viewer is None:  # a spectator never reads a drawn card's name
            assert not any("names" in e for e in view["log"])


def test_every_kind_of_a_sides_action_has_a_form_on_the_page():
    from campaign.decisions import GROUPED_KINDS
    from rules.cardgame.actions import ACTION_TYPES

    assert set(ACTION_TYPES) - {"mode", "result"} == GROUPED_KINDS

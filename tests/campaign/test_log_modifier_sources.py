"""Issue 24 §2: the campaign log names the cards behind a roll's modifier, and a
mission nobody intercepts reads as what happened (the flak alone), not as a
battle in the browser followed by the card game's dice."""

from __future__ import annotations

import re
from html import unescape

from campaign.log_sentences import LogNames, log_sentence

B = {"n": 1, "turn": 3, "side": "allied", "phase": "mission"}


def _text(entry: dict) -> str:
    names = LogNames(viewer="allied")
    names.planes = {
        "allied-1": {"name": "Handley Page Halifax"},
        "axis-2": {"name": "Messerschmitt Bf 109"},
    }
    names.missions = {"m30": "Attack Radar Towers"}
    return unescape(re.sub(r"<[^>]+>", "", str(log_sentence({**B, **entry}, names))))


def test_a_bombing_roll_names_the_cards_behind_its_modifier():
    text = _text({"type": "bombing", "mission": "m30", "force": "sf", "air_supremacy": False,
                  "success": False, "rolls": [{"plane": "allied-1", "die": 5, "modifier": 0, "target": 7,
                  "success": False, "modifiers": [["Night Raid", 1], ["Inclement Weather", -1]]}]})  # fmt: skip
    assert (
        "Handley Page Halifax (allied-1) rolls 5 +1 (Night Raid) \u22121 (Inclement Weather) against 7: miss"
        in text
    )


def test_an_interception_roll_names_its_sources_and_an_unnamed_rest_is_not_lost():
    text = _text({"type": "interception", "mission": "m30", "mode": "card", "rolls": [
        {"shooter_id": "axis-2", "side": "axis", "die": 6, "modifier": 1, "target": 7, "hit": True,
         "modifiers": [["Veteran", 2], ["Inclement Weather", -1]]},
        {"shooter_id": "flak", "side": "axis", "die": 3, "modifier": 0, "target": 7, "hit": False, "modifiers": []}]})  # fmt: skip
    assert "rolls 6 +2 (Veteran) \u22121 (Inclement Weather) against 7: hit" in text
    assert "flak rolls 3 against 7: miss" in text
    odd = _text({"type": "bombing", "mission": "m30", "force": "sf", "air_supremacy": False, "success": True,
                 "rolls": [{"plane": "allied-1", "die": 6, "modifier": 2, "target": 7, "success": True,
                            "modifiers": [["Night Raid", 1]]}]})  # fmt: skip
    assert "rolls 6 +1 (Night Raid) +1 (other) against 7" in odd


def test_an_older_entry_without_sources_keeps_its_sum():
    text = _text({"type": "bombing", "mission": "m30", "force": "sf", "air_supremacy": False, "success": False,
                  "rolls": [{"plane": "allied-1", "die": 5, "modifier": 1, "target": 7, "success": False}]})  # fmt: skip
    assert "rolls 5+1 against 7: miss" in text


def test_a_mission_nobody_intercepts_says_only_the_flak_fired():
    start = _text({"type": "engagement_start", "mission": "m30", "mode": "web",
                   "engagement": {"attackers": [{"plane_id": "allied-1"}], "defenders": []}})  # fmt: skip
    assert (
        start
        == "No fighter defends Attack Radar Towers: there is no battle to fly, only the flak fires. (rulebook 003, Interception Segment)"
    )
    assert "browser" not in start
    flak = _text({"type": "interception", "mission": "m30", "mode": "card", "rolls": [],
                  "flak_rolls": 1, "dice": [["flak 1", 10, 8]]})  # fmt: skip
    assert flak.startswith("The flak over Attack Radar Towers rolls 8 with the card game's dice")
    assert "resolved by" not in flak
    fought = _text({"type": "engagement_start", "mission": "m30", "mode": "web",
                    "engagement": {"attackers": [], "defenders": [{"plane_id": "axis-2"}]}})  # fmt: skip
    assert "resolved by a battle flown in the browser" in fought

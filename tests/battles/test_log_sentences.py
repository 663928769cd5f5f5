"""The battle log in plain sentences (issue 16, readable reports): every kind of entry
the engine writes reads as a sentence with its dice and the roster pilots' names,
never as engine text such as ``activate: plane=3, speed=5, high=True``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from battles import scenarios
from battles.log_sentences import (
    CITATIONS,
    WRITERS,
    citation,
    context_for,
    plane_names,
    sentence,
    sentences,
)
from battles.report import frames_from_log, tailing_pairs
from battles.services import fly
from rules.angels20 import Scenario, new_battle
from rules.angels20.advanced import tailing
from rules.angels20.pilots import POLICIES, pilot_seed
from rules.dice import Dice

pytestmark = pytest.mark.django_db

ENGINE = Path(__file__).resolve().parents[2] / "rules" / "angels20"
EVERY_RULE = {
    "tailing": True, "turn_position": True, "status": True, "pilot_survival": True,
    "midair_collision": True, "random_clouds": True,
    "cloud_shapes": [{"hexes": [[4, 5], [4, 6], [5, 6]], "base": 1, "top": 4}],
    "flak_fields": [[8, 10, 3], [5, 12, 2], [8, 12, 4]], "barrage_balloons": [[7, 11], [6, 12]],
    "night": "darkness", "fighter_direction": {"axis": 2, "allied": 2},
    "searchlights": {"axis": True, "allied": True}, "later_sixes": True,
}  # fmt: skip
ADVANCED = {"tailing": True, "turn_position": True, "status": True, "pilot_survival": True}
RAW = re.compile(r"\w=|[{}\[\]]|\b(True|False|None)\b|\w_\w")
BATTLES = [  # (scenario, settings, seed, computer pilots): random ones retreat, tactical ones shoot
    ("dogfight", {"rules": EVERY_RULE}, 3, "random"),
    ("dogfight", {"rules": EVERY_RULE}, 3, "tactical"),
    (
        "dogfight",
        {
            "rules": {
                **ADVANCED,
                "night": "moonlight",
                "midair_collision": True,
                "clouds": ["clear", "light", "heavy", "solid", "clear", "clear"],
            }
        },
        5,
        "tactical",
    ),
    ("intercept", {"rules": ADVANCED}, 7, "random"),
    ("limited_fuel", {"rules": ADVANCED}, 11, "tactical"),
    ("schnellbomber", {"rules": EVERY_RULE}, 13, "random"),
    ("intercept", {"rules": {}}, 17, "tactical"),
]


def _engine_kinds() -> set[str]:
    """Every kind of entry the tactical engine logs, read from its source."""
    source = "\n".join(p.read_text() for p in ENGINE.glob("*.py"))
    return set(re.findall(r'_log\(\s*"([a-z_]+)"', source))


def _flown(kind: str, settings: dict[str, Any], seed: int, pilot: str) -> tuple[dict, list[dict]]:
    setup = scenarios.build_scenario(kind=kind, flights={}, settings=settings, seed=seed).to_json()
    record = fly(setup, seed, {"axis": pilot, "allied": pilot})
    return setup, record["log"]


def _dice(entry: dict[str, Any]) -> list[str]:
    """What of ``entry``'s dice its sentence must show."""
    kind = entry["e"]
    if kind in ("attack",) or (kind == "flak" and entry.get("attacked")):
        return ["d6 rolls " + ", ".join(str(r[0]) for r in entry["rolls"])]
    if kind == "maneuver":
        return ["2d6 rolled " + " + ".join(str(d) for d in entry["dice"])]
    if kind == "initiative":
        return [f"2d6 {' + '.join(map(str, entry['rolls'][s]))}" for s in ("axis", "allied")]
    if kind == "collision":
        return [f"d6 rolled {r['roll']}" for r in entry["rolls"]]
    if kind == "balloon" and entry.get("attacked"):
        return [f"d6 rolled {entry['roll']}", f"effect d6 rolled {entry['effect_roll']}"]
    if kind == "card_flak":
        return [f"d10 rolled {entry['roll']}"]
    if entry.get("roll") is not None and kind in (
        "clouds", "clouds_check", "flak", "balloon", "illumination", "survival",
    ):  # fmt: skip
        return [f"d6 rolled {entry['roll']}"]
    return []


def test_every_kind_the_engine_logs_has_a_sentence_and_a_rulebook_section():
    kinds = _engine_kinds()
    assert len(kinds) >= 30, kinds  # the source was read
    assert kinds <= set(WRITERS), f"no sentence for {kinds - set(WRITERS)}"
    assert kinds <= set(CITATIONS), f"no rulebook section for {kinds - set(CITATIONS)}"


def test_the_logs_of_flown_battles_read_as_sentences_with_their_dice(catalog):
    seen: set[str] = set()
    for kind, settings, seed, pilot in BATTLES:
        setup, log = _flown(kind, settings, seed, pilot)
        names = plane_names(setup)
        said = sentences(log, context_for(setup))
        assert len(said) == len(log)
        for entry, text in zip(log, said, strict=True):
            seen.add(entry["e"])
            assert not RAW.search(text), f"engine text in {text!r} ({entry})"
            assert re.match(r"(Turn \d+|Before the first turn)", text), text
            for dice in _dice(entry):
                assert dice in text, (dice, text)
            for key in ("plane", "attacker", "target"):
                if isinstance(entry.get(key), int) and (key != "target" or entry["e"] == "attack"):
                    assert names[entry[key]] in text, (names[entry[key]], text)
            assert citation(entry).startswith(("000 ", "003 ")), entry
    # the flights above reach the usual kinds and most optional rules' ones
    assert seen >= {
        "battle_start", "clouds", "initiative", "turn_position", "direction", "movement_phase",
        "activate", "maneuver", "step", "move_end", "status", "clouds_check", "flak",
        "illumination", "attack_phase", "attack", "destroyed", "vp", "end_turn", "game_over",
        "retreat", "exit", "condition", "survival", "no_attacks", "balloon",
    }, seen  # fmt: skip


def test_the_sentences_name_roster_pilots_and_say_the_phase():
    setup = {
        "aircraft": [
            {"stats": {"name": "Spitfire I", "pilot": "ace"}, "pilot": "ace"},
            {"stats": {"name": "Bf 109E", "pilot": "average"}, "pilot": "average"},
        ]
    }
    ctx = context_for(setup, {0: {"name": "P/O Smith", "url": "/pilots/1/"}})
    log = [
        {"e": "movement_phase", "first": "allied", "turn": 2},
        {"e": "activate", "plane": 0, "speed": 5, "high": True, "required": None,
         "hex": [3, 4], "facing": 1, "alt": 4, "turn": 2},
        {"e": "maneuver", "plane": 0, "maneuver": "split_s", "option": 3, "dice": [4, 6],
         "bonus": 2, "bonus_parts": [["roll", 2]], "target": 13, "total": 12, "success": False,
         "turn": 2},
        {"e": "attack_phase", "first": "allied", "turn": 2},
        {"e": "attack", "attacker": 1, "target": 0, "range": 2, "aspect": "6 o'clock",
         "target_number": 4, "dice": 3, "modifier": -1, "modifiers": [["attacker evading", -1]],
         "rolls": [[5, 4, 1], [2, 1, 0], [6, 5, 2]], "hits": 3, "armor": 3, "vital_armor": 5,
         "outcome": "damage", "turn": 2},
        {"e": "destroyed", "plane": 0, "by": 1, "how": "hit points", "turn": 2},
    ]  # fmt: skip
    said = sentences(log, ctx)
    assert said[1] == (
        "Turn 2, movement: #0 Spitfire I (P/O Smith) moves at speed 5 (high speed) from "
        "hex (3, 4), facing north-east, altitude 4."
    )
    assert said[2] == (
        "Turn 2, movement: #0 Spitfire I (P/O Smith) tries a Split S, turning about "
        "(maneuver check: 2d6 rolled 4 + 6, bonus +2 for its Roll bonus +2, total 12, needed 13+ at "
        "high speed: failed)."
    )
    assert said[4] == (
        "Turn 2, attack: #1 Bf 109E (average pilot) fired at #0 Spitfire I (P/O Smith): range 2, "
        "from its 6 o'clock, 3 dice needing 4+, modifier -1 (attacker evading -1); d6 rolls "
        "5, 2, 6 → 3 hits against armor 3 and vital armor 5: damaged."
    )
    assert said[5] == (
        "Turn 2, attack: #0 Spitfire I (P/O Smith) is destroyed, shot down by #1 Bf 109E "
        "(average pilot) (its last hit point is gone)."
    )
    # an entry kind no writer knows still reads as words, not code
    odd = sentence({"e": "new_thing", "turn": 3, "plane_count": 2, "sides": {"axis": [1]}}, ctx)
    assert odd == "Turn 3: new thing: plane count 2; sides axis 1." and not RAW.search(odd)


def test_tailing_lines_follow_the_engine(catalog):
    """The map's tailing lines (report.tailing_pairs, from the log's positions) are the
    pairs the engine's own 000 "TAILING" test gives, at every point of a battle."""
    seed = 21
    setup = scenarios.build_scenario(
        kind="dogfight", flights={}, settings={"rules": ADVANCED}, seed=seed
    ).to_json()
    state = new_battle(Scenario.from_json(setup), Dice(seed))
    pilots = {
        i: POLICIES["tactical"](pilot_seed(seed, side)) for i, side in enumerate(("axis", "allied"))
    }
    expected = []
    while (side := state.current_side()) is not None:
        state.apply(pilots[side].choose(state))
        n = len(state.planes)
        pairs = sorted([a, b] for a in range(n) for b in range(n) if tailing(state, a, b))
        expected.append((len(state.log) - 1, pairs))
    frames = frames_from_log(state.log, setup)
    assert any(pairs for _, pairs in expected), "no tailing in this battle: pick another seed"
    for at, pairs in expected:
        assert sorted(frames[at]["tailing"]) == pairs, at
    planes = {p["plane"]: p for p in frames[-1]["aircraft"]}
    assert tailing_pairs(planes, 16, 22) == frames[-1]["tailing"]


def test_an_initiative_roll_cites_tailing_only_when_a_side_tailed():
    """000 "TAILING" gives +2 initiative to the side tailing more: a roll with no tailing
    (the advanced rule off, or nobody tailing) is the INITIATIVE PHASE alone."""
    roll = {"e": "initiative", "turn": 2, "rolls": {"axis": [3, 4], "allied": [2, 2]},
            "total": {"axis": 7, "allied": 4}, "winner": "axis"}  # fmt: skip
    assert citation(roll) == '000 "INITIATIVE PHASE"'
    assert citation({**roll, "tailing": {"axis": 0, "allied": 0}}) == '000 "INITIATIVE PHASE"'
    tailed = {**roll, "tailing": {"axis": 1, "allied": 0}, "total": {"axis": 9, "allied": 4}}
    assert citation(tailed) == '000 "INITIATIVE PHASE", "TAILING"'
    assert "(tailing 1 enemy aircraft)" in sentence(tailed)

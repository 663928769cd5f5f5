"""A battle report from the engine's event log: one frame per logged event.

Each frame holds every aircraft's position (offset hex, facing, altitude),
status, remaining hit points and fate after that event, so the report page
can step through a battle move by move and turn by turn. Pure functions; the
page draws the frames (hex to pixel is drawing, kept out of the engine).
"""

from __future__ import annotations

import math
import re
from typing import Any

from rules.angels20.hexmap import (
    FRONT_TABLE,
    MAX_TABLE_RANGE,
    REAR_TABLE,
    distance,
    hex_to_pixel,
    offset_to_axial,
)
from rules.angels20.stats import AircraftStats, Rules
from rules.citations import citation_words
from rules.tactical import aircraft_names

from .log_sentences import citation, context_for, sentence, sentences

HEX_SIZE = 18.0


def frames_from_log(
    log: list[dict[str, Any]],
    setup: dict[str, Any],
    crews: dict[int, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One frame per event, with the event in a plain sentence (battles.log_sentences,
    naming the roster pilots ``crews`` where there are some), its rulebook section and
    the tailing pairs (when the tailing rule is on). Besides position and damage, each
    aircraft carries the
    special conditions the log gives it: ``cloud`` (in the clouds until it moves
    again, 000 "EFFECTS OF BEING IN THE CLOUDS"), ``lit`` (illuminated until the
    end of the game turn, 000 "ILLUMINATION") and ``directed`` (under fighter
    direction until its side reassigns it, 000 "FIGHTER DIRECTION")."""
    planes: dict[int, dict[str, Any]] = {}
    for i, a in enumerate(setup.get("aircraft", [])):
        stats = a["stats"]
        planes[i] = {
            "plane": i, "name": stats["name"], "side": a["side"], "col": a["col"], "row": a["row"],
            "facing": a["facing"], "alt": a["altitude"], "status": "none", "hp": stats["hits"], "hits": stats["hits"],
            "fate": "", "bomber": AircraftStats.from_json(stats).is_bomber, "pilot": a.get("pilot") or stats["pilot"],
            "cloud": False, "lit": False, "directed": False,
        }  # fmt: skip
    texts = sentences(log, context_for(setup, crews))
    raw_rules = setup.get("rules", {})
    tailing_on = bool(raw_rules.get("tailing")) and raw_rules.get("night") != "darkness"
    width, height = setup.get("width", 16), setup.get("height", 22)
    frames = []
    for index, event in enumerate(log):
        kind = event.get("e", "")
        plane = event.get("plane")
        _conditions(planes, kind, plane, event)
        if kind == "battle_start":
            for a in event.get("aircraft", []):
                p = planes.get(a["plane"])
                if p is not None:
                    p["col"], p["row"], p["facing"], p["alt"] = (
                        a["hex"][0],
                        a["hex"][1],
                        a["facing"],
                        a["alt"],
                    )
        if plane in planes and "hex" in event and event["hex"] is not None:
            p = planes[plane]
            p["col"], p["row"] = event["hex"][0], event["hex"][1]
            p["facing"] = event.get("facing", p["facing"])
            p["alt"] = event.get("alt", p["alt"])
        if plane in planes and "status" in event and isinstance(event["status"], str):
            planes[plane]["status"] = event["status"]
        if kind == "attack" and event.get("target") in planes and "hit_points" in event:
            planes[event["target"]]["hp"] = event["hit_points"]
        if kind == "destroyed" and plane in planes:
            planes[plane]["fate"] = "destroyed"
            planes[plane]["hp"] = 0
        if kind in ("retreat", "exit") and plane in planes:
            planes[plane]["fate"] = "retreated" if kind == "retreat" else "exited"
        frames.append(
            {
                "i": index,
                "turn": event.get("turn", 0),
                "text": texts[index],
                "rule": citation_words(cite) if (cite := citation(event)) else "",
                "aircraft": [dict(p) for p in planes.values()],
                "tailing": tailing_pairs(planes, width, height) if tailing_on else [],
            }
        )
    return frames


def outcome_rows(
    result: dict[str, Any] | None, crews: dict[int, dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The report's outcome table: each aircraft of ``result`` with its ``number``, the id
    its game's log calls it by (``rules.tactical.AircraftOutcome``'s ``id``: Angels 20's
    ids are the aircraft's positions, "#0" first; Air Pirates numbers its units from 1,
    "unit 1"), its position only in a result stored without ids; and ``crew``, the roster
    pilot ``crews`` gives that number (battles.selectors.battle_crews); ``label``, its name
    as the row shows it beside that number (:func:`unnumbered`)."""
    crews = crews or {}
    rows = []
    for i, craft in enumerate((result or {}).get("aircraft", [])):
        uid = craft.get("id")
        number = uid if isinstance(uid, int) and not isinstance(uid, bool) else i
        label = unnumbered(str(craft.get("name", "")), str(craft.get("pilot", "")))
        rows.append({**craft, "number": number, "crew": crews.get(number), "label": label})
    return rows


_OWN_NUMBER = re.compile(r" #\d+\b")


def unnumbered(name: str, pilot: str = "") -> str:
    """An aircraft's name without a number of its own ("Bf 109E Wingman #2 (green)": Air
    Pirates' scenarios number each side's units, units.basic_game, scenarios.built_flights),
    for a row that gives the number the log calls it by ("#4"): one number per aircraft;
    nor the ``pilot`` quality it ends with, which the row's Pilot column gives."""
    short = _OWN_NUMBER.sub("", name).strip()
    short = short.removesuffix(f" ({pilot})") if pilot else short
    return short or name


def _conditions(
    planes: dict[int, dict[str, Any]], kind: str, plane: Any, event: dict[str, Any]
) -> None:
    if kind == "activate" and plane in planes:
        planes[plane]["cloud"] = False  # moving again: out of the clouds
    elif kind == "clouds_check" and plane in planes:
        planes[plane]["cloud"] = bool(event.get("in_clouds"))
    elif kind == "illumination" and plane in planes:
        planes[plane]["lit"] = bool(event.get("lit"))
    elif kind == "direction":
        chosen = set(event.get("planes", ()))
        for p in planes.values():
            if p["side"] == event.get("side"):
                p["directed"] = p["plane"] in chosen
    elif kind == "end_turn":
        for p in planes.values():
            p["lit"] = False


def describe(event: dict[str, Any], context: dict[str, Any] | None = None) -> str:
    """One event as a plain sentence (kept for callers of the earlier name; see
    battles.log_sentences.sentence)."""
    return sentence(event, context)


def _table_key(frm: tuple[int, int], to: tuple[int, int]) -> int:
    span = 2 * MAX_TABLE_RANGE + 1
    return (to[0] - frm[0] + MAX_TABLE_RANGE) * span + (to[1] - frm[1] + MAX_TABLE_RANGE)


def tailing_pairs(planes: dict[int, dict[str, Any]], width: int, height: int) -> list[list[int]]:
    """Which aircraft tails which, for the map's tailing lines: 000 "TAILING" as the
    engine reads it (rules.angels20.advanced.tailing): enemies within one altitude,
    1 to 4 hexes apart, neither in the clouds, the tailer's front half towards the
    target and the target's rear half towards the tailer. (Darkness, where tailing
    is ignored, is left to the caller.)"""
    live = [
        p
        for p in planes.values()
        if not p["fate"] and 0 <= p["col"] < width and 0 <= p["row"] < height
    ]
    axial = {p["plane"]: offset_to_axial(p["col"], p["row"]) for p in live}
    pairs = []
    for a in live:
        for b in live:
            if a["side"] == b["side"] or abs(a["alt"] - b["alt"]) > 1 or a["cloud"] or b["cloud"]:
                continue
            qa, qb = axial[a["plane"]], axial[b["plane"]]
            if not 1 <= distance(*qa, *qb) <= MAX_TABLE_RANGE:
                continue
            if (
                REAR_TABLE[_table_key(qb, qa)][b["facing"]]
                and FRONT_TABLE[_table_key(qa, qb)][a["facing"]]
            ):
                pairs.append([a["plane"], b["plane"]])
    return pairs


def hex_center(col: int, row: int, size: float = HEX_SIZE) -> tuple[float, float]:
    """Centre of the hex at (col, row) on the drawing, a margin of one hex size in."""
    x, y = hex_to_pixel(*offset_to_axial(col, row), size)
    return round(x + size, 2), round(y + size, 2)


def hex_grid_points(width: int, height: int, size: float = HEX_SIZE) -> list[str]:
    return [hex_points(col, row, size) for col in range(width) for row in range(height)]


def map_size(width: int, height: int, size: float = HEX_SIZE) -> tuple[float, float]:
    return round(size * 1.5 * width + size * 1.6, 1), round(
        size * math.sqrt(3) * (height + 0.5) + size * 1.2, 1
    )


def hex_points(col: int, row: int, size: float = HEX_SIZE) -> str:
    cx, cy = hex_center(col, row, size)
    return " ".join(
        f"{cx + size * math.cos(math.radians(60 * k)):.1f},{cy + size * math.sin(math.radians(60 * k)):.1f}"
        for k in range(6)
    )


def map_legend(
    setup: dict[str, Any], crews: dict[int, dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Each aircraft's marker explained: number, type, side, fighter or bomber, and its
    roster pilot (name and page) where it has one, else the pilot quality in words; type
    and quality as the log and the kills list name them (``rules.tactical.aircraft_names``,
    Angels 20's map read as Angels 20 keeps its aircraft)."""
    crews = crews or {}
    names = aircraft_names(None, setup)
    out = []
    for i, a in enumerate(setup.get("aircraft", [])):
        stats = a["stats"]
        bomber = AircraftStats.from_json(stats).is_bomber
        out.append(
            {
                "i": i,
                "name": names[i].name,
                "side": a["side"],
                "bomber": bomber,
                "marker": BOMBER_SHAPE if bomber else FIGHTER_SHAPE,
                "crew": crews.get(i),
                "quality": f"{names[i].pilot} pilot",
            }
        )
    return out


FIGHTER_SHAPE = "12,0 -7,7 -3,0 -7,-7"  # the map's markers, pointing east before rotation
BOMBER_SHAPE = "11,0 -8,8 -8,-8"


ADVANCED_RULES = {
    "tailing": "tailing",
    "turn_position": "choosing turn position",
    "status": "aircraft status",
    "pilot_survival": "pilot survival",
}


def rules_summary(setup: dict[str, Any], log: list[dict[str, Any]]) -> dict[str, Any]:
    """The rules a battle was flown with, for its report: the advanced rules, the
    optional rules in force, the cloud band of each altitude (as rolled, when the
    random chart was used) and each side's territory."""
    raw = setup.get("rules", {})
    rules = Rules.from_json(raw)
    rolled = next((e for e in log if e.get("e") == "clouds"), None)
    bands = list(rolled["bands"]) if rolled else list(rules.clouds)
    territory = setup.get("territory", ["neutral", "neutral"])
    return {
        "advanced": [label for key, label in ADVANCED_RULES.items() if raw.get(key)],
        "optional": list(rules.optional_rules_on),
        "clouds": [{"alt": i + 1, "kind": b} for i, b in enumerate(bands)],
        "cloud_roll": rolled.get("roll") if rolled else None,
        "random_clouds": rules.random_clouds,
        "territory": {"axis": territory[0], "allied": territory[1]},
        "max_turns": rules.max_turns,
        "fighter_direction": dict(zip(("axis", "allied"), rules.fighter_direction, strict=True)),
        "searchlights": [
            side for side, on in zip(("axis", "allied"), rules.searchlights, strict=True) if on
        ],
    }

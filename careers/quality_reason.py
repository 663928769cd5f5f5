"""Why a pilot has his quality, in words (issue 24 §7).

A pilot's quality comes from his campaign's progression rules
(:mod:`rules.careers.progression`), not from his kills: on the card game's scale it is
his experience markers (one a mission flown, 003 EXPERIENCE PHASE), so a pilot with ten
kills and few missions is a Veteran beside Aces with nine. The aces and pilot pages show
the reason beside the quality, so the difference does not look like a mistake.
"""

from __future__ import annotations

from typing import Any

from rules.careers.progression import CARD_GAME_RANKS, RULE_SETS, PilotRecord


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _card_game(markers: int) -> str:
    """ "by experience markers, not kills: 6 XM (ace at 9)": the next quality's threshold
    (003's XM table: poor 0, average 2, veteran 5, ace 9)."""
    higher = [row for row in CARD_GAME_RANKS if row[0] > markers]
    nxt = f" ({higher[0][3]} at {higher[0][0]})" if higher else ""
    return f"by experience markers, not kills: {markers} XM{nxt}"


def quality_reason(pilot: Any) -> str:
    """What the pilot's quality rests on, as a short phrase for small print beside it:
    "by experience markers, not kills: 4 XM (veteran at 5)", "by kill credits: 6"; and
    why it is higher than those alone give (quality never goes down): "kept from joining
    as a veteran" or "set by the organiser". Empty for a scale without rules."""
    rules = RULE_SETS.get(str(getattr(pilot, "quality_scale", "") or ""))
    if rules is None or pilot.quality not in rules.scale:
        return ""
    record = PilotRecord.from_obj(pilot, entry_quality=pilot.entry_quality or None)
    if rules.name == "card_game":
        basis = _card_game(record.experience_markers)
    else:
        credits = rules.kill_credits(record)
        basis = f"by kill credits: {credits}"
        if rules.name == "air_pirates" and pilot.quality == "green":
            basis += f", {_plural(record.missions, 'mission')}"
    try:
        earned = rules.earned_quality(record)
    except ValueError:  # an entry quality of another scale (an organiser's edit)
        return basis
    if rules.rank(pilot.quality) <= rules.rank(earned):
        return basis
    entry = pilot.entry_quality
    if entry in rules.scale and rules.rank(entry) >= rules.rank(pilot.quality):
        return f"{basis}; kept from joining as {entry} (quality never goes down)"
    return f"{basis}; set higher by the organiser (quality never goes down)"

"""Organiser-defined awards (SPEC "1. Roster": the organiser keeps the history).

No rulebook defines decorations; an award is whatever the organiser sets up:
a name, an optional nation (``None`` = any nation), and a threshold of
confirmed air kills (``"kills"``) or missions flown (``"missions"``).

Rulings (docs/rulings.md "Awards"): "kills" counts confirmed air kills only
(the leaderboard count, not 001 XIX kill credits); an award is granted once
per pilot, identified by its name; nations compare case-insensitively.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.careers.progression import PilotRecord

THRESHOLD_KINDS: tuple[str, ...] = ("kills", "missions")


@dataclass(frozen=True, slots=True)
class Award:
    name: str
    nation: str | None
    threshold_kind: str
    threshold: int

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("an award needs a name")
        if self.threshold_kind not in THRESHOLD_KINDS:
            raise ValueError(f"threshold_kind must be one of {THRESHOLD_KINDS}")
        if not isinstance(self.threshold, int) or self.threshold < 1:
            raise ValueError("an award's threshold is a positive int")

    def applies_to(self, nation: str) -> bool:
        return self.nation is None or self.nation.strip().lower() == nation.strip().lower()

    def earned_by(self, record: PilotRecord) -> bool:
        count = record.air_kills if self.threshold_kind == "kills" else record.missions
        return count >= self.threshold


def awards_due(
    record: PilotRecord,
    nation: str,
    awards: Iterable[Award],
    already_granted: Iterable[Award | str] = (),
) -> list[Award]:
    """The awards the pilot has earned and not yet received, in the order given."""
    granted = {a.name if isinstance(a, Award) else str(a) for a in already_granted}
    due: list[Award] = []
    for award in awards:
        if award.name in granted or not award.applies_to(nation) or not award.earned_by(record):
            continue
        granted.add(award.name)
        due.append(award)
    return due

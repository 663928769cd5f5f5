"""Kill credit for a destroyed target.

Source: ``001_51eb6fd84fe43c42.txt`` section XIX "How Kills are Scored":
"Partial Kills are not assigned: only the last aircraft to fire at a target is
awarded the kill (use a die roll to resolve ambiguous cases)."

Ruling (docs/rulings.md "Kill credit ties"): attacks are ordered by
``(turn, sequence)``; the shooters of the last ``(turn, sequence)`` share the
last attack. If more than one shooter shares it, each rolls a d6, highest wins,
and only those tied on the highest roll again until one is left. Shooters roll
in the order of their first appearance in the list, so replays are exact.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.dice import Dice, Roll

# Each game's rule for who is credited with a kill (the citation a result's
# kill carries as ``credit_rule``). 000 credits the attack that destroyed the
# target; 001 XIX the last to fire, a die roll for ties; 002 has no rule of its
# own (its campaign sections 18-19 are not in the book): ruling "Kill credit,
# Air Pirates" takes 001's, which 002 6a5.3's "all are considered to have fired"
# feeds with every unit that declared an attack in the last fire phase.
KILL_CREDIT_RULES: dict[str, str] = {
    "angels20": "000 'RESOLVING ATTACKS'",
    "air_force": "001 'How Kills are Scored'",
    "air_pirates": "001 'How Kills are Scored'",
}


def credit_record(
    *,
    rule: str,
    shooter: str,
    contenders: Sequence[str],
    rolls: Sequence[Sequence[Any]],
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A kill's credit as the roster keeps it (``KillRecord.credit``): the rule the
    battle's game credited it by, its roll-off dice, and why, in words. ``names``
    turns the shooters' ids in the roll-off's purposes into names."""
    names = names or {}
    if len(contenders) > 1:
        faces = ", ".join(
            f"{names.get(who := str(r[0]).removeprefix('kill credit roll-off: '), who)}={r[2]}"
            for r in rolls
        )
        why = f"{', '.join(contenders)} fired together last; d6 {faces}; {shooter} gets the kill."
    elif rule.startswith("000 "):
        why = f"{shooter}'s attack destroyed the target."
    else:
        why = f"{shooter} fired last and gets the kill."
    return {"rule": rule, "rolls": [list(r) for r in rolls], "explanation": why}


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack on the target: who fired, in which turn, and in which order
    within that turn (equal ``(turn, sequence)`` means simultaneous)."""

    shooter: Hashable
    turn: int
    sequence: int = 0


@dataclass(frozen=True, slots=True)
class KillCredit:
    """Who gets the kill; ``contenders`` shared the last attack."""

    shooter: Hashable
    contenders: tuple[Hashable, ...]
    rolls: tuple[Roll, ...]
    explanation: str

    @property
    def by_die(self) -> bool:
        return len(self.contenders) > 1

    @property
    def rolls_json(self) -> list[list[Any]]:
        return [roll.to_json() for roll in self.rolls]


def _as_attack(item: Attack | Sequence[Any]) -> Attack:
    if isinstance(item, Attack):
        return item
    if len(item) == 2:
        return Attack(item[0], int(item[1]))
    if len(item) == 3:
        return Attack(item[0], int(item[1]), int(item[2]))
    raise ValueError(f"an attack is (shooter, turn) or (shooter, turn, sequence), not {item!r}")


def credit_kill(
    attacks: Iterable[Attack | Sequence[Any]],
    *,
    dice: Dice,
    names: Mapping[Hashable, str] | None = None,
) -> KillCredit:
    """The kill goes to the last aircraft to fire at the target; a recorded die
    roll-off settles a tie for last. ``names`` turns the shooters into the words of the
    explanation (a pilot's name, not his id); the dice's purposes keep the shooters."""
    said = names or {}

    def word(shooter: Hashable) -> str:
        return said.get(shooter, str(shooter))

    listed = [_as_attack(a) for a in attacks]
    if not listed:
        raise ValueError("a kill needs at least one attack")
    last = max((a.turn, a.sequence) for a in listed)
    contenders: list[Hashable] = []
    for attack in listed:
        if (attack.turn, attack.sequence) == last and attack.shooter not in contenders:
            contenders.append(attack.shooter)
    if len(contenders) == 1:
        return KillCredit(
            shooter=contenders[0],
            contenders=tuple(contenders),
            rolls=(),
            explanation=f"{word(contenders[0])} fired last (turn {last[0]}, sequence {last[1]}) and gets the kill.",
        )
    rolls: list[Roll] = []
    parts = [
        f"{', '.join(map(word, contenders))} fired together last (turn {last[0]}, sequence {last[1]})"
    ]
    remaining = list(contenders)
    while len(remaining) > 1:
        faces: dict[Hashable, int] = {}
        for shooter in remaining:
            purpose = f"kill credit roll-off: {shooter}"
            faces[shooter] = dice.roll(6, purpose)
            rolls.append(Roll(purpose, 6, faces[shooter]))
        best = max(faces.values())
        parts.append("d6 " + ", ".join(f"{word(s)}={v}" for s, v in faces.items()))
        remaining = [s for s in remaining if faces[s] == best]
        if len(remaining) > 1:
            parts.append(f"{', '.join(map(word, remaining))} tie on {best} and roll again")
    parts.append(f"{word(remaining[0])} gets the kill")
    return KillCredit(
        shooter=remaining[0],
        contenders=tuple(contenders),
        rolls=tuple(rolls),
        explanation="; ".join(parts) + ".",
    )

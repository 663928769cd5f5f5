"""Survival rolls for a pilot whose aircraft is destroyed (SPEC "1. Roster").

Three rule sets, chosen per campaign:

``angels20``
    ``000_3e786b822f6e109d.txt`` PILOT SURVIVAL: roll a die, 4 or higher
    survives; +1 over friendly territory, -1 over enemy territory. "Pilots who
    don't survive aren't necessarily killed -- they might be captured, or
    injured badly enough to be out of the war for a long time."

``air_force``
    ``001_51eb6fd84fe43c42.txt`` XIX BAILING OUT and the BAILING OUT (OPT)
    table (reconstructed, see ``BAILING_OUT_TABLE``): one d6 against the
    column of the aircraft's cockpit ("C") hits. "Bailing out over enemy
    territory will always result in the capture of the crews."

``air_pirates``
    ``002_cf8488af3a84ab09.txt`` 13c BAILING OUT: d10, modified 5-10 bails
    out, -3 per crew hit, -2 per fire, none with two crew hits (13c1); +2 for
    bailing out before the aircraft is eliminated, which eliminates it (13c3);
    victory-point reductions by area (13c2.1-13c2.3).

Rulings common to all three (``docs/rulings.md``): a survivor over enemy
territory is captured; over friendly territory returns, possibly wounded; over
neutral territory (the sea, no man's land, a neutral country) a rescue d6 is
rolled, 4+ brings the pilot back, 1-3 leaves the pilot missing. Wound length:
wounded = half a d6 rounded up (1-3 campaign turns), seriously wounded = d6+3
(4-9 turns).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.dice import Dice, Roll

SURVIVAL_RULE_SETS: tuple[str, ...] = ("angels20", "air_force", "air_pirates")
TERRITORIES: tuple[str, ...] = ("friendly", "enemy", "neutral")
OUTCOMES: tuple[str, ...] = (
    "returned",
    "wounded",
    "seriously_wounded",
    "captured",
    "killed",
    "missing",
)

# 000 PILOT SURVIVAL
ANGELS20_TARGET = 4
ANGELS20_TERRITORY = {"friendly": 1, "enemy": -1, "neutral": 0}

# 001 XIX BAILING OUT (OPT) table, as printed (scan lines ~1874-1881):
#   Die  0 "C" Hits  1 "C" Hits  2 "C" Hits
#   1    Bail Out    Bail Out    Bail Out
#   2    Bail Out    Bail Out    Bail Out
#   3    Bail Out    Bail Out    Failure
#   4    Bail Out    Bail Out    Failure
#   5    Bail Out    Failure     Failure
#   6    Failure     Failure     Failure
# i.e. the crew bails out on this die roll or lower. Three or more cockpit
# hits use the 2-hit column (ruling).
BAILING_OUT_TABLE: dict[int, int] = {0: 5, 1: 4, 2: 2}

# 002 13c1 / 13c3 / 13c2
AIR_PIRATES_TARGET = 5
AIR_PIRATES_PER_CREW_HIT = -3
AIR_PIRATES_PER_FIRE = -2
AIR_PIRATES_EARLY = 2
AIR_PIRATES_NO_BAILOUT_CREW_HITS = 2
AIR_PIRATES_VP_REDUCTION = {"friendly": 5, "neutral": 3, "enemy": 2}

RESCUE_TARGET = 4

# The die each rule set rolls (a die already rolled by the game that flew the
# battle is taken as this roll, ruling "One roll, one fate").
SURVIVAL_DIE: dict[str, int] = {"angels20": 6, "air_force": 6, "air_pirates": 10}


def hits_for_rule(
    rule_set: str,
    *,
    game: str,
    damage: int = 0,
    cockpit_hits: int = 0,
    crew_hits: int = 0,
    fires: int = 0,
) -> dict[str, int]:
    """The hits a destroyed aircraft's pilot bails out with under ``rule_set`` when
    the battle was flown under ``game`` (ruling "A battle of one game, the bail-out
    of another", docs/rulings.md): ``{"cockpit_hits", "crew_hits", "fires"}``.

    The same game: the hits as recorded. An *Angels 20* battle (damage on one
    track, no crew hits, no fires) under the Air Force table: one "C" hit, two
    when it carried 2 or more points of damage; under the Air Pirates bail-out:
    one fire, one crew hit instead when it carried 2 or more points of damage.
    Air Force "C" hits and Air Pirates crew hits stand for each other; a fire
    has no Air Force counterpart. The Angels 20 rule reads territory alone.
    """
    if game == rule_set or rule_set == "angels20":
        return {"cockpit_hits": cockpit_hits, "crew_hits": crew_hits, "fires": fires}
    if game == "angels20":
        heavy = damage >= 2
        if rule_set == "air_force":
            return {"cockpit_hits": 2 if heavy else 1, "crew_hits": 0, "fires": 0}
        return {"cockpit_hits": 0, "crew_hits": int(heavy), "fires": int(not heavy)}
    if rule_set == "air_force":  # an Air Pirates battle: crew hits are cockpit hits
        return {"cockpit_hits": crew_hits, "crew_hits": 0, "fires": 0}
    return {"cockpit_hits": 0, "crew_hits": cockpit_hits, "fires": 0}  # an Air Force battle


@dataclass(frozen=True)
class SurvivalOutcome:
    """What happened to the pilot, with every die that decided it.

    ``outcome`` is one of :data:`OUTCOMES`. ``total``/``target`` are the
    modified survival roll and the number it had to reach (``None`` when no
    roll was possible). ``rolls`` are the :class:`Roll` records of this call,
    in order; :meth:`to_json` gives them as ``Roll.to_json()`` lists.
    ``victory_point_reduction`` is the Air Pirates 13c2 reduction of the
    eliminated aircraft's value (0 for the other rule sets or a failed
    bail-out).
    """

    rule_set: str
    territory: str
    outcome: str
    wounded_turns: int
    total: int | None
    target: int | None
    rolls: tuple[Roll, ...]
    explanation: str
    modifiers: tuple[tuple[str, int], ...] = field(default=())
    victory_point_reduction: int = 0
    aircraft_lost: bool = True

    @property
    def survived(self) -> bool:
        return self.outcome in ("returned", "wounded", "seriously_wounded", "captured")

    @property
    def rolls_json(self) -> list[list[Any]]:
        return [roll.to_json() for roll in self.rolls]

    def to_json(self) -> dict[str, Any]:
        return {
            "rule_set": self.rule_set,
            "territory": self.territory,
            "outcome": self.outcome,
            "wounded_turns": self.wounded_turns,
            "total": self.total,
            "target": self.target,
            "rolls": self.rolls_json,
            "explanation": self.explanation,
            "modifiers": [list(m) for m in self.modifiers],
            "victory_point_reduction": self.victory_point_reduction,
            "aircraft_lost": self.aircraft_lost,
        }


class _Recorder:
    """Rolls on the campaign's dice and keeps this call's rolls, even when the
    dice do not record."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str) -> int:
        value = self.dice.roll(sides, purpose)
        self.rolls.append(Roll(purpose, sides, value))
        return value


def _wound_turns(rec: _Recorder, severity: str) -> tuple[int, str]:
    """Campaign turns out of action (ruling "Wound length")."""
    die = rec.roll(6, f"wound length ({severity.replace('_', ' ')})")
    if severity == "wounded":
        turns = (die + 1) // 2
        return turns, f"wound length d6={die}, halved rounding up: out {turns} turn(s)"
    turns = die + 3
    return turns, f"wound length d6={die}+3: out {turns} turns"


def _come_down(
    rec: _Recorder, territory: str, severity: str | None, parts: list[str]
) -> tuple[str, int]:
    """Where a surviving pilot lands decides the rest (common ruling)."""
    if territory == "enemy":
        parts.append("came down over enemy territory: captured")
        return "captured", 0
    if territory == "neutral":
        rescue = rec.roll(6, "rescue over neutral territory")
        if rescue < RESCUE_TARGET:
            parts.append(
                f"came down over neutral territory, rescue d6={rescue} (needs 4+): missing"
            )
            return "missing", 0
        parts.append(f"came down over neutral territory, rescue d6={rescue} (needs 4+): rescued")
    if severity is None:
        parts.append("returns to the squadron unhurt")
        return "returned", 0
    turns, text = _wound_turns(rec, severity)
    parts.append(f"returns {severity.replace('_', ' ')}, {text}")
    return severity, turns


def roll_survival(
    rule_set: str,
    *,
    dice: Dice,
    territory: str,
    cockpit_hits: int = 0,
    crew_hits: int = 0,
    fires: int = 0,
    bailed_out_early: bool = False,
    survival_die: int | None = None,
) -> SurvivalOutcome:
    """Roll the campaign's survival rule for a pilot whose aircraft is destroyed.

    ``cockpit_hits`` is read by ``air_force`` only; ``crew_hits``, ``fires``
    and ``bailed_out_early`` by ``air_pirates`` only; ``angels20`` reads the
    territory alone. ``survival_die`` is the rule set's own die already rolled
    by the game that flew the battle (000 "PILOT SURVIVAL" d6, the 001 table's
    d6, the 002 13c1 d10), taken as this roll's die instead of rolling again
    (ruling "One roll, one fate").
    """
    if rule_set not in SURVIVAL_RULE_SETS:
        raise ValueError(
            f"unknown survival rule set {rule_set!r}; expected one of {SURVIVAL_RULE_SETS}"
        )
    if territory not in TERRITORIES:
        raise ValueError(f"territory must be one of {TERRITORIES}, not {territory!r}")
    for name, value in (("cockpit_hits", cockpit_hits), ("crew_hits", crew_hits), ("fires", fires)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a non-negative int, not {value!r}")
    rec = _Recorder(dice)
    sides = SURVIVAL_DIE[rule_set]
    if survival_die is not None and not 1 <= survival_die <= sides:
        raise ValueError(f"a {rule_set} survival die of {survival_die!r} is not a d{sides} face")
    if rule_set == "angels20":
        return _angels20(rec, territory, survival_die)
    if rule_set == "air_force":
        return _air_force(rec, territory, cockpit_hits, survival_die)
    return _air_pirates(rec, territory, crew_hits, fires, bailed_out_early, survival_die)


def _die(rec: _Recorder, sides: int, purpose: str, rolled: int | None) -> int:
    """Roll the die, or take the one the battle's game rolled (recorded, not rolled again)."""
    if rolled is None:
        return rec.roll(sides, purpose)
    rec.rolls.append(Roll(f"{purpose} (the battle's roll)", sides, rolled))
    return rolled


def _angels20(rec: _Recorder, territory: str, rolled: int | None = None) -> SurvivalOutcome:
    mod = ANGELS20_TERRITORY[territory]
    if rolled is None:
        die = rec.roll(6, "pilot survival")
    else:  # the engine's die (ruling "One roll, one fate"): recorded, not rolled again
        die = rolled
        rec.rolls.append(Roll("pilot survival (the battle's roll)", 6, die))
    total = die + mod
    modifiers = ((f"{territory} territory", mod),) if mod else ()
    parts = [f"Angels 20 pilot survival: d6={die}{mod:+d} = {total} against 4+"]
    if total >= ANGELS20_TARGET:
        # Ruling: a bare survival (modified total exactly 4) is wounded.
        severity = "wounded" if total == ANGELS20_TARGET else None
        parts.append("survives" + (" (barely: wounded)" if severity else ""))
        outcome, turns = _come_down(rec, territory, severity, parts)
    else:
        # Ruling: the book's "not necessarily killed" -- a fate d6: 1-3 killed;
        # 4-6 out of the war: seriously wounded / captured / missing by territory.
        fate = rec.roll(6, "fate of a pilot who did not survive")
        if fate <= 3:
            outcome, turns = "killed", 0
            parts.append(f"does not survive; fate d6={fate} (1-3): killed")
        elif territory == "friendly":
            turns, text = _wound_turns(rec, "seriously_wounded")
            outcome = "seriously_wounded"
            parts.append(f"does not survive; fate d6={fate} (4-6): badly injured, {text}")
        elif territory == "enemy":
            outcome, turns = "captured", 0
            parts.append(f"does not survive; fate d6={fate} (4-6): captured")
        else:
            outcome, turns = "missing", 0
            parts.append(f"does not survive; fate d6={fate} (4-6): missing")
    return SurvivalOutcome(
        rule_set="angels20",
        territory=territory,
        outcome=outcome,
        wounded_turns=turns,
        total=total,
        target=ANGELS20_TARGET,
        rolls=tuple(rec.rolls),
        explanation="; ".join(parts) + ".",
        modifiers=modifiers,
    )


def _air_force(
    rec: _Recorder, territory: str, cockpit_hits: int, rolled: int | None = None
) -> SurvivalOutcome:
    column = min(cockpit_hits, 2)
    highest = BAILING_OUT_TABLE[column]
    die = _die(rec, 6, f"bailing out ({column} cockpit hits column)", rolled)
    parts = [
        f'Air Force bailing out: d6={die} on the {column} "C" hits column '
        f"(bails out on {highest} or less)"
    ]
    if cockpit_hits > 2:
        parts[0] += f"; {cockpit_hits} cockpit hits use the 2-hit column"
    if die <= highest:
        # Ruling: a cockpit hit is a hit on the crew position -- one wounds,
        # two or more wound seriously.
        severity = None
        if cockpit_hits == 1:
            severity = "wounded"
        elif cockpit_hits >= 2:
            severity = "seriously_wounded"
        parts.append("bailed out")
        outcome, turns = _come_down(rec, territory, severity, parts)
    else:
        outcome, turns = "killed", 0
        parts.append("failure: the crew is destroyed")
    return SurvivalOutcome(
        rule_set="air_force",
        territory=territory,
        outcome=outcome,
        wounded_turns=turns,
        total=die,
        target=highest,
        rolls=tuple(rec.rolls),
        explanation="; ".join(parts) + ".",
    )


def _air_pirates(
    rec: _Recorder,
    territory: str,
    crew_hits: int,
    fires: int,
    early: bool,
    rolled: int | None = None,
) -> SurvivalOutcome:
    if crew_hits >= AIR_PIRATES_NO_BAILOUT_CREW_HITS:
        return SurvivalOutcome(
            rule_set="air_pirates",
            territory=territory,
            outcome="killed",
            wounded_turns=0,
            total=None,
            target=None,
            rolls=(),
            explanation=(
                f"Air Pirates 13c1: no bailing out is possible with {crew_hits} crew hits; "
                "the pilot goes down with the aircraft: killed."
            ),
        )
    modifiers: list[tuple[str, int]] = []
    if crew_hits:
        modifiers.append((f"{crew_hits} crew hit(s)", AIR_PIRATES_PER_CREW_HIT * crew_hits))
    if fires:
        modifiers.append((f"{fires} fire(s)", AIR_PIRATES_PER_FIRE * fires))
    if early:
        modifiers.append(("bailing out early", AIR_PIRATES_EARLY))
    die = _die(rec, 10, "bail out", rolled)
    total = die + sum(m for _, m in modifiers)
    mod_text = "".join(f" {m:+d} ({label})" for label, m in modifiers)
    parts = [f"Air Pirates bail out: d10={die}{mod_text} = {total} against 5-10"]
    if early:
        parts.append("the early bail-out attempt eliminates the aircraft (13c3)")
    vp = 0
    if total >= AIR_PIRATES_TARGET:
        vp = AIR_PIRATES_VP_REDUCTION[territory]
        parts.append(f"bailed out (the aircraft is worth {vp} victory points less, 13c2)")
        # Ruling: one crew hit is a wounded pilot (002 6c1.8, 13e).
        severity = "wounded" if crew_hits == 1 else None
        outcome, turns = _come_down(rec, territory, severity, parts)
    else:
        outcome, turns = "killed", 0
        parts.append("failed to bail out: killed")
    return SurvivalOutcome(
        rule_set="air_pirates",
        territory=territory,
        outcome=outcome,
        wounded_turns=turns,
        total=total,
        target=AIR_PIRATES_TARGET,
        rolls=tuple(rec.rolls),
        explanation="; ".join(parts) + ".",
        modifiers=tuple(modifiers),
        victory_point_reduction=vp,
    )

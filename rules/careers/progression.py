"""Quality progression rule sets, chosen per campaign (SPEC "1. Roster").

Three rule sets, each a :class:`RuleSet` in :data:`RULE_SETS`:

``card_game``
    ``003_93ec40e0c2d0344c.txt`` EXPERIENCE PHASE: one experience marker (XM)
    per mission; XM 0 Green, 2 Flier (+1), 5 Veteran (+2), 9+ Ace (+3). The
    four ranks are mapped onto the Angels 20 qualities poor / average /
    veteran / ace (``000_3e786b822f6e109d.txt``, "Pilot").

``air_force``
    ``001_51eb6fd84fe43c42.txt`` section XIX "Training and Experience":
    QUALITY LEVELS (Novice / Average / Ace), "Initial Ratings", "How Kills are
    Scored", "Effects of Experience Characteristic" and the Experience Notes
    under the PILOT CHARACTERISTICS DETERMINATION TABLE.

``air_pirates``
    ``002_cf8488af3a84ab09.txt`` section 14b (Green / Inexperienced / Average /
    Experienced / Ace, point values) and 6c1.5-6c1.8 (firing modifiers). The
    book's campaign sections (18-19) "will appear as appendices" and are not in
    the file, so advancement between the five qualities is a ruling (see
    ``docs/rulings.md``).

Whatever the rule set, an ace in the leaderboard sense has 5 or more confirmed
air kills (:func:`is_ace`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

ENGINE_QUALITIES: tuple[str, ...] = ("poor", "average", "veteran", "ace")
"""What the Angels 20 engine flies with, worst first (000, "Pilot")."""

LEADERBOARD_ACE_KILLS = 5


def is_ace(confirmed_air_kills: int) -> bool:
    """An ace in the leaderboard sense: 5 or more confirmed air kills (SPEC "Roster")."""
    return confirmed_air_kills >= LEADERBOARD_ACE_KILLS


@dataclass(frozen=True, slots=True)
class PilotRecord:
    """The counts a pilot's quality is measured on.

    ``missions`` is missions flown, which in the card game are its experience
    markers (003 EXPERIENCE PHASE: one XM per mission). ``ground_credits`` is
    the number of flak guns and vehicles destroyed by strafing (not yet divided
    by four); ``ground_kills`` is enemy aircraft destroyed on the ground (001
    XIX counts them as kills, the leaderboard does not). ``entry_quality`` is
    the quality the pilot joined with; when it is unknown it is inferred from
    ``quality`` (see :meth:`RuleSet.entry_of`).
    """

    missions: int = 0
    air_kills: int = 0
    ground_credits: int = 0
    bombing_successes: int = 0
    ground_kills: int = 0
    quality: str | None = None
    entry_quality: str | None = None
    has_experience: bool = False

    def __post_init__(self) -> None:
        for name in (
            "missions",
            "air_kills",
            "ground_credits",
            "bombing_successes",
            "ground_kills",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a non-negative int, not {value!r}")

    @property
    def experience_markers(self) -> int:
        return self.missions

    @classmethod
    def from_obj(cls, obj: Any, *, entry_quality: str | None = None) -> PilotRecord:
        """Build a record from anything shaped like ``roster.models.Pilot``."""
        return cls(
            missions=int(getattr(obj, "experience_markers", 0) or 0),
            air_kills=int(getattr(obj, "air_kills", 0) or 0),
            ground_credits=int(getattr(obj, "ground_credits", 0) or 0),
            bombing_successes=int(getattr(obj, "bombing_successes", 0) or 0),
            ground_kills=int(getattr(obj, "ground_kills", 0) or 0),
            quality=getattr(obj, "quality", None),
            entry_quality=entry_quality,
            has_experience=bool(getattr(obj, "experience", False)),
        )


# -- kill credits (001 XIX "How Kills are Scored") ------------------------------
BOMBING_MISSIONS_PER_KILL = 3
STRAFED_TARGETS_PER_KILL = 4


def kill_credits(record: PilotRecord) -> int:
    """Kills in the 001 XIX sense: one per enemy aircraft destroyed in the air or
    on the ground, one per three successful bombing missions, one per four flak
    guns and/or vehicles destroyed by strafing. Partial kills are not assigned
    (integer division)."""
    return (
        record.air_kills
        + record.ground_kills
        + record.bombing_successes // BOMBING_MISSIONS_PER_KILL
        + record.ground_credits // STRAFED_TARGETS_PER_KILL
    )


MISSIONS_TO_GAIN_EXPERIENCE = 5


def experience_for(record: PilotRecord) -> bool:
    """001 XIX "Effects of Experience": a pilot without Experience gains it by
    completing five missions."""
    return record.has_experience or record.missions >= MISSIONS_TO_GAIN_EXPERIENCE


# -- card game (003 EXPERIENCE PHASE) -----------------------------------------
# XM table of 003: "XM Force Notes: 0 - Green 2 +1 Flier 5 +2 Veteran 9+ +3 Ace".
CARD_GAME_RANKS: tuple[tuple[int, str, int, str], ...] = (
    # (markers from, card-game rank, force bonus, Angels 20 quality)
    (0, "Green", 0, "poor"),
    (2, "Flier", 1, "average"),
    (5, "Veteran", 2, "veteran"),
    (9, "Ace", 3, "ace"),
)


def _card_rank(markers: int) -> tuple[int, str, int, str]:
    if markers < 0:
        raise ValueError("experience markers cannot be negative")
    found = CARD_GAME_RANKS[0]
    for row in CARD_GAME_RANKS:
        if markers >= row[0]:
            found = row
    return found


# A pilot's quality read as the experience markers his plane card starts with (ruling
# "A pilot's quality and his plane's rank"): 003's table read backwards, each scale's
# lowest quality as Green, its middle ones by name, its best as Ace.
QUALITY_MARKERS: dict[str, int] = {
    "poor": 0, "novice": 0, "green": 0, "inexperienced": 0,
    "average": 2,
    "veteran": 5, "experienced": 5,
    "ace": 9,
}  # fmt: skip


def markers_of_quality(quality: str) -> int:
    """The experience markers a plane starts with when a pilot of ``quality`` (of any
    scale) is given it: 0, 2, 5 or 9, the threshold of the card-game rank his quality
    names. An unknown quality brings none."""
    return QUALITY_MARKERS.get(quality, 0)


def force_bonus(markers: int) -> int:
    """Card-game Force bonus for a number of experience markers (003): 0/+1/+2/+3."""
    return _card_rank(markers)[2]


def card_game_rank(markers: int) -> str:
    """Card-game rank name for a number of experience markers: Green/Flier/Veteran/Ace."""
    return _card_rank(markers)[1]


# -- quality effects -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class QualityEffects:
    """What a quality does at the table, as its rulebook states it.

    ``points``: selection / victory point change (002 14b); ``firing``: firing
    modifier (002 6c1, or the Basic Hit Table modifier of 001 XIX);
    ``spotting``: spotting modifier; ``force``: card-game Force bonus (003);
    ``maneuver``: change of the Maneuverability Requirement (001 XIX);
    ``forbidden``: maneuvers the pilot may not fly (002 14b1.3, 14b2.3).
    """

    points: int = 0
    firing: int = 0
    spotting: int = 0
    force: int = 0
    maneuver: int = 0
    forbidden: tuple[str, ...] = field(default=())
    notes: str = ""


# -- the rule sets ---------------------------------------------------------------
class RuleSet(ABC):
    """Common interface of the three progression rule sets."""

    name: str = ""
    title: str = ""
    source: str = ""
    scale: tuple[str, ...] = ()
    standard_entry: str = "average"

    # -- helpers -------------------------------------------------------------
    def check(self, quality: str) -> str:
        if quality not in self.scale:
            raise ValueError(
                f"{quality!r} is not a {self.name} quality; expected one of {self.scale}"
            )
        return quality

    def rank(self, quality: str) -> int:
        return self.scale.index(self.check(quality))

    def higher(self, a: str, b: str) -> str:
        return a if self.rank(a) >= self.rank(b) else b

    def entry_of(self, record: PilotRecord) -> str:
        """The quality the pilot joined with: ``record.entry_quality`` when
        known, otherwise the current quality if it is below the standard entry
        (a replacement still below it), otherwise the standard entry."""
        if record.entry_quality is not None:
            return self.check(record.entry_quality)
        if record.quality is not None and self.rank(record.quality) < self.rank(
            self.standard_entry
        ):
            return record.quality
        return self.standard_entry

    # -- interface -------------------------------------------------------------
    @abstractmethod
    def entry_quality(self, replacement: bool = False, characteristics: Any = None) -> str: ...

    @abstractmethod
    def earned_quality(self, record: PilotRecord) -> str:
        """The quality the counts alone give, ignoring the current quality."""

    def quality_for(self, record: PilotRecord) -> str:
        """The quality the pilot flies with now. Quality never goes down: the
        higher of the earned quality and ``record.quality`` (an organiser's
        manual promotion stands)."""
        earned = self.earned_quality(record)
        if record.quality is None:
            return earned
        return self.higher(earned, record.quality)

    @abstractmethod
    def engine_quality(self, quality: str) -> str: ...

    def kill_credits(self, record: PilotRecord) -> int:
        return kill_credits(record)

    def experience_for(self, record: PilotRecord) -> bool:
        return experience_for(record)

    def force_bonus(self, markers: int) -> int:
        return force_bonus(markers)

    @abstractmethod
    def effects(self, quality: str, air_kills: int = 0) -> QualityEffects: ...

    def __repr__(self) -> str:
        return f"<RuleSet {self.name}>"


class CardGameRules(RuleSet):
    """003 EXPERIENCE PHASE: quality by experience markers (missions flown)."""

    name = "card_game"
    title = "Card game (experience markers)"
    source = "003_93ec40e0c2d0344c.txt EXPERIENCE PHASE"
    scale = ("poor", "average", "veteran", "ace")
    standard_entry = "poor"

    def entry_quality(self, replacement: bool = False, characteristics: Any = None) -> str:
        # Every plane enters play with no XM: Green, whatever the circumstances.
        return "poor"

    def earned_quality(self, record: PilotRecord) -> str:
        return _card_rank(record.missions)[3]

    def engine_quality(self, quality: str) -> str:
        return self.check(quality)

    def effects(self, quality: str, air_kills: int = 0) -> QualityEffects:
        self.check(quality)
        row = next(r for r in CARD_GAME_RANKS if r[3] == quality)
        return QualityEffects(force=row[2], notes=f"{row[1]}: +{row[2]} to all Force rolls")


class AirForceRules(RuleSet):
    """001 XIX: Novice / Average / Ace earned by kills."""

    name = "air_force"
    title = "Air Force (001 XIX)"
    source = "001_51eb6fd84fe43c42.txt XIX Training and Experience"
    scale = ("novice", "average", "ace")
    standard_entry = "average"

    KILLS_NOVICE_TO_AVERAGE = 1  # "Novice crews rise to Average after scoring one kill."
    KILLS_AVERAGE_TO_ACE = 5  # "Average Crews rise to Ace after scoring five (additional) kills."

    def entry_quality(self, replacement: bool = False, characteristics: Any = None) -> str:
        # "All crews begin ... as Average. Crews that are destroyed are rated as
        # Novice when reintroduced"; an "E" then a 1 makes an Ace; Experience
        # means the crew does "not begin as novices but ... 'average'".
        if characteristics is not None and getattr(characteristics, "ace", False):
            return "ace"
        if replacement and not (
            characteristics is not None and getattr(characteristics, "experience", False)
        ):
            return "novice"
        return "average"

    def earned_quality(self, record: PilotRecord) -> str:
        entry = self.entry_of(record)
        credits = self.kill_credits(record)
        if entry == "ace":
            return "ace"
        to_average = self.KILLS_NOVICE_TO_AVERAGE if entry == "novice" else 0
        if credits >= to_average + self.KILLS_AVERAGE_TO_ACE:
            return "ace"
        if credits >= to_average:
            return "average"
        return "novice"

    # Novice BHT -2 -> poor; Average 0 -> average; Ace +1 per five kills -> ace.
    ENGINE = {"novice": "poor", "average": "average", "ace": "ace"}

    def engine_quality(self, quality: str) -> str:
        return self.ENGINE[self.check(quality)]

    def effects(self, quality: str, air_kills: int = 0) -> QualityEffects:
        # 001 XIX "Modifier Effects of Quality Levels" and the Hit Table
        # Modifier Chart 1b ("Ace (per 5 kills) +1", "Novice -2").
        self.check(quality)
        if quality == "novice":
            return QualityEffects(
                firing=-2, maneuver=1, notes="BHT -2, Maneuverability Requirement +1"
            )
        if quality == "average":
            return QualityEffects(notes="BHT 0")
        notes = "BHT +1 per five kills; Ace spotting +2; free target selection"
        if air_kills >= 20:
            notes += "; Concentrated Fire (twenty kills or more)"
        return QualityEffects(firing=air_kills // 5, spotting=2, notes=notes)


class AirPiratesRules(RuleSet):
    """002 14b: five qualities; advancement is a ruling (002's campaign
    sections 18-19 are not in the file)."""

    name = "air_pirates"
    title = "Air Pirates (002)"
    source = "002_cf8488af3a84ab09.txt 14b, 6c1"
    scale = ("green", "inexperienced", "average", "experienced", "ace")
    standard_entry = "average"

    # Kill credits needed to rise from each quality to the next (ruling
    # "Air Pirates advancement"): 1, 1, 2, 3 -- so Average -> Ace takes five,
    # like 001 XIX and the leaderboard.
    STEP_KILLS: dict[str, int] = {"green": 1, "inexperienced": 1, "average": 2, "experienced": 3}
    # A green pilot who completes five missions has taken the first step
    # (001 XIX: "the first 5 missions are where survival skills are acquired").
    GREEN_MISSIONS = 5

    def entry_quality(self, replacement: bool = False, characteristics: Any = None) -> str:
        if characteristics is not None and getattr(characteristics, "ace", False):
            return "ace"
        if replacement and not (
            characteristics is not None and getattr(characteristics, "experience", False)
        ):
            return "green"
        return "average"

    def earned_quality(self, record: PilotRecord) -> str:
        entry = self.entry_of(record)
        steps = self.kill_credits(record)
        if entry == "green" and record.missions >= self.GREEN_MISSIONS:
            steps += 1
        index = self.rank(entry)
        while index < len(self.scale) - 1:
            need = self.STEP_KILLS[self.scale[index]]
            if steps < need:
                break
            steps -= need
            index += 1
        return self.scale[index]

    # Angels 20 pilot quality only changes attacks, so the mapping follows the
    # firing modifier of 002 6c1: green -1 -> poor; inexperienced 0 and
    # average 0 -> average; experienced +2 -> veteran; ace +4 -> ace.
    ENGINE = {
        "green": "poor",
        "inexperienced": "average",
        "average": "average",
        "experienced": "veteran",
        "ace": "ace",
    }

    EFFECTS: dict[str, QualityEffects] = {
        # 14b1.1-14b1.3 and 6c1.7
        "green": QualityEffects(
            points=-2,
            firing=-1,
            spotting=-2,
            forbidden=("half_loop", "tight_turn"),
            notes="14b1: -2 points, -2 spotting, no half loop or tight turn; 6c1.7 -1 firing",
        ),
        # 14b2.1-14b2.3 (no firing modifier is given)
        "inexperienced": QualityEffects(
            points=-1,
            spotting=-1,
            forbidden=("half_loop",),
            notes="14b2: -1 point, -1 spotting, no half loop",
        ),
        # 14b3
        "average": QualityEffects(notes="14b3: standard value, all maneuvers"),
        # 14b4.1-14b4.3 and 6c1.6
        "experienced": QualityEffects(
            points=1, firing=2, spotting=2, notes="14b4: +1 point, +2 firing and spotting"
        ),
        # 14b5.1-14b5.3 and 6c1.5
        "ace": QualityEffects(
            points=2, firing=4, spotting=4, notes="14b5: +2 points, +4 firing and spotting"
        ),
    }

    def engine_quality(self, quality: str) -> str:
        return self.ENGINE[self.check(quality)]

    def effects(self, quality: str, air_kills: int = 0) -> QualityEffects:
        return self.EFFECTS[self.check(quality)]


RULE_SETS: dict[str, RuleSet] = {
    rules.name: rules for rules in (CardGameRules(), AirForceRules(), AirPiratesRules())
}


def get_rule_set(name: str | RuleSet) -> RuleSet:
    if isinstance(name, RuleSet):
        return name
    try:
        return RULE_SETS[name]
    except KeyError:
        raise ValueError(
            f"unknown progression rule set {name!r}; expected one of {tuple(RULE_SETS)}"
        ) from None

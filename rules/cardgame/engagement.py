"""The interception segment as one pluggable resolution step.

003 "INTERCEPTION SEGMENT": every plane on the mission (attacker and defender)
makes one air attack roll; the defender adds a flak roll at AF 7. However the
engagement is resolved -- ``card`` (the card game's d10 rolls, here),
``engine`` (the tactical engine) or ``table`` (played with miniatures and
entered) -- the resolver returns one :class:`EngagementResult`, and the game
applies it the same way.

A resolver is ``resolver(engagement: Engagement, dice: Dice) ->
EngagementResult | None``. It may leave losses to be chosen by their owners
(``pending_hits``: the card mode, 003 "A player determines which of his planes
on a mission are shot down"); a resolver that decides losses itself (engine,
table) returns them in ``losses`` and ``kills`` with ``pending_hits`` empty.
Returning ``None`` means "the result will be entered later"
(``GameState.submit_engagement_result``). Which resolver a mode has is the
game's own :class:`Resolution` (``GameState.resolution``), passed with the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any

FLAK = "flak"  # the shooter id of a flak roll
FLAK_AF = 7  # 003 "INTERCEPTION SEGMENT": "the Flak roll and it has an AF = 7"
CARD_CREDIT_RULE = "card:roll-order"


@dataclass(frozen=True, slots=True)
class Combatant:
    """One plane in an engagement, with everything a resolver needs."""

    plane_id: str
    side: str
    name: str
    card_type: str
    af: int
    modifier: int  # experience bonus + night fighter + event cards, summed
    night_fighter: bool = False
    experience: int = 0
    # the modifier's terms, each named for the log: (source, amount), e.g. ("Night Raid", 1)
    modifiers: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Engagement:
    """The input of the resolution step for one mission."""

    mission_id: str
    mission_name: str
    mission_kind: str
    mission_level: int
    attacker: str
    defender: str
    attackers: tuple[Combatant, ...]
    defenders: tuple[Combatant, ...]
    flak_rolls: int = 1
    flak_af: int = FLAK_AF

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        # lists, as the state reads back from its JSON: a replayed state equals the stored one
        for side in ("attackers", "defenders"):
            data[side] = [
                {**c, "modifiers": [list(term) for term in c["modifiers"]]} for c in data[side]
            ]
        return data


@dataclass(frozen=True, slots=True)
class Kill:
    shooter_id: str  # a plane instance id, or "flak"
    victim_id: str
    credit_rule: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """One air attack roll (card mode): die + modifier >= target is a hit."""

    shooter_id: str
    side: str
    die: int
    modifier: int
    target: int
    hit: bool
    modifiers: tuple[tuple[str, int], ...] = ()  # the modifier's named terms (Combatant.modifiers)

    def to_json(self) -> dict[str, Any]:
        # lists, as the state reads back from its JSON: a replayed state equals the stored one
        return {**asdict(self), "modifiers": [[name, amount] for name, amount in self.modifiers]}


@dataclass(frozen=True, slots=True)
class Damage:
    plane_id: str
    amount: int
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SurvivalRoll:
    plane_id: str
    roll: int
    outcome: str  # e.g. "survived", "wounded", "killed", "captured"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class EngagementResult:
    """The one shape of an engagement's outcome, whatever resolved it.

    ``losses`` -- plane instance ids shot down (both sides);
    ``kills`` -- who shot down whom and by which credit rule;
    ``damage`` / ``retreats`` / ``survival_rolls`` -- from the engine or the
    table (the card mode has none); ``dice`` -- every die rolled, as
    ``(purpose, sides, value)``; ``rolls`` -- the card mode's attack rolls;
    ``pending_hits`` -- ``(side_losing_planes, (shooter_id, ...))`` hits whose
    victims the owning side has still to choose (empty once final).
    """

    mode: str
    mission_id: str
    losses: tuple[str, ...] = ()
    kills: tuple[Kill, ...] = ()
    damage: tuple[Damage, ...] = ()
    retreats: tuple[str, ...] = ()
    survival_rolls: tuple[SurvivalRoll, ...] = ()
    dice: tuple[tuple[str, int, int], ...] = ()
    rolls: tuple[AttackRoll, ...] = ()
    pending_hits: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())

    @property
    def is_final(self) -> bool:
        return not self.pending_hits

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "mission_id": self.mission_id,
            "losses": list(self.losses),
            "kills": [k.to_json() for k in self.kills],
            "damage": [d.to_json() for d in self.damage],
            "retreats": list(self.retreats),
            "survival_rolls": [s.to_json() for s in self.survival_rolls],
            "dice": [list(d) for d in self.dice],
            "rolls": [r.to_json() for r in self.rolls],
            "pending_hits": [[side, list(shooters)] for side, shooters in self.pending_hits],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EngagementResult:
        return cls(
            mode=data["mode"],
            mission_id=data["mission_id"],
            losses=tuple(data.get("losses", ())),
            kills=tuple(Kill(**k) for k in data.get("kills", ())),
            damage=tuple(Damage(**d) for d in data.get("damage", ())),
            retreats=tuple(data.get("retreats", ())),
            survival_rolls=tuple(SurvivalRoll(**s) for s in data.get("survival_rolls", ())),
            dice=tuple((p, int(s), int(v)) for p, s, v in data.get("dice", ())),
            rolls=tuple(
                AttackRoll(
                    **{**r, "modifiers": tuple((str(n), int(a)) for n, a in r.get("modifiers", ()))}
                )
                for r in data.get("rolls", ())
            ),
            pending_hits=tuple((side, tuple(sh)) for side, sh in data.get("pending_hits", ())),
        )


Resolver = Callable[[Engagement, Any], "EngagementResult | None"]


def resolve_card(engagement: Engagement, dice: Any) -> EngagementResult:
    """003 "INTERCEPTION SEGMENT" with the card game's own d10 rolls.

    Every plane rolls 1D10 + modifier; a total >= its AF shoots down one
    opposing plane. The defender then rolls flak (AF 7, no modifiers: flak is
    not a plane). Which planes are lost is chosen afterwards by their owners,
    so the hits come back as ``pending_hits``: for each side losing planes,
    the successful shooters in roll order (attackers' planes, then defenders'
    planes, then flak), capped at the number of planes that side has on the
    mission. Credit (``card:roll-order``): the n-th plane the owner gives up
    is credited to the n-th successful shooter.
    """
    rolls: list[AttackRoll] = []
    used: list[tuple[str, int, int]] = []
    for c in engagement.attackers + engagement.defenders:
        die = dice.d10(f"interception {c.plane_id}")
        used.append((f"interception {c.plane_id}", 10, die))
        rolls.append(
            AttackRoll(
                c.plane_id, c.side, die, c.modifier, c.af, die + c.modifier >= c.af, c.modifiers
            )
        )
    for i in range(engagement.flak_rolls):
        purpose = f"flak {i + 1}"
        die = dice.d10(purpose)
        used.append((purpose, 10, die))
        rolls.append(
            AttackRoll(
                FLAK, engagement.defender, die, 0, engagement.flak_af, die >= engagement.flak_af
            )
        )
    pending = []
    for losing_side, planes in (
        (engagement.attacker, engagement.attackers),
        (engagement.defender, engagement.defenders),
    ):
        shooters = tuple(r.shooter_id for r in rolls if r.hit and r.side != losing_side)
        shooters = shooters[: len(planes)]
        if shooters:
            pending.append((losing_side, shooters))
    return EngagementResult(
        mode="card",
        mission_id=engagement.mission_id,
        dice=tuple(used),
        rolls=tuple(rolls),
        pending_hits=tuple(pending),
    )


def wait_for_result(engagement: Engagement, dice: Any) -> None:
    """A mode resolved outside the card game (an engine battle, a battle on the
    table, one flown by people in their browsers): the game waits for its result
    (``EnterResult``)."""
    return None


#: the modes whose result is entered from outside: ``engine`` (the tactical engine),
#: ``table`` (played with miniatures), ``web`` (an engine battle flown by people)
WAITING_MODES: tuple[str, ...] = ("engine", "table", "web")


@dataclass(frozen=True)
class Resolution:
    """The one extension point of the interception: which engagement modes a game
    knows and what resolves each. Part of the game itself (``GameState.resolution``),
    never a registry filled by an app at start-up: a pure game, its replay and its
    tests resolve the same without Django. A program that resolves a mode itself
    gives its game ``STANDARD_RESOLUTION.with_mode(mode, resolver)``."""

    resolvers: Mapping[str, Resolver]

    def resolver(self, mode: str) -> Resolver | None:
        return self.resolvers.get(mode)

    def with_mode(self, mode: str, resolver: Resolver) -> Resolution:
        return Resolution(MappingProxyType({**self.resolvers, mode: resolver}))

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(self.resolvers)


#: ``card`` by the card game's own d10 rolls; every waiting mode by an entered result
STANDARD_RESOLUTION = Resolution(
    MappingProxyType({"card": resolve_card, **dict.fromkeys(WAITING_MODES, wait_for_result)})
)

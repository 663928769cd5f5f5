"""The one normalised shape of an engagement result, as the roster applies it.

Whatever resolved the engagement -- the card game's rolls (``campaign.results``),
a battle played on the table (``careers.services.table_battle_record``) or the
Angels 20 engine (:func:`record_from_engine_result`) -- it is converted into an
:class:`EngagementRecord` and handed to ``careers.services.engagement_apply``.
Pure data, no Django: pilots are referred to by their database id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from rules.angels20.detail import result_detail
from rules.careers.credit import KILL_CREDIT_RULES, credit_record

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

MODES: tuple[str, ...] = ("card", "engine", "table")
TERRITORIES: tuple[str, ...] = ("allied", "axis", "neutral")
GAMES: tuple[str, ...] = ("angels20", "air_force", "air_pirates")  # the survival rule sets


@dataclass(frozen=True, slots=True)
class FlownRecord:
    """One pilot who flew in the engagement and what happened to the aircraft.

    ``damage`` is hits taken (any system); ``crew_hits`` and ``fires`` are Air
    Pirates' (002 13c1), ``cockpit_hits`` Air Force's (001 XIX). ``destroyed``
    means the aircraft was shot down and the campaign's survival rule is
    rolled for the pilot -- unless ``survival`` already holds an outcome
    decided elsewhere (``{"outcome", "wounded_turns", "rolls", "explanation"}``).
    ``territory`` overrides the engagement's territory for this pilot
    (``allied``/``axis``/``neutral``: whose ground the pilot came down over).
    ``survival_die`` is the bail-out die the battle's game rolled for this pilot
    (the engine's 000 "PILOT SURVIVAL" d6; 001's table d6; 002's 13c1 d10):
    under that game's survival rule it is the roll (never rolled again, ruling
    "One roll, one fate"). ``damage_by_part`` is the damage by the parts the
    battle's game uses (000: ``{"airframe": n}``).
    """

    pilot_id: int
    aircraft: str = ""
    mission: bool = True
    damage: int = 0
    crew_hits: int = 0
    cockpit_hits: int = 0
    fires: int = 0
    retreated: bool = False
    destroyed: bool = False
    bailed_out_early: bool = False
    bombing_success: bool = False
    ground_targets: int = 0
    territory: str = ""
    survival: dict[str, Any] | None = None
    survival_die: int | None = None
    damage_by_part: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class KillRecord:
    """A confirmed air kill: who is credited, whom (or what type) they downed,
    in which game turn, and how the credit was decided (rule and dice)."""

    shooter_pilot_id: int
    victim_pilot_id: int | None = None
    victim_aircraft: str = ""
    turn: int | None = None
    credit: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EngagementRecord:
    """An engagement's result: who flew, kills, losses, damage, retreats, territory.

    ``territory`` is whose ground the engagement was fought over (``allied``,
    ``axis`` or ``neutral``); each pilot's survival roll reads it as friendly,
    enemy or neutral from the pilot's own side. ``survival_rule`` overrides
    the campaign's survival rule (used when there is no campaign). ``game`` is
    the game the battle was flown under (``angels20``, ``air_force``,
    ``air_pirates``; empty: the survival rule's own, as for card and table
    results and records stored before the key): a survival rule of another
    game reads its hits through ruling "A battle of one game, the bail-out of
    another". :func:`record_from_engine_result` always names it.
    """

    mode: str
    battle_ref: str
    flown: tuple[FlownRecord, ...]
    kills: tuple[KillRecord, ...] = ()
    campaign_turn: int | None = None
    territory: str = "neutral"
    survival_rule: str = ""
    game: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EngagementRecord:
        """Build a record from JSON (the API's input, a stored record); unknown keys
        are rejected with ``ValueError`` naming them."""
        data = dict(data)
        flown = tuple(_build(FlownRecord, f, "flown") for f in data.pop("flown", ()))
        kills = tuple(_build(KillRecord, k, "kills") for k in data.pop("kills", ()))
        return _build(cls, {**data, "flown": flown, "kills": kills}, "record")

    def pilot_ids(self) -> set[int]:
        ids = {f.pilot_id for f in self.flown}
        for kill in self.kills:
            ids.add(kill.shooter_pilot_id)
            if kill.victim_pilot_id is not None:
                ids.add(kill.victim_pilot_id)
        return ids


def _build(kind: type[DataclassInstance], data: Mapping[str, Any], where: str) -> Any:
    known = set(kind.__dataclass_fields__)
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    return kind(**data)


def _engine_territory(craft: Mapping[str, Any]) -> str:
    """Whose ground the engine rolled the pilot's survival over, from its modifier
    (000 "PILOT SURVIVAL": +1 friendly, -1 enemy territory)."""
    side = str(craft.get("side", ""))
    modifier = craft.get("survival_modifier") or 0
    if modifier > 0:
        return side
    if modifier < 0:
        return {"allied": "axis", "axis": "allied"}.get(side, "neutral")
    return "neutral"


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _flown_from(craft: Mapping[str, Any], pid: int) -> FlownRecord:
    """One pilot's aircraft from a detailed result entry."""
    destroyed = craft.get("fate") == "destroyed"
    bailout = craft.get("bailout") if destroyed else None
    die = bailout.get("roll") if isinstance(bailout, Mapping) else None
    parts = craft.get("damage_by_part")
    return FlownRecord(
        pilot_id=pid,
        aircraft=str(craft.get("name", "")),
        damage=_count(craft.get("damage")),
        crew_hits=_count(craft.get("crew_hits")),
        cockpit_hits=_count(craft.get("cockpit_hits")),
        fires=_count(craft.get("fires")),
        destroyed=destroyed,
        retreated=craft.get("fate") == "retreated",
        bailed_out_early=bool(isinstance(bailout, Mapping) and bailout.get("early")),
        survival_die=die if isinstance(die, int) else None,
        # the engine's 000 roll was made over the territory its modifier says
        territory=_engine_territory(craft) if craft.get("survival_modifier") is not None else "",
        damage_by_part={str(k): _count(v) for k, v in parts.items()}
        if isinstance(parts, Mapping)
        else {},
    )


def record_from_engine_result(
    result: Mapping[str, Any],
    *,
    battle_ref: str,
    pilot_ids: Mapping[str, int],
    territory: str = "neutral",
    campaign_turn: int | None = None,
    game: str = "angels20",
    log: Iterable[Mapping[str, Any]] | None = None,
) -> EngagementRecord:
    """Convert a tactical result (``rules.tactical.TacticalResult``) into a record.

    ``game`` is the game that flew it; an *Angels 20* result (old or new) is
    first given its detail (``rules.angels20.detail.result_detail``, ``log``
    for the victory points). ``pilot_ids`` maps the result's ``pilot_ref`` to
    a roster pilot id; aircraft whose pilot_ref is not in it (scenario pilots,
    bomber tokens) are left out. Fates: destroyed -> shot down, with the
    game's own bail-out die when it rolled one (``survival_die``, and the
    territory it was rolled over: ruling "One roll, one fate"), its damage by
    part, crew and cockpit hits, fires and early bail-out; retreated -> a
    retreat. Kills go to ``attacker_pilot_ref`` with the rule the game
    credited them by (``credit_rule``, its roll-off dice).
    """
    if game == "angels20":
        result = result_detail(result, log)
    flown: list[FlownRecord] = []
    names: dict[str, str] = {}
    for craft in result.get("aircraft", ()):
        names[str(craft.get("id"))] = str(craft.get("name", ""))
        pid = pilot_ids.get(str(craft.get("pilot_ref")))
        if pid is not None:
            flown.append(_flown_from(craft, pid))
    kills: list[KillRecord] = []
    for kill in result.get("kills", ()):
        shooter = pilot_ids.get(str(kill.get("attacker_pilot_ref")))
        if shooter is None:
            continue
        contenders = [
            names.get(str(c), str(c)) for c in kill.get("contenders") or [kill.get("attacker")]
        ]
        credit = credit_record(
            rule=str(kill.get("credit_rule") or KILL_CREDIT_RULES.get(game, "")),
            shooter=names.get(str(kill.get("attacker")), ""),
            contenders=contenders,
            rolls=kill.get("credit_rolls") or [],
            names=names,
        )
        kills.append(
            KillRecord(
                shooter_pilot_id=shooter,
                victim_pilot_id=pilot_ids.get(str(kill.get("target_pilot_ref"))),
                victim_aircraft=names.get(str(kill.get("target")), ""),
                turn=kill.get("turn"),
                credit=credit,
            )
        )
    return EngagementRecord(
        mode="engine",
        battle_ref=battle_ref,
        flown=tuple(flown),
        kills=tuple(kills),
        campaign_turn=campaign_turn,
        territory=territory,
        game=game,
    )

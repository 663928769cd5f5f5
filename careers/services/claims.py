"""Table mode: battles played with miniatures on the table, recorded and
applied to the roster, and the kill claims the organiser confirms or denies."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

from django.db import transaction
from django.db.models import Count

from angels.errors import RuleViolation
from angels.numbers import MAX_TURN
from roster.enrolment import pilot_require_available
from roster.models import AircraftType, Pilot
from rules.careers import awards_due, credit_kill, get_rule_set, is_ace
from rules.dice import Dice

from ..models import (
    UNCONFIRMED_KILL_STATES,
    Claim,
    ClaimState,
    PilotAward,
    PilotEvent,
    PilotEventKind,
    TableBattle,
    TableSystem,
    Territory,
)
from ..records import EngagementRecord, FlownRecord
from ..types import CampaignLike, CampaignModel
from .progress import _Context, _context, _granted, _progress, _record_of, _seed_for
from .results import engagement_apply

_SYSTEM_HITS = {
    "angels20": (),
    "air_force": ("cockpit_hits",),
    "air_pirates": ("crew_hits", "fires"),
}


def _flight_record(i: int, data: dict[str, Any], system: str) -> FlownRecord:
    allowed = {"pilot_id", "aircraft", "damage", "retreated", "destroyed", "bailed_out_early",
               "crew_hits", "cockpit_hits", "fires", "mission"}  # fmt: skip
    unknown = set(data) - allowed
    if unknown:
        raise RuleViolation(
            f"unknown field(s) {sorted(unknown)}", field=f"flights[{i}]", code="format"
        )
    for name in ("crew_hits", "cockpit_hits", "fires"):
        if data.get(name) and name not in _SYSTEM_HITS[system]:
            raise RuleViolation(
                f"{TableSystem(system).label} has no {name.replace('_', ' ')}",
                field=f"flights[{i}].{name}", code="invalid",
            )  # fmt: skip
    if data.get("bailed_out_early") and system != "air_pirates":
        raise RuleViolation(
            "only Air Pirates has early bail-out (13c3)",
            field=f"flights[{i}].bailed_out_early",
            code="invalid",
        )
    try:
        return FlownRecord(**{"mission": True, **data})
    except TypeError as exc:
        raise RuleViolation(str(exc), field=f"flights[{i}]", code="format") from exc


@transaction.atomic
def table_battle_record(
    *, name: str, system: str, territory: str, flights: list[dict[str, Any]],
    kills: list[dict[str, Any]] = (), damages: list[dict[str, Any]] = (),  # type: ignore[assignment]
    probables: list[dict[str, Any]] = (), campaign: CampaignLike | None = None, campaign_turn: int | None = None,  # type: ignore[assignment]
    recorded_by: str = "", confirm: bool = False, survival_dice: Dice | None = None,
) -> TableBattle:  # fmt: skip
    """Record a battle played on the table and apply it to the roster.

    ``flights``: ``{"pilot_id", "aircraft", "damage", "retreated", "destroyed",
    "crew_hits"/"fires" (Air Pirates), "cockpit_hits" (Air Force),
    "bailed_out_early" (Air Pirates)}``. ``kills``: one per aircraft shot down,
    ``{"victim_pilot_id" or "victim_aircraft", "attacks": [[shooter_pilot_id,
    turn, sequence], ...]}``; the kill is claimed for the last aircraft to fire
    (``rules.careers.credit_kill``, ties by a recorded die) and the others who
    fired in that last attack get ``shared`` claims. ``damages`` and
    ``probables``: ``{"pilot_id", "victim_pilot_id" or "victim_aircraft",
    "turn"}``. Missions, damage, shoot-downs and survival are applied at once
    (``engagement_apply``); kills count only when the organiser confirms the
    claim (``confirm=True`` confirms every kill claim now). ``survival_dice``
    replaces the dice seeded from the battle (tests, the demo's script).
    """
    _validate_table_battle(name=name, system=system, territory=territory, flights=flights)
    if campaign_turn is not None and not (
        isinstance(campaign_turn, int) and 0 <= campaign_turn <= MAX_TURN
    ):
        raise RuleViolation(
            f"campaign_turn must be between 0 and {MAX_TURN}", field="campaign_turn", code="range"
        )
    flown = [_flight_record(i, dict(f), system) for i, f in enumerate(flights)]
    by_pilot = {f.pilot_id: f for f in flown}
    pilots = Pilot.objects.select_related("squadron", "enrolled_in").in_bulk(list(by_pilot))
    for i, f in enumerate(flown):
        if f.pilot_id not in pilots:
            raise RuleViolation(
                f"no pilot with id {f.pilot_id}", field=f"flights[{i}].pilot_id", code="exists"
            )
        # issue 12: a pilot flies only where he serves, and only on duty
        pilot_require_available(
            pilots[f.pilot_id], campaign_id=campaign.pk if campaign is not None else None,
            field=f"flights[{i}].pilot_id",
        )  # fmt: skip
    if campaign_turn is None and campaign is not None:
        campaign_turn = campaign.turn
    battle = TableBattle.objects.create(
        campaign=cast(CampaignModel, campaign), name=name, system=system, territory=territory, campaign_turn=campaign_turn,
        record={"flights": flights, "kills": list(kills), "damages": list(damages), "probables": list(probables)},
        recorded_by=recorded_by,
    )  # fmt: skip
    dice = Dice(_seed_for(f"table-credit:{battle.pk}"))
    types = {t.name: t for t in AircraftType.objects.all().only("id", "name")}
    table = _TableFlights(by_pilot=by_pilot, pilots=pilots, types=types)
    claims, destroyed = _kill_claims(battle, table, kills, dice)
    claims += _damage_claims(battle, table, damages, probables)
    for claim in claims:
        claim.full_clean(exclude=["battle", "pilot", "victim", "victim_type"])
    Claim.objects.bulk_create(claims)
    record = EngagementRecord(
        mode="table", battle_ref=f"Table: {name}", campaign_turn=campaign_turn, territory=territory,
        survival_rule="" if campaign is not None else system,
        flown=tuple(
            FlownRecord(**{**{k: getattr(f, k) for k in f.__dataclass_fields__}, "destroyed": f.destroyed or f.pilot_id in destroyed})
            for f in flown
        ),
    )  # fmt: skip
    applied, _ = engagement_apply(
        source_key=f"table:{battle.pk}",
        result=record,
        campaign=campaign,
        recorded_by=recorded_by,
        dice=survival_dice,
    )
    battle.applied_result = applied
    battle.save(update_fields=["applied_result"])
    _recount_unconfirmed({c.pilot_id for c in claims})
    if confirm:
        for claim in battle.claims.filter(state=ClaimState.CLAIMED):
            claim_confirm(claim_id=claim.pk, by=recorded_by, reason="confirmed when recorded")
    return battle


def _validate_table_battle(
    *, name: str, system: str, territory: str, flights: list[dict[str, Any]]
) -> None:
    if system not in TableSystem.values:
        raise RuleViolation(
            f"system must be one of {TableSystem.values}", field="system", code="invalid"
        )
    if territory not in Territory.values:
        raise RuleViolation(
            f"territory must be one of {Territory.values}", field="territory", code="invalid"
        )
    if not name.strip():
        raise RuleViolation("a battle needs a name", field="name", code="required")
    if not flights:
        raise RuleViolation("at least one pilot must have flown", field="flights", code="required")


@dataclass
class _TableFlights:
    """Who flew in a table battle, to check the victims and shooters of claims."""

    by_pilot: dict[int, FlownRecord]
    pilots: dict[int, Pilot]
    types: dict[str, AircraftType]

    def victim_of(
        self, item: dict[str, Any], where: str
    ) -> tuple[Pilot | None, AircraftType | None]:
        vid = item.get("victim_pilot_id")
        if vid is not None:
            if vid not in self.by_pilot:
                raise RuleViolation(
                    "the victim must be among the pilots who flew",
                    field=f"{where}.victim_pilot_id",
                    code="invalid",
                )
            victim = self.pilots[vid]
            vtype = self.types.get(self.by_pilot[vid].aircraft) or victim.squadron.aircraft_type
            return victim, vtype
        vname = item.get("victim_aircraft", "")
        if vname not in self.types:
            raise RuleViolation(
                f"unknown aircraft type {vname!r}", field=f"{where}.victim_aircraft", code="exists"
            )
        return None, self.types[vname]

    def shooter_of(self, pid: Any, where: str, victim: Pilot | None) -> Pilot:
        if pid not in self.by_pilot:
            raise RuleViolation(
                "a shooter must be among the pilots who flew", field=where, code="invalid"
            )
        if victim is not None and self.pilots[pid].squadron.side == victim.squadron.side:
            raise RuleViolation(
                "a pilot cannot claim an aircraft of his own side", field=where, code="invalid"
            )
        return self.pilots[pid]


def _kill_claims(
    battle: TableBattle, table: _TableFlights, kills: list[dict[str, Any]], dice: Dice
) -> tuple[list[Claim], set[int]]:
    """The claims of each kill -- ``claimed`` for the last aircraft to fire
    (001 XIX), ``shared`` for the others in that attack -- and the pilots shot down."""
    destroyed: set[int] = set()
    claims: list[Claim] = []
    for i, item in enumerate(kills):
        victim, vtype = table.victim_of(item, f"kills[{i}]")
        attacks = item.get("attacks") or []
        if not attacks:
            raise RuleViolation(
                "a kill needs the attacks made on the target",
                field=f"kills[{i}].attacks",
                code="required",
            )
        for j, attack in enumerate(attacks):
            if not isinstance(attack, (list, tuple)) or len(attack) not in (2, 3):
                raise RuleViolation("an attack is [shooter_pilot_id, turn] or [shooter_pilot_id, turn, sequence]",
                                    field=f"kills[{i}].attacks[{j}]", code="format")  # fmt: skip
            table.shooter_of(attack[0], f"kills[{i}].attacks[{j}]", victim)
        names = {a[0]: table.pilots[a[0]].name for a in attacks if a[0] in table.pilots}
        credit = credit_kill([tuple(a) for a in attacks], dice=dice, names=names)
        last_turn = max(int(a[1]) for a in attacks)
        info = {"rule": "001 XIX: last aircraft to fire", "explanation": credit.explanation,
                "rolls": credit.rolls_json, "contenders": list(credit.contenders)}  # fmt: skip
        target = f"kill:{i}"
        for contender in credit.contenders:
            state = ClaimState.CLAIMED if contender == credit.shooter else ClaimState.SHARED
            # the contenders are the shooters credit_kill was given: pilot ids
            claims.append(Claim(battle=battle, pilot=table.pilots[cast(int, contender)], victim=victim, victim_type=vtype,
                                target=target, state=state, turn=last_turn, credit=info))  # fmt: skip
        if victim is not None:
            destroyed.add(victim.pk)
    return claims, destroyed


def _damage_claims(
    battle: TableBattle, table: _TableFlights, damages: list[dict[str, Any]],
    probables: list[dict[str, Any]],
) -> list[Claim]:  # fmt: skip
    """The ``damaged`` and ``probable`` claims."""
    claims: list[Claim] = []
    for group, state in ((damages, ClaimState.DAMAGED), (probables, ClaimState.PROBABLE)):
        label = "damages" if state == ClaimState.DAMAGED else "probables"
        for i, item in enumerate(group):
            victim, vtype = table.victim_of(item, f"{label}[{i}]")
            shooter = table.shooter_of(item.get("pilot_id"), f"{label}[{i}].pilot_id", victim)
            claims.append(Claim(battle=battle, pilot=shooter, victim=victim, victim_type=vtype,
                                target=f"{label[:-1]}:{i}", state=state, turn=item.get("turn")))  # fmt: skip
    return claims


def _recount_unconfirmed(pilot_ids: Any) -> None:
    counts = dict(
        Claim.objects.filter(pilot_id__in=pilot_ids, state__in=UNCONFIRMED_KILL_STATES)
        .values_list("pilot_id")
        .annotate(n=Count("id"))
        .values_list("pilot_id", "n")
    )
    for pid in pilot_ids:
        Pilot.objects.filter(pk=pid).update(unconfirmed_kills=counts.get(pid, 0))


def _claim_locked(claim_id: int) -> Claim:
    try:
        claim = (
            Claim.objects.select_for_update(of=("self",)).select_related("battle").get(pk=claim_id)
        )
    except Claim.DoesNotExist:
        raise RuleViolation(f"no claim with id {claim_id}", field="claim", code="exists") from None
    return claim


def _claim_context(claim: Claim, by: str) -> _Context:
    battle = claim.battle
    return _context(battle.campaign, applied=battle.applied_result, turn=battle.campaign_turn,
                    battle_ref=f"Table: {battle.name}", recorded_by=by)  # fmt: skip


@transaction.atomic
def claim_confirm(*, claim_id: int, by: str, reason: str = "") -> Claim:
    """The organiser confirms a kill claim (claimed, probable or shared): the pilot
    is credited with the kill, logged with its victim, battle, turn and credit dice.
    Locks the claim and the pilot. One confirmed kill per target."""
    claim = _claim_locked(claim_id)
    if claim.state not in UNCONFIRMED_KILL_STATES:
        raise RuleViolation(
            f"a {claim.state} claim cannot be confirmed as a kill",
            field="state",
            code="state",
        )
    if Claim.objects.filter(
        battle_id=claim.battle_id, target=claim.target, state=ClaimState.CONFIRMED
    ).exists():
        raise RuleViolation(
            "another pilot's claim on this aircraft is already confirmed",
            field="claim",
            code="conflict",
        )
    pilot = Pilot.objects.select_for_update().get(pk=claim.pilot_id)
    ctx = _claim_context(claim, by)
    kills_before = pilot.air_kills
    claim.quality_before = pilot.quality
    pilot.air_kills += 1
    flew = next((str(f.get("aircraft") or "") for f in (claim.battle.record or {}).get("flights", ())
                 if isinstance(f, dict) and f.get("pilot_id") == pilot.pk), "")  # fmt: skip
    ctx.log(pilot, PilotEventKind.KILL, campaign_turn=claim.battle.campaign_turn, dice=claim.credit.get("rolls", []),
            details={"aircraft": flew, "victim": str(claim.victim) if claim.victim_id else "", "victim_pilot_id": claim.victim_id,
                     "victim_aircraft": claim.victim_type.name if claim.victim_type else "", "turn": claim.turn,
                     "claim": claim.pk, "credit_rule": claim.credit.get("rule", "organiser"),
                     "credit": claim.credit.get("explanation", ""), "reason": reason})  # fmt: skip
    _progress(
        pilot, ctx, kills_before=kills_before, granted=_granted([pilot.pk]).get(pilot.pk, set())
    )
    claim.state, claim.was_confirmed, claim.quality_after = (
        ClaimState.CONFIRMED,
        True,
        pilot.quality,
    )
    claim.decided_by, claim.reason = by, reason
    claim.save()
    _recount_unconfirmed([pilot.pk])
    return claim


@transaction.atomic
def claim_deny(*, claim_id: int, by: str, reason: str) -> Claim:
    """The organiser denies a claim. A confirmed kill is taken back: the kill
    count falls, the quality it gave is undone, an ace status and kill awards no
    longer earned are removed -- each logged. Locks the claim and the pilot."""
    if not reason.strip():
        raise RuleViolation("say why the claim is denied", field="reason", code="required")
    claim = _claim_locked(claim_id)
    if claim.state == ClaimState.DENIED:
        raise RuleViolation("the claim is already denied", field="state", code="state")
    pilot = Pilot.objects.select_for_update().get(pk=claim.pilot_id)
    ctx = _claim_context(claim, by)
    was = claim.state
    details = {"claim": claim.pk, "was": was, "reason": reason,
               "victim_aircraft": claim.victim_type.name if claim.victim_type else "",
               "victim": str(claim.victim) if claim.victim_id else ""}  # fmt: skip
    if was == ClaimState.CONFIRMED:
        # the denial counts against the aircraft its kill counted for (careers.tallies)
        kill = PilotEvent.objects.filter(
            pilot=pilot, kind=PilotEventKind.KILL, details__claim=claim.pk
        ).last()
        if kill is not None and isinstance(kill.details, dict) and kill.details.get("aircraft"):
            details["aircraft"] = kill.details["aircraft"]
        kills_before = pilot.air_kills
        pilot.air_kills = max(0, pilot.air_kills - 1)
        details["air_kills"] = pilot.air_kills
        ctx.log(pilot, PilotEventKind.KILL_DENIED, details=details)
        rules = get_rule_set(pilot.quality_scale)
        if (
            claim.quality_before
            and pilot.quality == claim.quality_after
            and claim.quality_after != claim.quality_before
        ):
            quality = rules.quality_for(replace(_record_of(pilot), quality=claim.quality_before))
            if quality != pilot.quality:
                ctx.log(pilot, PilotEventKind.QUALITY,
                        details={"from": pilot.quality, "to": quality, "rule_set": rules.name, "reason": "kill denied"})  # fmt: skip
                pilot.quality = quality
        if is_ace(kills_before) and not is_ace(pilot.air_kills):
            ctx.log(
                pilot,
                PilotEventKind.ACE_LOST,
                details={"confirmed_air_kills": pilot.air_kills, "claim": claim.pk},
            )
        still = {a.name for a in awards_due(_record_of(pilot), pilot.nation, ctx.awards)}
        kill_awards = {a.name for a in ctx.awards if a.threshold_kind == "kills"}
        for award in PilotAward.objects.filter(pilot=pilot, name__in=kill_awards - still):
            ctx.log(
                pilot,
                PilotEventKind.AWARD_REVOKED,
                details={"award": award.name, "reason": "kill denied", "claim": claim.pk},
            )
            award.delete()
        pilot.save()
    else:
        ctx.log(pilot, PilotEventKind.KILL_DENIED, details=details)
    claim.state, claim.decided_by, claim.reason = ClaimState.DENIED, by, reason
    claim.save()
    _recount_unconfirmed([pilot.pk])
    return claim

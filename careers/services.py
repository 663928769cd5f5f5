"""Career writes: the career log, engagement results, table-mode claims,
replacements, the organiser's acts on pilots, career settings and awards."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from angels.errors import RuleViolation
from roster.models import AircraftType, Airframe, AirframeState, Pilot, PilotStatus, Squadron
from roster.services import clean_and_save, pilot_create
from rules.careers import (
    OUTCOMES,
    SURVIVAL_RULE_SETS,
    Award,
    PilotRecord,
    awards_due,
    credit_kill,
    get_rule_set,
    is_ace,
    roll_characteristics,
    roll_survival,
)
from rules.dice import Dice, derive_seed

from .models import (
    UNCONFIRMED_KILL_STATES,
    AppliedResult,
    AwardDefinition,
    CareerSettings,
    Claim,
    ClaimState,
    PilotAward,
    PilotEvent,
    PilotEventKind,
    ResultMode,
    TableBattle,
    TableSystem,
    Territory,
)
from .records import MODES, EngagementRecord, FlownRecord
from .records import TERRITORIES as RECORD_TERRITORIES
from .types import CampaignLike


def pilot_log(
    *, pilot: Pilot, kind: str, campaign_turn: int | None = None, battle_ref: str = "",
    details: dict[str, Any] | None = None, dice: list[Any] | None = None, recorded_by: str = "",
    campaign: CampaignLike | None = None, applied_result: AppliedResult | None = None,
) -> PilotEvent:  # fmt: skip
    return PilotEvent.objects.create(
        pilot=pilot, kind=kind, campaign_turn=campaign_turn, battle_ref=battle_ref,
        details=details or {}, dice=dice or [], recorded_by=recorded_by,
        campaign=campaign, applied_result=applied_result,
    )  # fmt: skip


@transaction.atomic
def pilot_enlist(
    *, squadron: Squadron, name: str, rank: str = "", quality: str = "average", quality_scale: str = "card_game",
    campaign_turn: int | None = None, recorded_by: str = "", entry_quality: str = "",
    campaign: CampaignLike | None = None, details: dict[str, Any] | None = None, dice: list[Any] | None = None,
    **characteristics: Any,
) -> Pilot:  # fmt: skip
    """Enlist a pilot in a squadron (``roster.services.pilot_create``) and open the career log."""
    pilot = pilot_create(
        squadron=squadron, name=name, rank=rank, quality=quality, quality_scale=quality_scale,
        entry_quality=entry_quality, **characteristics,
    )  # fmt: skip
    pilot_log(
        pilot=pilot, kind=PilotEventKind.JOINED, campaign_turn=campaign_turn, campaign=campaign,
        details={"squadron": squadron.name, "quality": quality, **(details or {})},
        dice=dice, recorded_by=recorded_by,
    )  # fmt: skip
    return pilot


# =====================================================================================
# Pilot careers: engagement results, table-mode claims, replacements, organiser acts.
# =====================================================================================


def _seed_for(key: str) -> int:
    """A stable dice seed derived from a source key, so a result replays."""
    return derive_seed(0, key)


def _relative_territory(territory: str, side: str) -> str:
    """Whose ground (allied/axis/neutral) as the pilot of ``side`` sees it."""
    if territory == "neutral":
        return "neutral"
    return "friendly" if territory == side else "enemy"


@dataclass
class _Context:
    campaign: CampaignLike | None
    applied_result: AppliedResult | None
    campaign_turn: int | None
    battle_ref: str
    recorded_by: str
    awards: list[Award]

    def log(self, pilot: Pilot, kind: str, **kwargs: Any) -> PilotEvent:
        kwargs.setdefault("campaign_turn", self.campaign_turn)
        kwargs.setdefault("battle_ref", self.battle_ref)
        return pilot_log(
            pilot=pilot, kind=kind, campaign=self.campaign, applied_result=self.applied_result,
            recorded_by=self.recorded_by, **kwargs,
        )  # fmt: skip


def _award_rules(campaign: CampaignLike | None) -> list[Award]:
    if campaign is None:
        return []
    return [
        Award(name=a.name, nation=a.nation or None, threshold_kind=a.threshold_kind, threshold=a.threshold)
        for a in AwardDefinition.objects.filter(campaign=campaign)
    ]  # fmt: skip


def _context(
    campaign: CampaignLike | None, *, applied: AppliedResult | None = None, turn: int | None = None,
    battle_ref: str = "", recorded_by: str = "",
) -> _Context:  # fmt: skip
    return _Context(campaign, applied, turn, battle_ref, recorded_by, _award_rules(campaign))


def _record_of(pilot: Pilot) -> PilotRecord:
    return PilotRecord.from_obj(pilot, entry_quality=pilot.entry_quality or None)


def _progress(pilot: Pilot, ctx: _Context, *, kills_before: int, granted: set[str]) -> None:
    """After a pilot's counts changed: quality by the pilot's rule set, Air Force
    Experience after five missions, ace status, awards. Saves the pilot."""
    rules = get_rule_set(pilot.quality_scale)
    record = _record_of(pilot)
    quality = rules.quality_for(record)
    if quality != pilot.quality:
        ctx.log(pilot, PilotEventKind.QUALITY,
                details={"from": pilot.quality, "to": quality, "rule_set": rules.name,
                         "missions": pilot.experience_markers, "air_kills": pilot.air_kills,
                         "kill_credits": rules.kill_credits(record)})  # fmt: skip
        pilot.quality = quality
    if rules.name == "air_force" and not pilot.experience and rules.experience_for(record):
        pilot.experience = True
        ctx.log(pilot, PilotEventKind.CHARACTERISTIC,
                details={"characteristic": "Experience", "rule": "001 XIX: five missions completed"})  # fmt: skip
    if not is_ace(kills_before) and is_ace(pilot.air_kills):
        ctx.log(pilot, PilotEventKind.ACE, details={"confirmed_air_kills": pilot.air_kills})
    for award in awards_due(_record_of(pilot), pilot.nation, ctx.awards, granted):
        PilotAward.objects.create(
            pilot=pilot, name=award.name, campaign=ctx.campaign, campaign_turn=ctx.campaign_turn
        )
        granted.add(award.name)
        ctx.log(pilot, PilotEventKind.AWARD,
                details={"award": award.name, "threshold_kind": award.threshold_kind, "threshold": award.threshold})  # fmt: skip
    pilot.save()


def _granted(pilot_ids: Any) -> dict[int, set[str]]:
    granted: dict[int, set[str]] = {}
    for pid, name in PilotAward.objects.filter(pilot_id__in=pilot_ids).values_list(
        "pilot_id", "name"
    ):
        granted.setdefault(pid, set()).add(name)
    return granted


def _unassign_airframe(pilot: Pilot, *, destroyed: bool) -> str:
    airframe = Airframe.objects.filter(pilot=pilot).first()
    if airframe is None:
        return ""
    airframe.pilot = None
    if destroyed:
        airframe.state = AirframeState.DESTROYED
    airframe.save(update_fields=["pilot", "state"])
    return airframe.serial


def _apply_outcome(pilot: Pilot, ctx: _Context, outcome: str, wounded_turns: int) -> None:
    if outcome in ("wounded", "seriously_wounded"):
        until = (ctx.campaign_turn or 0) + max(1, wounded_turns)
        pilot.status, pilot.wounded_until_turn = PilotStatus.WOUNDED, until
        ctx.log(pilot, PilotEventKind.WOUNDED,
                details={"severity": outcome, "turns_out": max(1, wounded_turns), "returns_on_turn": until})  # fmt: skip
    elif outcome in ("captured", "killed", "missing"):
        pilot.status, pilot.wounded_until_turn = outcome, None
        ctx.log(pilot, outcome, details={"outcome": outcome})


def _validate_record(record: EngagementRecord, survival_rule: str) -> None:
    if record.mode not in MODES:
        raise RuleViolation(f"mode must be one of {MODES}", field="mode", code="invalid")
    if record.territory not in RECORD_TERRITORIES:
        raise RuleViolation(
            f"territory must be one of {RECORD_TERRITORIES}", field="territory", code="invalid"
        )
    if survival_rule not in SURVIVAL_RULE_SETS:
        raise RuleViolation(
            f"survival rule must be one of {SURVIVAL_RULE_SETS}",
            field="survival_rule",
            code="invalid",
        )
    if not record.battle_ref.strip():
        raise RuleViolation(
            "an engagement needs a battle reference", field="battle_ref", code="required"
        )
    seen: set[int] = set()
    for i, flown in enumerate(record.flown):
        if flown.pilot_id in seen:
            raise RuleViolation(
                "a pilot flies once per engagement", field=f"flown[{i}].pilot_id", code="conflict"
            )
        seen.add(flown.pilot_id)
        for name in ("damage", "crew_hits", "cockpit_hits", "fires", "ground_targets"):
            value = getattr(flown, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RuleViolation(
                    f"{name} must be a whole number of 0 or more",
                    field=f"flown[{i}].{name}",
                    code="format",
                )
        if flown.territory and flown.territory not in RECORD_TERRITORIES:
            raise RuleViolation(
                f"territory must be one of {RECORD_TERRITORIES}",
                field=f"flown[{i}].territory",
                code="invalid",
            )
        if flown.survival is not None and flown.survival.get("outcome") not in OUTCOMES:
            raise RuleViolation(
                f"survival outcome must be one of {OUTCOMES}",
                field=f"flown[{i}].survival",
                code="invalid",
            )
    for i, kill in enumerate(record.kills):
        if kill.victim_pilot_id is not None and kill.victim_pilot_id == kill.shooter_pilot_id:
            raise RuleViolation(
                "a pilot cannot shoot himself down",
                field=f"kills[{i}].victim_pilot_id",
                code="invalid",
            )
    # fmt: skip


def engagement_apply(
    *, source_key: str, result: EngagementRecord, campaign: CampaignLike | None = None, recorded_by: str = "",
    dice: Dice | None = None,
) -> tuple[AppliedResult, bool]:  # fmt: skip
    """Apply an engagement result to the roster, exactly once.

    Returns ``(applied, created)``; a second call with the same ``source_key``
    changes nothing and returns the first row with ``created=False``. In one
    transaction: the :class:`AppliedResult` row (its unique key is the
    exactly-once guard), then for each pilot who flew a mission, damage taken,
    bombing and strafing credits; each kill; each aircraft destroyed: the
    shoot-down, the campaign's survival roll (dice seeded from the source key
    unless ``dice`` is given) and its outcome; then quality by the pilot's rule
    set, Air Force Experience, ace status and the campaign's awards. Locks the
    pilots involved (``select_for_update``). Raises :class:`RuleViolation`
    (nothing stored) for a malformed record or a pilot not on duty.
    """
    survival_rule = result.survival_rule or (
        campaign.survival_rule if campaign is not None else "angels20"
    )
    _validate_record(result, survival_rule)
    existing = AppliedResult.objects.filter(source_key=source_key).first()
    if existing is not None:
        return existing, False
    seed = _seed_for(source_key)
    dice = dice if dice is not None else Dice(seed)
    turn = result.campaign_turn
    if turn is None and campaign is not None:
        turn = campaign.turn
    with transaction.atomic():
        try:
            with transaction.atomic():
                applied = AppliedResult.objects.create(
                    source_key=source_key, campaign=campaign, mode=result.mode, battle_ref=result.battle_ref,
                    campaign_turn=turn, seed=seed, record=result.to_json(), recorded_by=recorded_by,
                )  # fmt: skip
        except IntegrityError:
            return AppliedResult.objects.get(source_key=source_key), False
        ids = result.pilot_ids()
        pilots = {
            p.pk: p
            for p in Pilot.objects.select_for_update(of=("self",)).select_related("squadron").filter(pk__in=ids)
        }  # fmt: skip
        for i, flown in enumerate(result.flown):
            pilot = pilots.get(flown.pilot_id)
            if pilot is None:
                raise RuleViolation(
                    f"no pilot with id {flown.pilot_id}",
                    field=f"flown[{i}].pilot_id",
                    code="exists",
                )
            if pilot.status != PilotStatus.ACTIVE:
                raise RuleViolation(
                    f"{pilot} is {pilot.status}, not on duty", field=f"flown[{i}].pilot_id", code="state"
                )  # fmt: skip
        for i, kill in enumerate(result.kills):
            for name in ("shooter_pilot_id", "victim_pilot_id"):
                pid = getattr(kill, name)
                if pid is not None and pid not in pilots:
                    raise RuleViolation(
                        f"no pilot with id {pid}", field=f"kills[{i}].{name}", code="exists"
                    )
        ctx = _context(
            campaign,
            applied=applied,
            turn=turn,
            battle_ref=result.battle_ref,
            recorded_by=recorded_by,
        )
        before = {pid: p.air_kills for pid, p in pilots.items()}
        granted = _granted(list(pilots))
        summary: dict[str, Any] = {}
        shooters = {
            k.victim_pilot_id: k.shooter_pilot_id for k in result.kills if k.victim_pilot_id
        }
        for flown in result.flown:
            pilot = pilots[flown.pilot_id]
            entry: dict[str, Any] = {"pilot": str(pilot), "aircraft": flown.aircraft}
            if flown.mission:
                pilot.experience_markers += 1
                ctx.log(pilot, PilotEventKind.MISSION,
                        details={"aircraft": flown.aircraft, "mode": result.mode, "retreated": flown.retreated,
                                 "missions": pilot.experience_markers})  # fmt: skip
            if flown.damage or flown.crew_hits or flown.cockpit_hits or flown.fires:
                ctx.log(pilot, PilotEventKind.DAMAGED,
                        details={"damage": flown.damage, "crew_hits": flown.crew_hits,
                                 "cockpit_hits": flown.cockpit_hits, "fires": flown.fires,
                                 "aircraft": flown.aircraft})  # fmt: skip
                entry["damage"] = flown.damage
            if flown.bombing_success:
                pilot.bombing_successes += 1
                ctx.log(pilot, PilotEventKind.BOMBING_SUCCESS, details={"aircraft": flown.aircraft})
            if flown.ground_targets:
                pilot.ground_credits += flown.ground_targets
                ctx.log(
                    pilot, PilotEventKind.GROUND_CREDIT, details={"targets": flown.ground_targets}
                )
            if flown.retreated:
                entry["retreated"] = True
            summary[str(pilot.pk)] = entry
        for kill in result.kills:
            shooter = pilots[kill.shooter_pilot_id]
            victim = pilots.get(kill.victim_pilot_id) if kill.victim_pilot_id else None
            shooter.air_kills += 1
            ctx.log(shooter, PilotEventKind.KILL, dice=list(kill.credit.get("rolls", [])),
                    details={"victim": str(victim) if victim else "", "victim_pilot_id": kill.victim_pilot_id,
                             "victim_aircraft": kill.victim_aircraft, "turn": kill.turn,
                             "credit_rule": kill.credit.get("rule", ""), "credit": kill.credit.get("explanation", "")})  # fmt: skip
            summary.setdefault(str(shooter.pk), {"pilot": str(shooter)}).setdefault("kills", 0)
            summary[str(shooter.pk)]["kills"] += 1
        for flown in result.flown:
            if not flown.destroyed:
                continue
            pilot = pilots[flown.pilot_id]
            killer = pilots.get(shooters.get(pilot.pk)) if shooters.get(pilot.pk) else None
            serial = _unassign_airframe(pilot, destroyed=True)
            ctx.log(pilot, PilotEventKind.SHOT_DOWN,
                    details={"aircraft": flown.aircraft, "airframe": serial, "shot_down_by": str(killer) if killer else ""})  # fmt: skip
            territory = _relative_territory(
                flown.territory or result.territory, pilot.squadron.side
            )
            if flown.survival is not None:
                fate = dict(flown.survival)
                outcome, turns, rolls = (
                    fate["outcome"],
                    int(fate.get("wounded_turns", 0)),
                    list(fate.get("rolls", [])),
                )
                details = {
                    "rule_set": fate.get("rule_set", result.mode),
                    "territory": territory,
                    **fate,
                }
            else:
                rolled = roll_survival(
                    survival_rule, dice=dice, territory=territory, cockpit_hits=flown.cockpit_hits,
                    crew_hits=flown.crew_hits, fires=flown.fires, bailed_out_early=flown.bailed_out_early,
                )  # fmt: skip
                outcome, turns, rolls, details = (
                    rolled.outcome,
                    rolled.wounded_turns,
                    rolled.rolls_json,
                    rolled.to_json(),
                )
            ctx.log(pilot, PilotEventKind.SURVIVAL_ROLL, details=details, dice=rolls)
            _apply_outcome(pilot, ctx, outcome, turns)
            summary[str(pilot.pk)].update(shot_down=True, outcome=outcome, wounded_turns=turns)
        for pid, pilot in pilots.items():
            _progress(pilot, ctx, kills_before=before[pid], granted=granted.setdefault(pid, set()))
        applied.summary = summary
        applied.save(update_fields=["summary"])
    return applied, True


# -- table mode: battles played with miniatures, claims confirmed by the organiser --

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
    flown = [_flight_record(i, dict(f), system) for i, f in enumerate(flights)]
    by_pilot = {f.pilot_id: f for f in flown}
    pilots = Pilot.objects.select_related("squadron").in_bulk(list(by_pilot))
    for i, f in enumerate(flown):
        if f.pilot_id not in pilots:
            raise RuleViolation(
                f"no pilot with id {f.pilot_id}", field=f"flights[{i}].pilot_id", code="exists"
            )
    if campaign_turn is None and campaign is not None:
        campaign_turn = campaign.turn
    battle = TableBattle.objects.create(
        campaign=campaign, name=name, system=system, territory=territory, campaign_turn=campaign_turn,
        record={"flights": flights, "kills": list(kills), "damages": list(damages), "probables": list(probables)},
        recorded_by=recorded_by,
    )  # fmt: skip
    dice = Dice(_seed_for(f"table-credit:{battle.pk}"))
    types = {t.name: t for t in AircraftType.objects.all().only("id", "name")}

    def victim_of(item: dict[str, Any], where: str) -> tuple[Pilot | None, AircraftType | None]:
        vid = item.get("victim_pilot_id")
        if vid is not None:
            if vid not in by_pilot:
                raise RuleViolation(
                    "the victim must be among the pilots who flew",
                    field=f"{where}.victim_pilot_id",
                    code="invalid",
                )
            victim = pilots[vid]
            vtype = types.get(by_pilot[vid].aircraft) or victim.squadron.aircraft_type
            return victim, vtype
        vname = item.get("victim_aircraft", "")
        if vname not in types:
            raise RuleViolation(
                f"unknown aircraft type {vname!r}", field=f"{where}.victim_aircraft", code="exists"
            )
        return None, types[vname]

    def shooter_of(pid: Any, where: str, victim: Pilot | None) -> Pilot:
        if pid not in by_pilot:
            raise RuleViolation(
                "a shooter must be among the pilots who flew", field=where, code="invalid"
            )
        if victim is not None and pilots[pid].squadron.side == victim.squadron.side:
            raise RuleViolation(
                "a pilot cannot claim an aircraft of his own side", field=where, code="invalid"
            )
        return pilots[pid]

    destroyed: set[int] = set()
    claims: list[Claim] = []
    for i, item in enumerate(kills):
        victim, vtype = victim_of(item, f"kills[{i}]")
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
            shooter_of(attack[0], f"kills[{i}].attacks[{j}]", victim)
        credit = credit_kill([tuple(a) for a in attacks], dice=dice)
        last_turn = max(int(a[1]) for a in attacks)
        info = {"rule": "001 XIX: last aircraft to fire", "explanation": credit.explanation,
                "rolls": credit.rolls_json, "contenders": list(credit.contenders)}  # fmt: skip
        target = f"kill:{i}"
        for contender in credit.contenders:
            state = ClaimState.CLAIMED if contender == credit.shooter else ClaimState.SHARED
            claims.append(Claim(battle=battle, pilot=pilots[contender], victim=victim, victim_type=vtype,
                                target=target, state=state, turn=last_turn, credit=info))  # fmt: skip
        if victim is not None:
            destroyed.add(victim.pk)
    for group, state in ((damages, ClaimState.DAMAGED), (probables, ClaimState.PROBABLE)):
        label = "damages" if state == ClaimState.DAMAGED else "probables"
        for i, item in enumerate(group):
            victim, vtype = victim_of(item, f"{label}[{i}]")
            shooter = shooter_of(item.get("pilot_id"), f"{label}[{i}].pilot_id", victim)
            claims.append(Claim(battle=battle, pilot=shooter, victim=victim, victim_type=vtype,
                                target=f"{label[:-1]}:{i}", state=state, turn=item.get("turn")))  # fmt: skip
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
    ctx.log(pilot, PilotEventKind.KILL, campaign_turn=claim.battle.campaign_turn, dice=claim.credit.get("rolls", []),
            details={"victim": str(claim.victim) if claim.victim_id else "", "victim_pilot_id": claim.victim_id,
                     "victim_aircraft": claim.victim_type.name if claim.victim_type_id else "", "turn": claim.turn,
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
               "victim_aircraft": claim.victim_type.name if claim.victim_type_id else "",
               "victim": str(claim.victim) if claim.victim_id else ""}  # fmt: skip
    if was == ClaimState.CONFIRMED:
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


# -- turns: return to duty and replacements ---------------------------------------------

_REPLACEMENT_NAMES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Germany": (("Hans", "Karl", "Fritz", "Werner", "Heinz", "Kurt", "Otto", "Ernst"),
                ("Becker", "Schulz", "Hoffmann", "Krüger", "Wolf", "Neumann", "Brandt", "Vogel")),
    "United Kingdom": (("John", "Peter", "Colin", "Alan", "Derek", "Ian", "Roy", "Eric"),
                       ("Smith", "Taylor", "Brown", "Wilson", "Hughes", "Wright", "Clarke", "Walker")),
    "Poland": (("Jan", "Stanisław", "Tadeusz", "Marian", "Józef", "Bolesław", "Henryk", "Wacław"),
               ("Nowak", "Kowalski", "Wiśniewski", "Lewandowski", "Kamiński", "Zieliński", "Szymański", "Dąbrowski")),
    "United States": (("Bill", "Jack", "Bob", "Frank", "Joe", "Harry", "Walt", "Eddie"),
                      ("Miller", "Davis", "Anderson", "Jackson", "Harris", "Martin", "Thompson", "Moore")),
}  # fmt: skip
_ANY_NAMES = (("Alex", "Max", "Leo", "Paul"), ("Novak", "Marin", "Berg", "Roux"))


def _replacement_name(nation: str, dice: Dice) -> str:
    first, last = _REPLACEMENT_NAMES.get(nation, _ANY_NAMES)
    return f"{first[dice.roll(len(first), 'replacement first name') - 1]} {last[dice.roll(len(last), 'replacement surname') - 1]}"


def career_settings_for(campaign: CampaignLike) -> CareerSettings:
    settings, _ = CareerSettings.objects.get_or_create(campaign=campaign)
    return settings


@transaction.atomic
def pilots_return_to_duty(
    *, campaign_turn: int, campaign: CampaignLike | None = None, recorded_by: str = ""
) -> list[Pilot]:
    """Wounded pilots whose return turn has come are back on duty (logged).
    With a campaign, only pilots of its squadrons. Idempotent."""
    qs = Pilot.objects.select_for_update(of=("self",)).filter(
        status=PilotStatus.WOUNDED, wounded_until_turn__lte=campaign_turn
    )
    if campaign is not None:
        qs = qs.filter(squadron__in=campaign.squadrons.all())
    returned = []
    for pilot in qs:
        pilot_log(pilot=pilot, kind=PilotEventKind.RETURNED, campaign_turn=campaign_turn, campaign=campaign,
                  details={"was_due": pilot.wounded_until_turn}, recorded_by=recorded_by)  # fmt: skip
        pilot.status, pilot.wounded_until_turn = PilotStatus.ACTIVE, None
        pilot.save(update_fields=["status", "wounded_until_turn"])
        returned.append(pilot)
    return returned


def replacements_draft(
    *, campaign: CampaignLike, campaign_turn: int, recorded_by: str = ""
) -> list[Pilot]:
    """Squadrons of the campaign below strength receive new pilots, at most the
    campaign's replacement rate each, once per campaign turn (a unique
    ``AppliedResult`` key). On strength: active and wounded pilots. New pilots
    enter at the rule set's replacement entry quality; with characteristics on,
    Vision/Reflex/Training/Experience are rolled by nation and the campaign year
    (001 XIX), an Experience or Ace roll changing the entry quality."""
    key = f"replacements:{campaign.pk}:{campaign_turn}"
    settings = career_settings_for(campaign)
    rules = get_rule_set(campaign.progression_rule)
    drafted: list[Pilot] = []
    with transaction.atomic():
        try:
            with transaction.atomic():
                applied = AppliedResult.objects.create(
                    source_key=key, campaign=campaign, mode=ResultMode.ROSTER, campaign_turn=campaign_turn,
                    battle_ref=f"Replacements, turn {campaign_turn}", seed=_seed_for(key), record={},
                    recorded_by=recorded_by,
                )  # fmt: skip
        except IntegrityError:
            return []
        dice = Dice(applied.seed)
        squadrons = campaign.squadrons.annotate(
            on_strength=Count(
                "pilots", filter=Q(pilots__status__in=[PilotStatus.ACTIVE, PilotStatus.WOUNDED])
            )
        ).order_by("name")
        summary: dict[str, Any] = {}
        for squadron in squadrons:
            count = min(
                settings.replacement_rate, max(0, squadron.target_strength - squadron.on_strength)
            )
            for _ in range(count):
                name = _replacement_name(squadron.nation, dice)
                extra: dict[str, Any] = {}
                rolls: list[Any] = []
                chars = None
                if settings.characteristics:
                    chars = roll_characteristics(squadron.nation, settings.year, dice=dice)
                    rolls = chars.rolls_json
                    c = chars.characteristics
                    extra = {
                        "vision": c.vision,
                        "reflex": c.reflex,
                        "training": c.training,
                        "experience": c.experience,
                    }
                quality = rules.entry_quality(replacement=True, characteristics=chars)
                pilot = pilot_enlist(
                    squadron=squadron, name=name, rank="", quality=quality, quality_scale=rules.name,
                    campaign_turn=campaign_turn, recorded_by=recorded_by, campaign=campaign, entry_quality=quality,
                    details={"replacement": True, "rule_set": rules.name,
                             "characteristics": chars.explanation if chars else ""},
                    dice=rolls, **extra,
                )  # fmt: skip
                summary.setdefault(squadron.name, []).append(pilot.pk)
                drafted.append(pilot)
        applied.summary = summary
        applied.save(update_fields=["summary"])
    return drafted


def campaign_turn_begin(
    *, campaign: CampaignLike, campaign_turn: int, recorded_by: str = ""
) -> dict[str, list[Pilot]]:
    """The roster's hook for the start of a campaign turn: wounded pilots due
    back return to duty, then squadrons below strength draft replacements.
    Idempotent per (campaign, turn); the campaign layer calls it when its turn
    number rises (see docs/rulings.md "Careers: the turn hook")."""
    returned = pilots_return_to_duty(
        campaign_turn=campaign_turn, campaign=campaign, recorded_by=recorded_by
    )
    drafted = replacements_draft(
        campaign=campaign, campaign_turn=campaign_turn, recorded_by=recorded_by
    )
    return {"returned": returned, "drafted": drafted}


# -- the organiser's hand: add, transfer, retire, revive; rules and awards -------------------


def _require_reason(reason: str) -> None:
    if not reason.strip():
        raise RuleViolation("say why (it is logged)", field="reason", code="required")


@transaction.atomic
def pilot_add(*, squadron: Squadron, name: str, by: str, reason: str, rank: str = "",
              campaign: CampaignLike | None = None, quality: str | None = None) -> Pilot:  # fmt: skip
    """The organiser enlists a pilot: at the rule set's entry quality unless given."""
    _require_reason(reason)
    rules = get_rule_set(campaign.progression_rule if campaign is not None else "card_game")
    quality = quality or rules.entry_quality(replacement=False)
    return pilot_enlist(
        squadron=squadron, name=name, rank=rank, quality=quality, quality_scale=rules.name,
        recorded_by=by, campaign=campaign, campaign_turn=campaign.turn if campaign is not None else None,
        details={"reason": reason, "added_by_organiser": True},
    )  # fmt: skip


def _locked_pilot(pilot_id: int) -> Pilot:
    try:
        return (
            Pilot.objects.select_for_update(of=("self",))
            .select_related("squadron")
            .get(pk=pilot_id)
        )
    except Pilot.DoesNotExist:
        raise RuleViolation(f"no pilot with id {pilot_id}", field="pilot", code="exists") from None


@transaction.atomic
def pilot_transfer(*, pilot_id: int, squadron: Squadron, by: str, reason: str) -> Pilot:
    """Move a pilot to another squadron of the same side; the airframe stays behind."""
    _require_reason(reason)
    pilot = _locked_pilot(pilot_id)
    if squadron.pk == pilot.squadron_id:
        raise RuleViolation(
            "the pilot is already in that squadron", field="squadron", code="invalid"
        )
    if squadron.side != pilot.squadron.side:
        raise RuleViolation(
            f"{squadron} fights for the {squadron.side} side", field="squadron", code="invalid"
        )
    old = pilot.squadron.name
    serial = _unassign_airframe(pilot, destroyed=False)
    pilot.squadron = squadron
    pilot.save(update_fields=["squadron"])
    pilot_log(pilot=pilot, kind=PilotEventKind.TRANSFER, recorded_by=by,
              details={"from": old, "to": squadron.name, "reason": reason, "airframe_left": serial})  # fmt: skip
    return pilot


@transaction.atomic
def pilot_retire(*, pilot_id: int, by: str, reason: str) -> Pilot:
    _require_reason(reason)
    pilot = _locked_pilot(pilot_id)
    if pilot.status in (PilotStatus.KILLED, PilotStatus.RETIRED):
        raise RuleViolation(f"the pilot is {pilot.status}", field="status", code="state")
    was = pilot.status
    _unassign_airframe(pilot, destroyed=False)
    pilot.status, pilot.wounded_until_turn = PilotStatus.RETIRED, None
    pilot.save(update_fields=["status", "wounded_until_turn"])
    pilot_log(
        pilot=pilot,
        kind=PilotEventKind.RETIRED,
        recorded_by=by,
        details={"was": was, "reason": reason},
    )
    return pilot


@transaction.atomic
def pilot_revive(*, pilot_id: int, by: str, reason: str) -> Pilot:
    """Bring a killed, captured, missing, retired or wounded pilot back on duty."""
    _require_reason(reason)
    pilot = _locked_pilot(pilot_id)
    if pilot.status == PilotStatus.ACTIVE:
        raise RuleViolation("the pilot is already on duty", field="status", code="state")
    was = pilot.status
    pilot.status, pilot.wounded_until_turn = PilotStatus.ACTIVE, None
    pilot.save(update_fields=["status", "wounded_until_turn"])
    pilot_log(
        pilot=pilot,
        kind=PilotEventKind.REVIVED,
        recorded_by=by,
        details={"was": was, "reason": reason},
    )
    return pilot


@transaction.atomic
def career_settings_update(*, campaign: CampaignLike, by: str, **values: Any) -> CareerSettings:
    settings = career_settings_for(campaign)
    for name, value in values.items():
        if name not in ("replacement_rate", "characteristics", "year"):
            raise RuleViolation(f"unknown setting {name!r}", field=name, code="invalid")
        setattr(settings, name, value)
    if not 1936 <= settings.year <= 1946:
        raise RuleViolation(
            "the campaign year must be 1936-1946 (001 XIX table)", field="year", code="range"
        )
    if settings.replacement_rate > 12:
        raise RuleViolation(
            "at most 12 replacements a squadron per turn", field="replacement_rate", code="range"
        )
    clean_and_save(settings)
    return settings


@transaction.atomic
def award_define(*, campaign: CampaignLike, name: str, threshold_kind: str, threshold: int, nation: str = "",
                 by: str = "") -> AwardDefinition:  # fmt: skip
    """Add an award to the campaign and grant it at once to every pilot of the
    campaign's squadrons who already meets it (logged)."""
    if AwardDefinition.objects.filter(campaign=campaign, name=name).exists():
        raise RuleViolation(
            f"the campaign already has an award called {name!r}", field="name", code="conflict"
        )
    award = AwardDefinition(
        campaign=campaign,
        name=name,
        nation=nation,
        threshold_kind=threshold_kind,
        threshold=threshold,
    )
    clean_and_save(award)
    ctx = _context(campaign, turn=campaign.turn, recorded_by=by)
    pilots = list(Pilot.objects.filter(squadron__in=campaign.squadrons.all()))
    granted = _granted([p.pk for p in pilots])
    for pilot in pilots:
        if any(
            a.name == name
            for a in awards_due(
                _record_of(pilot), pilot.nation, ctx.awards, granted.get(pilot.pk, set())
            )
        ):
            _progress(
                pilot,
                ctx,
                kills_before=pilot.air_kills,
                granted=granted.setdefault(pilot.pk, set()),
            )
    return award

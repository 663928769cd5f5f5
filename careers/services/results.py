"""Applying an engagement result to the roster, exactly once: missions, damage,
bombing and strafing credits, kills, shoot-downs with the campaign's survival
roll and its outcome, then each pilot's progress."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from django.db import IntegrityError, transaction

from angels.errors import RuleViolation
from angels.events import PILOT_LOST, send_campaign_event
from angels.numbers import MAX_ID, MAX_TURN
from roster.enrolment import pilot_require_available, pilot_unavailable_reason
from roster.models import Airframe, AirframeState, Pilot, PilotStatus
from rules.careers import OUTCOMES, SURVIVAL_RULE_SETS, roll_survival
from rules.careers.survival import SURVIVAL_DIE, hits_for_rule
from rules.dice import Dice

from ..models import AppliedResult, PilotEventKind
from ..records import MODES, EngagementRecord, FlownRecord
from ..records import TERRITORIES as RECORD_TERRITORIES
from ..tallies import tallies_batched
from ..types import CampaignLike, CampaignModel
from .progress import _Context, _context, _granted, _progress, _seed_for
from .undo import undo_begin, undo_end


def _relative_territory(territory: str, side: str) -> str:
    """Whose ground (allied/axis/neutral) as the pilot of ``side`` sees it."""
    if territory == "neutral":
        return "neutral"
    return "friendly" if territory == side else "enemy"


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
        if ctx.campaign is not None:
            send_campaign_event(campaign_id=ctx.campaign.pk, kind=PILOT_LOST, key=f"pilot_lost:{ctx.campaign.pk}:{pilot.pk}:{outcome}", text=f"{pilot} ({pilot.squadron}) is {outcome}: {ctx.battle_ref}.", side=pilot.squadron.side, url=f"/pilots/{pilot.pk}/")  # fmt: skip


def _whole(value: object, field: str, *, high: int = MAX_ID) -> None:
    """An id or number of the record: an int (not a bool, not text) in 0..high."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleViolation(f"{field} must be a whole number", field=field, code="format")
    if not 0 <= value <= high:
        raise RuleViolation(f"{field} must be between 0 and {high}", field=field, code="range")


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
    if record.game and record.game not in SURVIVAL_RULE_SETS:
        raise RuleViolation(
            f"game must be one of {SURVIVAL_RULE_SETS}", field="game", code="invalid"
        )
    die_sides = SURVIVAL_DIE[_game_of(record, survival_rule)]
    if not record.battle_ref.strip():
        raise RuleViolation(
            "an engagement needs a battle reference", field="battle_ref", code="required"
        )
    if record.campaign_turn is not None:
        _whole(record.campaign_turn, "campaign_turn", high=MAX_TURN)
    seen: set[int] = set()
    for i, flown in enumerate(record.flown):
        _whole(flown.pilot_id, f"flown[{i}].pilot_id")
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
        if flown.survival_die is not None:
            _whole(flown.survival_die, f"flown[{i}].survival_die", high=die_sides)
            if flown.survival_die < 1:
                raise RuleViolation(
                    f"a survival die is a d{die_sides}: 1 to {die_sides}",
                    field=f"flown[{i}].survival_die",
                    code="range",
                )
        if not isinstance(flown.damage_by_part, dict) or any(
            not isinstance(k, str) or not isinstance(v, int) or isinstance(v, bool) or v < 0
            for k, v in flown.damage_by_part.items()
        ):
            raise RuleViolation(
                "damage_by_part maps part names to whole numbers of 0 or more",
                field=f"flown[{i}].damage_by_part",
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
        _whole(kill.shooter_pilot_id, f"kills[{i}].shooter_pilot_id")
        if kill.victim_pilot_id is not None:
            _whole(kill.victim_pilot_id, f"kills[{i}].victim_pilot_id")
        if kill.turn is not None:
            _whole(kill.turn, f"kills[{i}].turn")
        if kill.victim_pilot_id is not None and kill.victim_pilot_id == kill.shooter_pilot_id:
            raise RuleViolation(
                "a pilot cannot shoot himself down",
                field=f"kills[{i}].victim_pilot_id",
                code="invalid",
            )
    # fmt: skip


def engagement_apply(
    *, source_key: str, result: EngagementRecord, campaign: CampaignLike | None = None, recorded_by: str = "",
    dice: Dice | None = None, campaign_action: int | None = None, leave_out_unavailable: bool = False,
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
    (nothing stored) for a malformed record, or a pilot not on duty or serving
    in another campaign (``roster.enrolment``). ``campaign_action`` is the
    sequence of the campaign action this result is a consequence of: undoing
    that action takes the result back (``careers.services.undo``), from the
    pilots' counts before and after kept on the row. ``leave_out_unavailable``
    (results the product itself flew: card rolls, engine battles) leaves a pilot
    who may not fly here out of the result, with the reason in the summary,
    instead of refusing it, so a campaign never freezes on one pilot.
    """
    survival_rule = result.survival_rule or (
        campaign.survival_rule if campaign is not None else (result.game or "angels20")
    )
    _validate_record(result, survival_rule)
    existing = AppliedResult.objects.filter(source_key=source_key).first()
    if existing is not None:
        return existing, False
    seed = _seed_for(source_key, campaign)
    dice = dice if dice is not None else Dice(seed)
    turn = result.campaign_turn
    if turn is None and campaign is not None:
        turn = campaign.turn
    with transaction.atomic():
        try:
            with transaction.atomic():
                applied = AppliedResult.objects.create(
                    source_key=source_key, campaign=cast(CampaignModel, campaign), mode=result.mode, battle_ref=result.battle_ref,
                    campaign_turn=turn, seed=seed, record=result.to_json(), recorded_by=recorded_by,
                    campaign_action=campaign_action,
                )  # fmt: skip
        except IntegrityError:
            return AppliedResult.objects.get(source_key=source_key), False
        ids = result.pilot_ids()
        pilots = {
            p.pk: p
            for p in Pilot.objects.select_for_update(of=("self",)).select_related("squadron", "enrolled_in").filter(pk__in=ids)
        }  # fmt: skip
        campaign_id = campaign.pk if campaign is not None else None
        left_out: dict[str, str] = {}
        if leave_out_unavailable:
            result, left_out = _leave_out(result, pilots, campaign_id=campaign_id)
            pilots = {pid: p for pid, p in pilots.items() if str(pid) not in left_out}
        _check_pilots(result, pilots, campaign_id=campaign_id)
        undo = undo_begin(pilots)
        if campaign is not None:  # a free pilot who flew for a campaign serves in it (issue 12)
            for pilot in pilots.values():
                if pilot.enrolled_in_id is None:
                    pilot.enrolled_in = cast(CampaignModel, campaign)
        ctx = _context(
            campaign,
            applied=applied,
            turn=turn,
            battle_ref=result.battle_ref,
            recorded_by=recorded_by,
        )
        before = {pid: p.air_kills for pid, p in pilots.items()}
        granted = _granted(list(pilots))
        with tallies_batched():  # the entries' tallies in a few queries, not up to four each
            summary = _apply_flights(result, pilots, ctx)
            _apply_kills(result, pilots, ctx, summary)
            _apply_shoot_downs(result, pilots, ctx, summary, survival_rule=survival_rule, dice=dice)
            for pid, pilot in pilots.items():
                _progress(
                    pilot, ctx, kills_before=before[pid], granted=granted.setdefault(pid, set())
                )
        if left_out:
            summary["left_out"] = left_out
        applied.summary = summary
        applied.undo = undo_end(undo, pilots)
        applied.save(update_fields=["summary", "undo"])
    return applied, True


def _leave_out(
    result: EngagementRecord, pilots: dict[int, Pilot], *, campaign_id: int | None
) -> tuple[EngagementRecord, dict[str, str]]:
    """The record without the pilots who may not fly here, and why each was left out."""
    reasons = {
        str(pid): reason
        for pid, pilot in pilots.items()
        if (reason := pilot_unavailable_reason(pilot, campaign_id=campaign_id)) is not None
    }
    if not reasons:
        return result, {}
    out = {int(pid) for pid in reasons}
    kills = tuple(
        k if k.victim_pilot_id not in out else replace(k, victim_pilot_id=None)
        for k in result.kills
        if k.shooter_pilot_id not in out
    )
    flown = tuple(f for f in result.flown if f.pilot_id not in out)
    return replace(result, flown=flown, kills=kills), reasons


def _check_pilots(
    result: EngagementRecord, pilots: dict[int, Pilot], *, campaign_id: int | None
) -> None:
    """Every pilot who flew exists, is on duty and serves here (the campaign, or
    none for a standalone result); every shooter and victim exists."""
    for i, flown in enumerate(result.flown):
        pilot = pilots.get(flown.pilot_id)
        if pilot is None:
            raise RuleViolation(
                f"no pilot with id {flown.pilot_id}",
                field=f"flown[{i}].pilot_id",
                code="exists",
            )
        pilot_require_available(pilot, campaign_id=campaign_id, field=f"flown[{i}].pilot_id")
    for i, kill in enumerate(result.kills):
        for name in ("shooter_pilot_id", "victim_pilot_id"):
            pid = getattr(kill, name)
            if pid is not None and pid not in pilots:
                raise RuleViolation(
                    f"no pilot with id {pid}", field=f"kills[{i}].{name}", code="exists"
                )


def _apply_flights(
    result: EngagementRecord, pilots: dict[int, Pilot], ctx: _Context
) -> dict[str, Any]:
    """Missions, damage taken, bombing and strafing credits; returns the summary."""
    summary: dict[str, Any] = {}
    for flown in result.flown:
        pilot = pilots[flown.pilot_id]
        entry: dict[str, Any] = {"pilot": str(pilot), "aircraft": flown.aircraft}
        # a pilot shot down flew the mission he was shot down on, whatever its outcome
        # (the card game's Experience phase gives its markers to the survivors only)
        if flown.mission or flown.destroyed:
            pilot.experience_markers += 1
            ctx.log(pilot, PilotEventKind.MISSION,
                    details={"aircraft": flown.aircraft, "mode": result.mode, "retreated": flown.retreated,
                             "missions": pilot.experience_markers})  # fmt: skip
        if flown.damage or flown.crew_hits or flown.cockpit_hits or flown.fires:
            details = {"damage": flown.damage, "crew_hits": flown.crew_hits,
                       "cockpit_hits": flown.cockpit_hits, "fires": flown.fires, "aircraft": flown.aircraft}  # fmt: skip
            if any(part != "airframe" for part in flown.damage_by_part):  # a game of many parts
                details["damage_by_part"] = dict(flown.damage_by_part)
            ctx.log(pilot, PilotEventKind.DAMAGED, details=details)
            entry["damage"] = flown.damage
        if flown.bombing_success:
            pilot.bombing_successes += 1
            ctx.log(pilot, PilotEventKind.BOMBING_SUCCESS, details={"aircraft": flown.aircraft})
        if flown.ground_targets:
            pilot.ground_credits += flown.ground_targets
            ctx.log(pilot, PilotEventKind.GROUND_CREDIT, details={"targets": flown.ground_targets})
        if flown.retreated:
            entry["retreated"] = True
        summary[str(pilot.pk)] = entry
    return summary


def _apply_kills(
    result: EngagementRecord, pilots: dict[int, Pilot], ctx: _Context, summary: dict[str, Any]
) -> None:
    """Each kill: the shooter's count rises, logged with its credit dice and the
    aircraft he flew (the statistics count the kill under it)."""
    flew = {f.pilot_id: f.aircraft for f in result.flown if f.aircraft}
    for kill in result.kills:
        shooter = pilots[kill.shooter_pilot_id]
        victim = pilots.get(kill.victim_pilot_id) if kill.victim_pilot_id else None
        shooter.air_kills += 1
        ctx.log(shooter, PilotEventKind.KILL, dice=list(kill.credit.get("rolls", [])),
                details={"aircraft": flew.get(shooter.pk, ""),
                         "victim": str(victim) if victim else "", "victim_pilot_id": kill.victim_pilot_id,
                         "victim_aircraft": kill.victim_aircraft, "turn": kill.turn,
                         "credit_rule": kill.credit.get("rule", ""), "credit": kill.credit.get("explanation", "")})  # fmt: skip
        summary.setdefault(str(shooter.pk), {"pilot": str(shooter)}).setdefault("kills", 0)
        summary[str(shooter.pk)]["kills"] += 1


def _apply_shoot_downs(
    result: EngagementRecord, pilots: dict[int, Pilot], ctx: _Context, summary: dict[str, Any], *,
    survival_rule: str, dice: Dice,
) -> None:  # fmt: skip
    """Each aircraft destroyed: the shoot-down (the airframe is lost), the
    survival roll -- or the outcome decided elsewhere -- and its outcome."""
    shooters = {k.victim_pilot_id: k.shooter_pilot_id for k in result.kills if k.victim_pilot_id}
    for flown in result.flown:
        if not flown.destroyed:
            continue
        pilot = pilots[flown.pilot_id]
        killer = pilots.get(shooter_id) if (shooter_id := shooters.get(pilot.pk)) else None
        serial = _unassign_airframe(pilot, destroyed=True)
        ctx.log(pilot, PilotEventKind.SHOT_DOWN,
                details={"aircraft": flown.aircraft, "airframe": serial, "shot_down_by": str(killer) if killer else ""})  # fmt: skip
        territory = _relative_territory(flown.territory or result.territory, pilot.squadron.side)
        outcome, turns, rolls, details = _survival(
            result, flown, territory=territory, survival_rule=survival_rule, dice=dice
        )
        ctx.log(pilot, PilotEventKind.SURVIVAL_ROLL, details=details, dice=rolls)
        _apply_outcome(pilot, ctx, outcome, turns)
        summary[str(pilot.pk)].update(shot_down=True, outcome=outcome, wounded_turns=turns)


def _survival(
    result: EngagementRecord, flown: FlownRecord, *, territory: str, survival_rule: str, dice: Dice
) -> tuple[str, int, list[Any], dict[str, Any]]:
    """``(outcome, wounded turns, rolls, details)`` of a pilot shot down: the
    record's own survival outcome if it holds one, else rolled by the rule."""
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
        return outcome, turns, rolls, details
    game = _game_of(result, survival_rule)
    rule = survival_rule
    if game != survival_rule and flown.survival_die is not None:
        # ruling "A battle of one game, the bail-out of another": the battle's game
        # already rolled this pilot's fate by its own rule; that roll stands
        rule = game
    # ruling "One roll, one fate": under the battle's own game the die it rolled is the roll
    die = flown.survival_die if rule == game else None
    hits = hits_for_rule(
        rule, game=game, damage=flown.damage, cockpit_hits=flown.cockpit_hits,
        crew_hits=flown.crew_hits, fires=flown.fires,
    )  # fmt: skip
    rolled = roll_survival(
        rule, dice=dice, territory=territory, bailed_out_early=flown.bailed_out_early,
        survival_die=die, **hits,
    )  # fmt: skip
    details = rolled.to_json()
    if game != survival_rule:  # say what the mix read (the campaign's rule, another game's battle)
        details.update(battle_game=game, survival_rule=survival_rule, hits_read=hits)
    return rolled.outcome, rolled.wounded_turns, rolled.rolls_json, details


def _game_of(record: EngagementRecord, survival_rule: str) -> str:
    """The game the engagement was flown under: the record's, else the survival
    rule's own (a card or table result, or a record written before the key: its
    hits were entered for that rule, and are read as they are)."""
    return record.game or survival_rule

"""The roster side of the card game's planes in play (SPEC "Strategic campaign"): every
plane card put into play gets a pilot of its side's roster, the experience markers and
kills the game gives a plane are that pilot's, a plane shot down hands its pilot to
:func:`campaign.results.plane_lost`; an undo takes back what the undone action gave.
:func:`sync_planes` keeps the roster in step after every action, replay and undo."""

from __future__ import annotations

from typing import Any

from careers.models import PilotEvent, PilotEventKind
from careers.services import pilot_counts_carry, pilot_log
from roster.models import AircraftType, Pilot, PilotStatus
from rules.cardgame import GameState

from .models import Campaign, CampaignPlane

ASSIGNED_NOTE = "assigned to a plane in play"  # the note a pilot gets with a plane card played


def mission_name(state: GameState, mission_id: Any) -> str:
    """The mission card's name for a career entry's battle ("Attack Refinery", not "m12")."""
    try:
        return state.setup.card_name(str(mission_id))
    except KeyError:
        return str(mission_id or "")


def sync_planes(
    campaign: Campaign, state: GameState, *, actor: str, action: int | None = None,
    quiet: set[str] | None = None,
) -> list[CampaignPlane]:  # fmt: skip
    """Keep the roster in step with the planes of the game.

    Every plane card put into play gets a pilot of its side's roster (one that
    came when none was free gets one at the first action's sync after one is,
    oldest planes first); the experience markers and kills the game gives a plane are that pilot's
    (SPEC "Strategic campaign"). It works on differences, so an organiser's
    undo takes back exactly what the undone action gave. What happens to the
    pilot of a plane shot down (survival, capture, wounds) is applied by
    :func:`campaign.results.plane_lost`. ``action`` is the sequence of the
    action whose consequences these are (undo takes them back); ``quiet``
    the planes whose loss an undo has already taken back. Returns the planes given a
    pilot at this sync.
    """
    from .results import plane_lost, plane_restored

    known = {p.plane_id: p for p in campaign.planes.select_related("pilot")}
    names = {state.plane_spec(pid).name for pid in state.planes} | {
        state.setup.plane_cards[p["card"]].name for p in state.lost.values()
    }
    types = {t.name: t for t in AircraftType.objects.filter(name__in=names)}
    if action is None:  # an undo's (or the start's) sync: assignments of undone actions go
        _undone_assignments_forget(campaign, known)
    busy = {p.pilot_id for p in known.values() if p.pilot_id and p.left_turn is None}
    exhausted: set[str] = set()  # sides with no free pilot left at this sync
    assigned: list[CampaignPlane] = []
    if action is not None:
        # a plane in play left without a pilot (none was free when it came) gets one as
        # soon as one is (a replacement drafted since): oldest planes first, before new ones
        waiting = [r for p, r in known.items() if r.pilot_id is None and p in state.planes]
        for record in sorted(waiting, key=lambda r: (r.entered_turn, r.pk)):
            spec = state.plane_spec(record.plane_id)
            pilot = _pilot_assign(campaign, state, record.plane_id, record.side, spec.name,
                                  busy=busy, exhausted=exhausted, actor=actor, action=action)  # fmt: skip
            if pilot is not None:
                record.pilot = pilot
                record.save(update_fields=["pilot"])
                assigned.append(record)
    for pid, plane in state.planes.items():
        if pid in known:
            continue
        spec = state.plane_spec(pid)
        pilot = _pilot_assign(campaign, state, pid, plane["side"], spec.name,
                              busy=busy, exhausted=exhausted, actor=actor, action=action)  # fmt: skip
        known[pid] = CampaignPlane.objects.create(
            campaign=campaign, plane_id=pid, side=plane["side"], aircraft_type=types[spec.name], pilot=pilot,
            entered_turn=state.turn,
        )  # fmt: skip
        if pilot is not None:
            assigned.append(known[pid])
    for pid, record in list(known.items()):
        current = state.planes.get(pid) or state.lost.get(pid)
        if current is None:  # an undone production: the card is back in the deck
            _plane_assignment_forget(campaign, record)
            continue
        carry_counts(campaign, state, record, current, actor, action=action)
        if pid in state.lost and record.left_turn is None:
            record.left_turn = state.lost[pid].get("turn", state.turn)
            record.save(update_fields=["left_turn"])
            if _loss_mode(state, pid) in ("engine", "web"):
                continue  # the battle's own result reached the pilot (campaign.engagements)
            # the side whose turn it is flew the mission (over the other side's ground)
            plane_lost(
                campaign=campaign,
                plane=record,
                loss={
                    **state.lost[pid],
                    "attacker_side": state.active,
                    "mission_name": mission_name(state, state.lost[pid].get("mission")),
                },
                actor=actor,
                action=action,
            )
        elif pid not in state.lost and record.left_turn is not None:
            record.left_turn = None
            record.save(update_fields=["left_turn"])
            if pid not in (quiet or ()):
                plane_restored(campaign=campaign, plane=record, actor=actor)
    return assigned


def _pilot_assign(
    campaign: Campaign, state: GameState, plane_id: str, side: str, aircraft_name: str, *,
    busy: set[int], exhausted: set[str], actor: str, action: int | None,
) -> Pilot | None:  # fmt: skip
    """A free pilot of ``side`` (:func:`_free_pilot`) for the plane, enrolled in the
    campaign if he was on the free roster, with the note of his assignment; None when
    the side has none (remembered in ``exhausted``: ``busy`` only grows, so none comes
    later in the same sync). At an action's sync the note's ``assigned_by`` names the
    action and whether the assignment enrolled him, so undoing that action takes both
    back (:func:`_undone_assignments_forget`)."""
    if side in exhausted:
        return None
    pilot = _free_pilot(campaign, side, aircraft_name, exclude=busy)
    if pilot is None:
        exhausted.add(side)
        return None
    busy.add(pilot.pk)
    details: dict[str, Any] = {"campaign": campaign.name, "plane": plane_id, "aircraft": aircraft_name, "text": ASSIGNED_NOTE}  # fmt: skip
    enrolled = pilot.enrolled_in_id is None
    if enrolled:  # a free pilot of a campaign squadron joins it
        pilot.enrolled_in = campaign
        pilot.save(update_fields=["enrolled_in"])
    if action is not None:
        details["assigned_by"] = {"action": action, "enrolled": enrolled}  # for undo
    pilot_log(pilot=pilot, kind=PilotEventKind.NOTE, campaign_turn=state.turn, campaign=campaign,
              details=details, recorded_by=actor)  # fmt: skip
    return pilot


def _undone_assignments_forget(campaign: Campaign, known: dict[str, CampaignPlane]) -> None:
    """Take back the pilots assigned at the sync of an action since undone: the plane is
    without a pilot again, his note goes, and a pilot the assignment enrolled is back on
    the free roster (as before the action). Two queries when some action is undone."""
    undone = set(campaign.actions.filter(undone=True).values_list("sequence", flat=True))
    if not undone:
        return
    notes = PilotEvent.objects.filter(
        campaign=campaign, kind=PilotEventKind.NOTE, details__text=ASSIGNED_NOTE,
        details__assigned_by__action__in=sorted(undone),
    ).select_related("pilot")  # fmt: skip
    for note in notes:
        details = note.details if isinstance(note.details, dict) else {}
        by = details.get("assigned_by")
        made: dict[str, Any] = by if isinstance(by, dict) else {}
        if made.get("action") not in undone:
            continue
        record = known.get(str(details.get("plane")))
        if record is not None and record.pilot_id == note.pilot_id:
            record.pilot = None
            record.save(update_fields=["pilot"])
        pilot = note.pilot
        if made.get("enrolled") and pilot.enrolled_in_id == campaign.pk:
            pilot.enrolled_in = None
            pilot.save(update_fields=["enrolled_in"])
        note.delete()


def _loss_mode(state: GameState, plane_id: str) -> str:
    engagements = reversed(state.engagements)
    return next(
        (e.get("mode", "card") for e in engagements if plane_id in e.get("losses", ())), "card"
    )


def carry_counts(
    campaign: Campaign, state: GameState, record: CampaignPlane, plane: dict[str, Any], actor: str,
    *, action: int | None = None,
) -> None:  # fmt: skip
    d_xm = plane["xm"] - record.xm_recorded
    d_kills = plane["kills"] - record.kills_recorded
    if not d_xm and not d_kills:
        return
    pilot = record.pilot
    new_kills = [k for k in state.kills if k["shooter"] == record.plane_id][record.kills_recorded :]
    # kills of engine battles reach the pilot with the battle's result (campaign.engagements)
    engine_kills = sum(
        1 for k in new_kills[: max(0, d_kills)] if k["credit_rule"].startswith("engine:")
    )
    if pilot is not None and d_xm >= 0 and d_kills >= 0:
        # issue 12: the pilot's quality, ace status and awards follow at once
        kills = []
        for kill in new_kills[:d_kills]:
            if kill["credit_rule"].startswith("engine:"):
                continue
            victim = state.lost.get(kill["victim"])
            victim_name = state.setup.plane_cards[victim["card"]].name if victim else kill["victim"]
            kills.append({"turn": kill["turn"], "battle_ref": f"{campaign.name}: {mission_name(state, kill['mission'])}",
                          "victim": kill["victim"], "victim_aircraft": victim_name, "credit_rule": kill["credit_rule"]})  # fmt: skip
        tag = action if action is not None else f"v{campaign.version}"
        pilot_counts_carry(
            campaign=campaign, pilot_id=pilot.pk, source_key=f"carry:{campaign.pk}:{tag}:{record.plane_id}",
            campaign_action=action, campaign_turn=state.turn, missions=d_xm, kills=kills,
            details={"campaign": campaign.name, "plane": record.plane_id}, recorded_by=actor,
        )  # fmt: skip
    elif pilot is not None:  # an undo of counts carried before undo could take them back
        pilot.experience_markers = max(0, pilot.experience_markers + d_xm)
        pilot.air_kills = max(0, pilot.air_kills + d_kills - engine_kills)
        pilot.save(update_fields=["experience_markers", "air_kills"])
        base = {"campaign": campaign.name, "plane": record.plane_id}
        for _ in range(max(0, d_xm)):
            pilot_log(pilot=pilot, kind=PilotEventKind.MISSION, campaign_turn=state.turn, campaign=campaign,
                      details={**base, "experience_markers": plane["xm"]}, recorded_by=actor)  # fmt: skip
        for kill in new_kills[: max(0, d_kills)]:
            if kill["credit_rule"].startswith("engine:"):
                continue
            victim = state.lost.get(kill["victim"])
            victim_name = state.setup.plane_cards[victim["card"]].name if victim else kill["victim"]
            pilot_log(pilot=pilot, kind=PilotEventKind.KILL, campaign_turn=kill["turn"], campaign=campaign, battle_ref=f"{campaign.name}: {mission_name(state, kill['mission'])}",
                      details={**base, "victim": kill["victim"], "victim_aircraft": victim_name, "credit_rule": kill["credit_rule"]},
                      recorded_by=actor)  # fmt: skip
        if d_xm < 0 or d_kills < 0:
            pilot_log(pilot=pilot, kind=PilotEventKind.NOTE, campaign_turn=state.turn, campaign=campaign,
                      details={**base, "text": "organiser undo", "experience_markers": d_xm, "air_kills": d_kills},
                      recorded_by=actor)  # fmt: skip
    record.xm_recorded, record.kills_recorded = plane["xm"], plane["kills"]
    record.save(update_fields=["xm_recorded", "kills_recorded"])


def _free_pilot(
    campaign: Campaign, side: str, aircraft_name: str, *, exclude: set[int]
) -> Pilot | None:
    """An active pilot of the side enrolled in the campaign not flying another plane;
    pilots of a squadron flying that very type first. Only the pilots the organiser
    enlisted (issue 24): a free pilot of one of its squadrons he left out stays on the
    free roster; a plane none is left for waits for a replacement (ruling
    "Replacements fill the campaign's planes")."""
    pilots = (
        Pilot.objects.filter(
            enrolled_in=campaign,
            squadron__side=side,
            status=PilotStatus.ACTIVE,
        )
        .exclude(pk__in=exclude)
        .select_related("squadron__aircraft_type")
        .order_by("squadron__name", "id")
        .distinct()
    )
    fallback = None
    for pilot in pilots:
        aircraft_type = pilot.squadron.aircraft_type
        if aircraft_type is not None and aircraft_type.name == aircraft_name:
            return pilot
        fallback = fallback or pilot
    return fallback


def _plane_assignment_forget(campaign: Campaign, record: CampaignPlane) -> None:
    """A plane taken back out of play: its record goes, and its pilot's note of being
    assigned to it (the only entry the plane gave the pilot until it flew)."""
    if record.pilot_id is not None:
        PilotEvent.objects.filter(
            pilot_id=record.pilot_id, campaign=campaign, kind=PilotEventKind.NOTE,
            details__plane=record.plane_id, details__text=ASSIGNED_NOTE,
        ).delete()  # fmt: skip
    record.delete()

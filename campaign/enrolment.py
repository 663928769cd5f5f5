"""Enrolment: which pilots serve in a campaign (issue 12 "One truth per pilot").

A pilot serves in one campaign at a time (``roster.Pilot.enrolled_in``). The
organiser enrols squadrons -- every pilot of theirs who is free -- or chosen
pilots; a chosen pilot who serves in another active campaign is refused with a
400 naming him and where he serves, while a squadron's such pilots are left
out and listed. A campaign draws the pilots of its planes from its own
enrolled pilots only. When the campaign ends its pilots return to the free
roster (a wounded pilot returns to duty then: the turn clock he waited on has
stopped; ruling "Enrolment: a campaign's end"). Checks of who may fly where are
``roster.enrolment``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from angels.errors import RuleViolation
from careers.models import PilotEventKind
from careers.services import pilot_log
from roster.enrolment import pilot_enrolment_refusal
from roster.models import Pilot, PilotStatus, Squadron
from rules.sides import ALLIED_FIRST

from .models import Campaign, CampaignStatus

SIDES = ALLIED_FIRST  # the card game's order (rules.sides)


@dataclass
class Enrolment:
    """What an enrolment did: who joined, and who was left out and why."""

    enrolled: list[Pilot] = field(default_factory=list)
    left_out: list[dict[str, Any]] = field(default_factory=list)


def _enrol(campaign: Campaign, pilot: Pilot, *, actor: str) -> None:
    pilot.enrolled_in = campaign
    pilot.save(update_fields=["enrolled_in"])
    pilot_log(pilot=pilot, kind=PilotEventKind.NOTE, campaign=campaign, campaign_turn=campaign.turn,
              details={"text": f"enrolled in campaign {campaign.name!r}", "enrolment": "enrolled"},
              recorded_by=actor)  # fmt: skip


def _ids(values: Any, field_name: str) -> list[int]:
    if values is None:
        return []
    if not isinstance(values, list | tuple):
        raise RuleViolation(f"{field_name} is a list of ids", field=field_name, code="format")
    out = []
    for i, value in enumerate(values):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise RuleViolation(
                "an id is a whole number of 1 or more", field=f"{field_name}[{i}]", code="format"
            )
        out.append(value)
    return out


def enrolment_add(
    *, campaign: Campaign, squadrons: Any = (), pilots: Any = (), actor: str = ""
) -> Enrolment:
    """Enrol squadrons (their free pilots, and the squadrons join the campaign) and
    chosen pilots. All or nothing for chosen pilots; locks the pilots
    (``select_for_update``), so two campaigns cannot enrol one pilot at once.
    The caller checks the organiser."""
    squadron_ids = _ids(list(squadrons) if squadrons else [], "squadrons")
    pilot_ids = _ids(list(pilots) if pilots else [], "pilots")
    if campaign.status == CampaignStatus.FINISHED:
        raise RuleViolation(f"campaign {campaign.name!r} is over: it enrols no one", code="state")
    result = Enrolment()
    with transaction.atomic():
        found = {s.pk: s for s in Squadron.objects.filter(pk__in=squadron_ids)}
        for i, sid in enumerate(squadron_ids):
            if sid not in found:
                raise RuleViolation(
                    f"no squadron with id {sid}", field=f"squadrons[{i}]", code="exists"
                )
        chosen = Pilot.objects.select_for_update(of=("self",)).select_related(
            "enrolled_in", "squadron"
        )
        picked = chosen.in_bulk(pilot_ids)
        for i, pid in enumerate(pilot_ids):
            pilot = picked.get(pid)
            if pilot is None:
                raise RuleViolation(f"no pilot with id {pid}", field=f"pilots[{i}]", code="exists")
            reason = pilot_enrolment_refusal(pilot, campaign_id=campaign.pk)
            if reason is not None:
                raise RuleViolation(reason, field=f"pilots[{i}]", code="state")
        for pilot in picked.values():
            if pilot.enrolled_in_id != campaign.pk:
                _enrol(campaign, pilot, actor=actor)
                result.enrolled.append(pilot)
        if found:
            campaign.squadrons.add(*found.values())
        members = chosen.filter(squadron_id__in=list(found)).exclude(
            status__in=[PilotStatus.KILLED, PilotStatus.RETIRED]
        ).order_by("squadron__name", "id")  # fmt: skip
        for pilot in members:
            if pilot.enrolled_in_id == campaign.pk:
                continue
            reason = pilot_enrolment_refusal(pilot, campaign_id=campaign.pk)
            if reason is not None:
                result.left_out.append({"pilot": pilot.pk, "name": str(pilot), "reason": reason})
                continue
            _enrol(campaign, pilot, actor=actor)
            result.enrolled.append(pilot)
    return result


def enrolment_chosen(*, campaign: Campaign, pilots: Any, actor: str = "") -> Enrolment:
    """The pilots the organiser chose at the campaign's creation (issue 24): each of one
    of the campaign's squadrons (else a 400 naming ``pilots[i]``, code ``squadron``) and
    free to serve (else a 400 naming him and where he serves). All or nothing."""
    pilot_ids = _ids(pilots, "pilots")
    squadron_ids = set(campaign.squadrons.values_list("pk", flat=True))
    found = Pilot.objects.select_related("squadron").in_bulk(pilot_ids)
    for i, pid in enumerate(pilot_ids):
        pilot = found.get(pid)
        if pilot is not None and pilot.squadron_id not in squadron_ids:
            raise RuleViolation(
                f"{pilot} flies with {pilot.squadron.name}, which is not taking part: "
                "tick his squadron too",
                field=f"pilots[{i}]",
                code="squadron",
            )
    return enrolment_add(campaign=campaign, pilots=pilot_ids, actor=actor)


def campaign_enrol(
    *, campaign_id: int, by: User, squadrons: Any = (), pilots: Any = ()
) -> Enrolment:
    """The organiser enrols squadrons or chosen pilots into the campaign."""
    from .services import require_organiser

    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise RuleViolation(f"no campaign with id {campaign_id}", field="campaign", code="exists")
    require_organiser(campaign, by)
    if not squadrons and not pilots:
        raise RuleViolation("enrol squadrons or pilots", field="squadrons", code="required")
    return enrolment_add(
        campaign=campaign, squadrons=squadrons, pilots=pilots, actor=getattr(by, "username", "")
    )


def enrolment_release(*, campaign: Campaign, actor: str = "") -> list[Pilot]:
    """The campaign has ended: its pilots return to the free roster. A wounded
    pilot returns to duty (his campaign's turn clock has stopped); a captured,
    killed or missing pilot keeps his fate. Logged for each pilot."""
    released = []
    with transaction.atomic():
        for pilot in Pilot.objects.select_for_update(of=("self",)).filter(enrolled_in=campaign):
            details: dict[str, Any] = {
                "text": f"campaign {campaign.name!r} ended: back on the free roster",
                "enrolment": "released",
            }
            fields = ["enrolled_in"]
            if pilot.status == PilotStatus.WOUNDED:
                details["was_due"] = pilot.wounded_until_turn
                pilot.status, pilot.wounded_until_turn = PilotStatus.ACTIVE, None
                fields += ["status", "wounded_until_turn"]
            pilot.enrolled_in = None
            pilot.save(update_fields=fields)
            kind = PilotEventKind.RETURNED if "was_due" in details else PilotEventKind.NOTE
            pilot_log(pilot=pilot, kind=kind, campaign=campaign, campaign_turn=campaign.turn,
                      details=details, recorded_by=actor)  # fmt: skip
            released.append(pilot)
    return released

"""Renaming a pilot (issue 24): an organiser may rename a pilot drafted for their
campaign; the old name stays in the pilot's history and career log."""

from __future__ import annotations

from django.db import transaction

from angels.errors import RuleViolation
from roster.models import Pilot

from ..models import PilotEventKind
from .log import pilot_log

NAME_MAX = Pilot._meta.get_field("name").max_length or 120


def _clean_name(name: str) -> str:
    name = " ".join(str(name or "").split())
    if not name:
        raise RuleViolation("give the pilot's new name", field="name", code="required")
    if len(name) > NAME_MAX:
        raise RuleViolation(f"at most {NAME_MAX} characters", field="name", code="max_length")
    return name


@transaction.atomic
def pilot_rename(*, pilot_id: int, name: str, by: str) -> Pilot:
    """Give a pilot a new name, never one another pilot of his squadron has
    (names do not repeat within a squadron). Logged as a note in his campaign,
    and kept in the pilot's history ("renamed: was ..."). Locks the pilot's row."""
    name = _clean_name(name)
    try:
        pilot = Pilot.objects.select_for_update(of=("self",)).get(pk=pilot_id)
    except Pilot.DoesNotExist:
        raise RuleViolation(f"no pilot with id {pilot_id}", field="pilot", code="exists") from None
    if name == pilot.name:
        raise RuleViolation(f"the pilot is already called {name}", field="name", code="invalid")
    if Pilot.objects.filter(squadron_id=pilot.squadron_id, name=name).exclude(pk=pilot.pk).exists():
        raise RuleViolation(
            f"another pilot of the squadron is called {name}", field="name", code="conflict"
        )
    old = pilot.name
    pilot.name = name
    pilot._change_reason = f"renamed: was {old}"  # type: ignore[attr-defined]  # issue 16 history
    pilot.save(update_fields=["name"])
    campaign = pilot.enrolled_in
    pilot_log(
        pilot=pilot, kind=PilotEventKind.NOTE, recorded_by=by, campaign=campaign,
        campaign_turn=campaign.turn if campaign is not None else None,
        details={"text": "Renamed", "renamed_from": old, "renamed_to": name},
    )  # fmt: skip
    return pilot

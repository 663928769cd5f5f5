"""Taking back what a result did to the roster (issue 12: "undo takes back
everything the undone action did or refuses with a clear reason").

Every result applied for a campaign action (a card-mode loss with its survival
roll, the missions and kills the game carried over) keeps in
``AppliedResult.undo`` each pilot's counts before and after, and the airframes
it took. :func:`applied_result_revert` puts the pilots back as they were,
removes the career entries and awards the result wrote, gives the airframes
back, and deletes the row (so the same result may be applied again). It
refuses, changing nothing, when a pilot has changed since (a later result or
an organiser's act): that must be taken back first.
"""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction

from angels.errors import RuleViolation
from roster.models import Airframe, Pilot

from ..models import AppliedResult, PilotAward, PilotEventKind
from ..tallies import tallies_batched
from ..types import CampaignLike, CampaignModel

# What a result may change on a pilot, and so what undo restores.
SNAPSHOT_FIELDS = (
    "status",
    "wounded_until_turn",
    "quality",
    "experience_markers",
    "air_kills",
    "ground_credits",
    "bombing_successes",
    "experience",
    "unconfirmed_kills",
    "enrolled_in_id",
)


def pilot_snapshot(pilot: Pilot) -> dict[str, Any]:
    return {name: getattr(pilot, name) for name in SNAPSHOT_FIELDS}


def undo_begin(pilots: dict[int, Pilot]) -> dict[str, Any]:
    """The pilots' counts and airframes before a result is applied."""
    return {
        "pilots": {str(pid): {"before": pilot_snapshot(p)} for pid, p in pilots.items()},
        "airframes": [
            list(row)
            for row in Airframe.objects.filter(pilot_id__in=list(pilots)).values_list(
                "id", "pilot_id", "state"
            )
        ],
    }


def undo_end(undo: dict[str, Any], pilots: dict[int, Pilot]) -> dict[str, Any]:
    """Add the pilots' counts after the result; keep only airframes it took away."""
    for pid, pilot in pilots.items():
        undo["pilots"][str(pid)]["after"] = pilot_snapshot(pilot)
    kept = set(
        Airframe.objects.filter(pilot_id__in=list(pilots)).values_list("id", "pilot_id", "state")
    )
    undo["airframes"] = [row for row in undo["airframes"] if tuple(row) not in kept]
    return undo


def _describe(applied: AppliedResult) -> str:
    return applied.battle_ref or applied.source_key


@transaction.atomic
def applied_result_revert(*, applied: AppliedResult) -> None:
    """Take back everything ``applied`` did to the roster, or refuse (a 400, code ``state``)."""
    undo = applied.undo
    if not undo or "pilots" not in undo:
        raise RuleViolation(
            f"{_describe(applied)} was applied before results could be taken back: "
            "correct the pilots by hand instead",
            code="state",
        )
    if hasattr(applied, "table_battle"):
        raise RuleViolation(
            f"{_describe(applied)} is a table battle: delete its claims first", code="state"
        )
    ids = [int(pid) for pid in undo["pilots"]]
    pilots = Pilot.objects.select_for_update(of=("self",)).in_bulk(ids)
    for pid, snap in undo["pilots"].items():
        pilot = pilots.get(int(pid))
        if pilot is None:
            continue  # deleted since: nothing of his to restore
        if pilot_snapshot(pilot) != snap.get("after"):
            raise RuleViolation(
                f"{pilot} has changed since {_describe(applied)} (a later result or an "
                "organiser's act): take that back first",
                field="pilot",
                code="state",
            )
    for event in applied.events.filter(kind=PilotEventKind.AWARD):
        PilotAward.objects.filter(pilot_id=event.pilot_id, name=event.details.get("award")).delete()
    for pid, snap in undo["pilots"].items():
        pilot = pilots.get(int(pid))
        if pilot is not None:
            for name, value in snap["before"].items():
                setattr(pilot, name, value)
            pilot.save(update_fields=list(snap["before"]))
    for airframe_id, pilot_id, state in undo.get("airframes", ()):
        Airframe.objects.filter(pk=airframe_id, pilot__isnull=True).update(
            pilot_id=pilot_id, state=state
        )
    with tallies_batched():  # the entries' tallies in a few queries, not up to four each
        applied.events.all().delete()
    applied.delete()


def campaign_action_revert(
    *, campaign: CampaignLike, sequence: int
) -> list[tuple[str, dict[str, Any]]]:
    """Take back every result applied for the campaign's action ``sequence``, newest
    first; all or nothing. Returns ``(source_key, record)`` of each result taken back."""
    reverted: list[tuple[str, dict[str, Any]]] = []
    with transaction.atomic():
        for applied in AppliedResult.objects.filter(
            campaign=cast(CampaignModel, campaign), campaign_action=sequence
        ).order_by("-id"):
            reverted.append((applied.source_key, dict(applied.record)))
            applied_result_revert(applied=applied)
    return reverted

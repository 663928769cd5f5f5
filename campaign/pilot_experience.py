"""A pilot brings his quality to the plane card he is given (issue 24 §1).

003 EXPERIENCE PHASE ranks a plane card by the experience markers it earned, and a
card enters play with none: without this, Helmut Wick (an Ace of the library) flew a
Green plane. The plane he is assigned starts instead with the markers of his
quality's threshold (ruling "A pilot's quality and his plane's rank": poor 0,
average 2, veteran 5, ace 9; other scales by name), so his quality and his plane's
rank agree on every page.

A campaign replays from its seed and its action record, so the markers are written
into that record: an organiser's correction (kind ``correction``, payload
``{"pilot_xm": {plane: markers}, "with_action": sequence}``) right after the action
whose sync assigned the pilots, in the same transaction. Undoing that action undoes
the correction with it (:func:`bound_action`).
"""

from __future__ import annotations

from typing import Any

from rules.cardgame import GameState
from rules.careers import markers_of_quality

from .models import ActionKind, Campaign, CampaignAction, CampaignPlane

REASON = "the pilots given planes bring the experience of their quality"


def pilot_experience_bring(
    campaign: Campaign, state: GameState, assigned: list[CampaignPlane], *, action: int
) -> int | None:
    """Give each plane just assigned a pilot the markers of his quality, where that is
    more than the plane has, and record it; the correction's sequence, or None when no
    plane gained any. The caller holds the campaign's lock and saves the state."""
    from .recording import next_sequence

    markers: dict[str, int] = {}
    for record in assigned:
        plane = state.planes.get(record.plane_id)
        if plane is None or record.pilot is None:
            continue
        wanted = markers_of_quality(record.pilot.quality)
        if wanted > int(plane["xm"]):
            markers[record.plane_id] = wanted
    if not markers:
        return None
    turn, phase = state.turn, state.phase
    state.pilot_experience(markers)
    sequence = next_sequence(campaign)
    CampaignAction.objects.create(
        campaign=campaign, sequence=sequence, kind=ActionKind.CORRECTION, side="",
        payload={"pilot_xm": markers, "with_action": action}, reason=REASON,
        turn=turn, phase=phase,
    )  # fmt: skip
    for record in assigned:  # the markers are the plane's start, not missions the pilot flew
        if record.plane_id in markers:
            record.xm_recorded = int(state.planes[record.plane_id]["xm"])
            record.save(update_fields=["xm_recorded"])
    return sequence


def bound_action(record: CampaignAction) -> int | None:
    """The sequence of the action a pilot-experience correction belongs to (undone with
    it), or None for any other record."""
    payload: Any = record.payload
    if record.kind != ActionKind.CORRECTION or not isinstance(payload, dict):
        return None
    bound = payload.get("with_action")
    return bound if isinstance(bound, int) and "pilot_xm" in payload else None


def markers_taken_back(campaign: Campaign, state: GameState, record: CampaignAction) -> None:
    """After undoing a pilot-experience correction and replaying: the planes it gave
    markers to (still in play) record what the replayed game gives them, so the next
    sync carries nothing to or from their pilots."""
    payload: Any = record.payload
    planes = payload.get("pilot_xm", {}) if isinstance(payload, dict) else {}
    for plane in campaign.planes.filter(plane_id__in=list(planes)):
        current = state.planes.get(plane.plane_id) or state.lost.get(plane.plane_id)
        if current is not None:
            plane.xm_recorded = int(current["xm"])
            plane.save(update_fields=["xm_recorded"])

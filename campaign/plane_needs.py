"""What replacements fill: the pilots a campaign's squadrons lack for its planes in play
(issue 24, ruling "Replacements fill the campaign's planes").

Every plane card put into play gets a pilot of its side enrolled in the campaign
(:func:`campaign.planes.sync_planes`); a plane that came when none was free waits
without a pilot -- that is the airframe without a pilot a squadron drafts for. Each
plane in play is one squadron's: its pilot's; a plane without one is the squadron of
its side flying its type (the first by name), else the side's first squadron by name
(the order :func:`campaign.planes._free_pilot` picks pilots in). A squadron lacks
as many pilots as it has planes in play beyond its pilots on duty (active, enrolled
in the campaign). ``careers`` asks through ``roster.campaign_hooks``' ``pilot_needs``.
"""

from __future__ import annotations

from collections import Counter

from roster.models import Pilot, PilotStatus

from .models import Campaign


def squadron_pilot_needs(campaign: Campaign) -> dict[int, int] | None:
    """{squadron id: pilots lacking} for each of the campaign's squadrons, or None when
    the campaign has never had a plane card in play (a campaign recorded through table
    battles only, as the demo's: then its squadrons draft to their target strength).
    Three queries."""
    planes = list(
        campaign.planes.filter(left_turn__isnull=True).values_list(
            "side", "aircraft_type_id", "pilot__squadron_id"
        )
    )
    if not planes and not campaign.planes.exists():
        return None
    squadrons = list(
        campaign.squadrons.order_by("name", "pk").values_list("pk", "side", "aircraft_type_id")
    )
    own = {pk for pk, _side, _type in squadrons}
    planes_of: Counter[int] = Counter()
    for side, type_id, pilot_squadron in planes:
        if pilot_squadron in own:
            planes_of[pilot_squadron] += 1
            continue
        of_side = [(pk, t) for pk, s, t in squadrons if s == side]
        match = next((pk for pk, t in of_side if t == type_id), None)
        if match is None and of_side:
            match = of_side[0][0]
        if match is not None:
            planes_of[match] += 1
    on_duty = Counter(
        Pilot.objects.filter(
            enrolled_in=campaign, status=PilotStatus.ACTIVE, squadron_id__in=own
        ).values_list("squadron_id", flat=True)
    )
    return {pk: max(0, planes_of[pk] - on_duty[pk]) for pk in own}

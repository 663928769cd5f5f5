"""A campaign's awards: defining one grants it at once to every pilot who
already meets it."""

from __future__ import annotations

from typing import cast

from django.db import transaction

from angels.errors import RuleViolation
from roster.models import Pilot
from roster.services import clean_and_save
from rules.careers import awards_due

from ..models import AwardDefinition
from ..types import CampaignLike, CampaignModel
from .progress import _context, _granted, _progress, _record_of


@transaction.atomic
def award_define(*, campaign: CampaignLike, name: str, threshold_kind: str, threshold: int, nation: str = "",
                 by: str = "") -> AwardDefinition:  # fmt: skip
    """Add an award to the campaign and grant it at once to every pilot of the
    campaign's squadrons who already meets it (logged)."""
    if AwardDefinition.objects.filter(campaign=cast(CampaignModel, campaign), name=name).exists():
        raise RuleViolation(
            f"the campaign already has an award called {name!r}", field="name", code="conflict"
        )
    award = AwardDefinition(
        campaign=cast(CampaignModel, campaign),
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

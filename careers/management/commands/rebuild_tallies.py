"""Recount every campaign's kept statistics and every pilot's kills from their entries.

The tallies are kept up to date as entries are written; an upgrade that changes how
an entry is counted (e.g. kills and losses under the aircraft flown rather than the
squadron's type) leaves older tallies counted the old way until this runs once.
``bin/serve`` runs it after migrating; it is idempotent and cheap for a club's data.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand

from careers.models import AppliedResult, CampaignTally, PilotEvent
from careers.tallies import campaign_tallies_rebuild, pilot_tallies_rebuild


class Command(BaseCommand):
    help = "Recount every campaign's statistics and every pilot's kills from their entries."

    def handle(self, *args: Any, **options: Any) -> None:
        ids = set(
            PilotEvent.objects.exclude(campaign_id__isnull=True).values_list(
                "campaign_id", flat=True
            )
        )
        ids |= set(CampaignTally.objects.values_list("campaign_id", flat=True))
        ids |= set(
            AppliedResult.objects.exclude(campaign_id__isnull=True).values_list(
                "campaign_id", flat=True
            )
        )
        # by name: careers sits below the campaign app and does not import it
        campaigns = apps.get_model("campaign", "Campaign").objects.filter(pk__in=ids)
        for campaign in campaigns.order_by("pk"):
            campaign_tallies_rebuild(campaign)
        pilot_tallies_rebuild()
        self.stdout.write(f"recounted {len(ids)} campaign(s) and every pilot's kills")

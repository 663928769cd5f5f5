"""Helpers of the export/import tests: the pages of a campaign, normalised, and taking a
campaign and its roster out of the database (an "empty database" for the import)."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from battles.models import Battle
from campaign.exchange import collect
from campaign.models import Campaign
from careers.models import (
    AppliedResult,
    AwardDefinition,
    CareerSettings,
    Claim,
    PilotAward,
    PilotEvent,
    TableBattle,
)
from roster.models import Airframe, Pilot, Squadron

PAGES = (
    ("campaign.campaign", "campaign-detail"),
    ("campaign.campaign", "campaign-stats"),
    ("roster.squadron", "squadron"),
    ("roster.pilot", "pilot"),
    ("battles.battle", "battle-report"),
    ("careers.tablebattle", "table-battle"),
)
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
_IDS = re.compile(
    r"(?<=[/#=:])\d+(?=[/\"'?&)<\s.,:]|$)|(?<=\bbattle #)\d+|(?<=\bpk=)\d+|(?<=\bclaim: )\d+|(?<=\bBattle )\d+"
)
_ATTRS = re.compile(r'((?:data-[a-z-]+|squadron|pilot|campaign|battle|-id|_id)=")\d+(")')
_OPTION_IDS = re.compile(r'(<option value=")\d+(")')  # the squadron page's campaign selector


def normalised(html: str) -> str:
    """A page with the database ids in its links and labels replaced by N."""
    return _OPTION_IDS.sub(r"\1N\2", _ATTRS.sub(r"\1N\2", _IDS.sub("N", _CSRF.sub("", html))))


def pages(campaign: Campaign, client: Client) -> dict[str, str]:
    """Each page of the campaign, its pilots, squadrons and battles, by table and position."""
    rows = collect(campaign)
    out = {}
    for table, name in PAGES:
        for i, pk in enumerate(rows[table].values_list("pk", flat=True)):
            response = client.get(reverse(name, args=[pk]))
            assert response.status_code == 200, (table, name, response.status_code)
            out[f"{name}[{i}]"] = normalised(response.content.decode())
    return out


def purge(campaign: Campaign) -> None:
    """Delete the campaign and every row its export holds but the aircraft types and users."""
    rows = {table: list(qs.values_list("pk", flat=True)) for table, qs in collect(campaign).items()}
    PilotAward.objects.filter(pk__in=rows["careers.pilotaward"]).delete()
    PilotEvent.objects.filter(pk__in=rows["careers.pilotevent"]).delete()
    Claim.objects.filter(pk__in=rows["careers.claim"]).delete()
    TableBattle.objects.filter(pk__in=rows["careers.tablebattle"]).delete()
    AppliedResult.objects.filter(pk__in=rows["careers.appliedresult"]).delete()
    Battle.objects.filter(pk__in=rows["battles.battle"]).delete()
    AwardDefinition.objects.filter(pk__in=rows["careers.awarddefinition"]).delete()
    CareerSettings.objects.filter(pk__in=rows["careers.careersettings"]).delete()
    Campaign.objects.filter(pk=campaign.pk).delete()
    Airframe.objects.filter(pk__in=rows["roster.airframe"]).delete()
    Pilot.objects.filter(pk__in=rows["roster.pilot"]).delete()
    Squadron.objects.filter(pk__in=rows["roster.squadron"]).delete()

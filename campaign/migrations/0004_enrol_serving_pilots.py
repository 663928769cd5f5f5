"""Existing data: every pilot serving in an active campaign is enrolled in one (issue 12).

A pilot serves in one campaign at a time (``roster.Pilot.enrolled_in``). Before
this, a pilot could fly planes of several campaigns at once. Each pilot is
enrolled in one active campaign, chosen in this order (docs/rulings.md,
"Enrolment: existing data"):

1. a wounded pilot: the campaign he was wounded in (its turn clock says when he
   returns), if it is active;
2. a pilot assigned to a plane of an active campaign: the most recent such
   campaign;
3. an active or wounded pilot of a squadron taking part in an active campaign:
   the most recent such campaign (so running campaigns keep their pool).

Nothing else changes: no row is deleted, planes keep their pilots (a pilot
assigned in an older campaign as well keeps that plane; the older campaign's
pool simply no longer draws him for new planes). Reversing clears the column.

A campaign whose survival rule is not Angels 20's gets ``pilot_survival: false``
in its engine rules (ruling "One roll, one fate"); reversing leaves it.
"""

from django.db import migrations


def enrol(apps, schema_editor):
    Campaign = apps.get_model("campaign", "Campaign")
    CampaignPlane = apps.get_model("campaign", "CampaignPlane")
    Pilot = apps.get_model("roster", "Pilot")
    PilotEvent = apps.get_model("careers", "PilotEvent")
    active = list(
        Campaign.objects.filter(status="active")
        .order_by("-created_at", "-id")
        .values_list("id", flat=True)
    )
    recency = {cid: i for i, cid in enumerate(active)}  # 0: the most recent
    best: dict[int, tuple[int, int]] = {}  # pilot -> (step, recency)

    def offer(pilot_id, campaign_id, step):
        candidate = (step, recency[campaign_id])
        if pilot_id not in best or candidate < best[pilot_id]:
            best[pilot_id] = candidate

    wounded = PilotEvent.objects.filter(
        kind="wounded", pilot__status="wounded", campaign_id__in=active
    ).order_by("pilot_id", "-id")
    seen = set()
    for pilot_id, campaign_id in wounded.values_list("pilot_id", "campaign_id"):
        if pilot_id not in seen:  # the latest wound only
            seen.add(pilot_id)
            offer(pilot_id, campaign_id, 0)
    for pilot_id, campaign_id in CampaignPlane.objects.filter(
        campaign_id__in=active, pilot__isnull=False
    ).values_list("pilot_id", "campaign_id"):
        offer(pilot_id, campaign_id, 1)
    through = Campaign.squadrons.through
    squadron_campaigns: dict[int, list[int]] = {}
    for campaign_id, squadron_id in through.objects.filter(campaign_id__in=active).values_list(
        "campaign_id", "squadron_id"
    ):
        squadron_campaigns.setdefault(squadron_id, []).append(campaign_id)
    for pilot_id, squadron_id in Pilot.objects.filter(
        squadron_id__in=squadron_campaigns, status__in=["active", "wounded"]
    ).values_list("id", "squadron_id"):
        for campaign_id in squadron_campaigns[squadron_id]:
            offer(pilot_id, campaign_id, 2)
    for pilot_id, (_step, rank) in best.items():
        Pilot.objects.filter(pk=pilot_id).update(enrolled_in_id=active[rank])


def one_survival_roll(apps, schema_editor):
    """Ruling "One roll, one fate": a campaign surviving by another rule than Angels 20's
    has its engine battles flown without the engine's own survival roll."""
    Campaign = apps.get_model("campaign", "Campaign")
    for campaign in Campaign.objects.exclude(survival_rule="angels20"):
        if campaign.engine_rules.get("pilot_survival") is not False:
            campaign.engine_rules = {**campaign.engine_rules, "pilot_survival": False}
            campaign.save(update_fields=["engine_rules"])


def release(apps, schema_editor):
    apps.get_model("roster", "Pilot").objects.update(enrolled_in=None)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0003_engine_rules"),
        ("roster", "0006_pilot_enrolled_in"),
        ("careers", "0003_applied_result_undo"),
    ]

    operations = [
        migrations.RunPython(enrol, release),
        migrations.RunPython(one_survival_roll, migrations.RunPython.noop),
    ]

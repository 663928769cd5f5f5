"""Careers: the pilot's career log, engagement results applied to the roster,
table battles and their kill claims, per-campaign career settings and awards.

The tables were the roster app's until the "One house" split; the migrations
moved the models here without touching a row (``careers/migrations``). Keys to
``campaign.Campaign`` are lazy string references: the campaign app sits above
this one and is never imported from here.
"""

from __future__ import annotations

from typing import cast

from django.db import models
from django.db.models import F, Q

from angels.history import ReasonedHistoricalRecords
from roster.models import AircraftType, Pilot

from .types import CampaignModel


class PilotEventKind(models.TextChoices):
    JOINED = "joined", "Joined the squadron"
    MISSION = "mission", "Flew a mission"
    BATTLE = "battle", "Fought a battle"
    KILL = "kill", "Air kill"
    GROUND_CREDIT = "ground_credit", "Ground target credit"
    BOMBING_SUCCESS = "bombing_success", "Successful bombing mission"
    DAMAGED = "damaged", "Damage taken"
    SHOT_DOWN = "shot_down", "Shot down"
    SURVIVAL_ROLL = "survival_roll", "Survival roll"
    WOUNDED = "wounded", "Wounded"
    CAPTURED = "captured", "Captured"
    KILLED = "killed", "Killed"
    MISSING = "missing", "Missing"
    RETURNED = "returned", "Returned to duty"
    QUALITY = "quality", "Quality changed"
    TRANSFER = "transfer", "Transferred"
    RETIRED = "retired", "Retired"
    REVIVED = "revived", "Revived by the organiser"
    AWARD = "award", "Award"
    AWARD_REVOKED = "award_revoked", "Award revoked"
    ACE = "ace", "Became an ace"
    ACE_LOST = "ace_lost", "Lost ace status"
    KILL_DENIED = "kill_denied", "Kill claim denied"
    CHARACTERISTIC = "characteristic", "Characteristic gained"
    NOTE = "note", "Note"


class PilotEvent(models.Model):
    """One entry of a pilot's career log, with the dice that decided it."""

    pilot = models.ForeignKey(Pilot, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=PilotEventKind.choices)
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pilot_events",
    )
    applied_result = models.ForeignKey(
        "careers.AppliedResult",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        help_text="The engagement result this entry came from.",
    )
    campaign_turn = models.PositiveIntegerField(null=True, blank=True)
    battle_ref = models.CharField(
        max_length=80, blank=True, help_text="Battle or engagement this happened in."
    )
    details = models.JSONField(default=dict, blank=True)
    dice = models.JSONField(
        default=list,
        blank=True,
        help_text="Every die rolled for this entry: [purpose, sides, value].",
    )
    recorded_by = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    # Not columns: set on the entries of a pilot's page (careers.selectors.pilot_career)
    # for its template: the link to the entry's battle report, its campaign's name
    # ("standalone" if none) and page, and a kill's victim named.
    report_url: str
    campaign_name: str
    campaign_url: str
    victim_label: str
    victim_pilot_id: int | None

    class Meta:
        ordering = ["pilot_id", "created_at", "id"]
        indexes = [
            # Named as the roster app named them, so the move renamed no index.
            models.Index(fields=["pilot", "kind"], name="roster_pilo_pilot_i_3571f3_idx"),
            models.Index(
                fields=["campaign", "kind", "campaign_turn"], name="roster_pilo_campaig_ed9657_idx"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=PilotEventKind.values), name="pilot_event_kind_valid"
            )
        ]

    def __str__(self) -> str:
        return f"{self.pilot}: {self.get_kind_display()}"


class CampaignTally(models.Model):
    """A campaign's running totals for its statistics page (issue 17 "flat in data
    size"): per campaign turn (0: none), side and aircraft type of the pilot's
    squadron, the confirmed kills (kill entries less confirmed claims denied),
    losses (shoot-downs) and how many such entries there are; a row with side ""
    counts the campaign's battles (applied results, roster housekeeping aside).
    Kept by ``careers.tallies`` as entries and results are written and deleted,
    and equal to its recount (``careers.tallies.campaign_recount``)."""

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="career_tallies"
    )
    campaign_turn = models.PositiveIntegerField(default=0)
    side = models.CharField(max_length=10, blank=True)
    aircraft = models.CharField(max_length=120, blank=True)
    kills = models.IntegerField(default=0)
    losses = models.IntegerField(default=0)
    entries = models.IntegerField(default=0)
    battles = models.IntegerField(default=0)

    class Meta:
        ordering = ["campaign_id", "campaign_turn", "side", "aircraft"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "campaign_turn", "side", "aircraft"],
                name="campaign_tally_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} turn {self.campaign_turn} {self.side} {self.aircraft}"


class PilotTally(models.Model):
    """A pilot's confirmed kills kept as his entries are written and deleted
    (``careers.tallies``): his kill entries less the confirmed claims denied,
    :func:`careers.selectors.confirmed_kills_expression` counted once, so the
    leaderboard sorts 10,000 pilots by a column instead of counting every
    pilot's entries (issue 17). No row: no kill."""

    pilot = models.OneToOneField(
        Pilot, on_delete=models.CASCADE, primary_key=True, related_name="career_tally"
    )
    confirmed_kills = models.IntegerField(default=0, db_index=True)

    def __str__(self) -> str:
        return f"{self.pilot_id}: {self.confirmed_kills}"


# -- careers: applied results, table-mode claims, per-campaign settings and awards --


class ResultMode(models.TextChoices):
    CARD = "card", "Card game rolls"
    ENGINE = "engine", "Angels 20 engine"
    TABLE = "table", "Played on the table"
    ROSTER = "roster", "Roster housekeeping (replacements)"


class AppliedResult(models.Model):
    """An engagement result applied to the roster. Its unique ``source_key`` makes
    applying the same result twice a no-op (``careers.services.engagement_apply``)."""

    source_key = models.CharField(max_length=160, unique=True)
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="applied_results",
    )
    mode = models.CharField(max_length=8, choices=ResultMode.choices)
    battle_ref = models.CharField(max_length=80, blank=True)
    campaign_turn = models.PositiveIntegerField(null=True, blank=True)
    seed = models.BigIntegerField(help_text="Seed of the dice rolled for this result.")
    record = models.JSONField(help_text="The normalised engagement record as applied.")
    summary = models.JSONField(default=dict, help_text="What happened to each pilot.")
    recorded_by = models.CharField(max_length=150, blank=True)
    campaign_action = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Sequence of the campaign action whose consequence this is (undo takes it back).",
    )
    undo = models.JSONField(
        default=dict,
        blank=True,
        help_text="What undoing it restores: each pilot's counts before and after, awards, airframes.",
    )
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-applied_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(mode__in=ResultMode.values), name="applied_result_mode_valid"
            )
        ]

    def __str__(self) -> str:
        return self.source_key


class TableSystem(models.TextChoices):
    ANGELS20 = "angels20", "Angels 20"
    AIR_FORCE = "air_force", "Air Force"
    AIR_PIRATES = "air_pirates", "Air Pirates"


class Territory(models.TextChoices):
    """Whose ground the battle was fought over."""

    ALLIED = "allied", "Over Allied territory"
    AXIS = "axis", "Over Axis territory"
    NEUTRAL = "neutral", "Over neutral territory (sea, no man's land)"


class TableBattle(models.Model):
    """A battle played with miniatures and entered by hand (table mode)."""

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="table_battles",
    )
    name = models.CharField(max_length=80)
    system = models.CharField(max_length=12, choices=TableSystem.choices)
    campaign_turn = models.PositiveIntegerField(null=True, blank=True)
    territory = models.CharField(max_length=8, choices=Territory.choices)
    record = models.JSONField(help_text="What was entered: flights, fates, attacks.")
    applied_result = models.OneToOneField(
        AppliedResult, on_delete=models.PROTECT, null=True, blank=True, related_name="table_battle"
    )
    recorded_by = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(system__in=TableSystem.values), name="table_battle_system_valid"
            ),
            models.CheckConstraint(
                condition=Q(territory__in=Territory.values), name="table_battle_territory_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ClaimState(models.TextChoices):
    CLAIMED = "claimed", "Claimed (awaiting the organiser)"
    CONFIRMED = "confirmed", "Confirmed"
    PROBABLE = "probable", "Probable"
    DAMAGED = "damaged", "Damaged"
    SHARED = "shared", "Shared (fired, kill credited to another)"
    DENIED = "denied", "Denied"


# Claim states that are a claimed kill not (yet) confirmed.
UNCONFIRMED_KILL_STATES = (ClaimState.CLAIMED, ClaimState.PROBABLE, ClaimState.SHARED)


class Claim(models.Model):
    """A pilot's claim against an enemy aircraft in a table battle. Only
    confirmed claims count as kills (toward aces and awards)."""

    battle = models.ForeignKey(TableBattle, on_delete=models.CASCADE, related_name="claims")
    pilot = models.ForeignKey(Pilot, on_delete=models.PROTECT, related_name="claims")
    victim = models.ForeignKey(
        Pilot, on_delete=models.PROTECT, null=True, blank=True, related_name="claims_against"
    )
    victim_type = models.ForeignKey(
        AircraftType, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    target = models.CharField(
        max_length=40, help_text="Which destroyed/damaged aircraft of the battle this is about."
    )
    state = models.CharField(max_length=10, choices=ClaimState.choices)
    turn = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Game turn.")
    credit = models.JSONField(default=dict, blank=True, help_text="Kill credit: rule and dice.")
    quality_before = models.CharField(max_length=14, blank=True)
    quality_after = models.CharField(max_length=14, blank=True)
    was_confirmed = models.BooleanField(default=False)
    decided_by = models.CharField(max_length=150, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["battle_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=ClaimState.values), name="claim_state_valid"
            ),
            models.CheckConstraint(
                condition=Q(victim__isnull=True) | ~Q(victim=F("pilot")),
                name="claim_not_against_self",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pilot} vs {self.victim or self.victim_type}: {self.state}"


class CareerSettings(models.Model):
    """Per-campaign career rules the organiser edits (progression and survival
    rules themselves live on ``campaign.Campaign``)."""

    campaign = models.OneToOneField(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="career_settings"
    )
    replacement_rate = models.PositiveSmallIntegerField(
        default=2, help_text="New pilots a squadron below strength receives per campaign turn."
    )
    characteristics = models.BooleanField(
        default=False, help_text="Roll Vision/Reflex/Training/Experience for new pilots (001 XIX)."
    )
    year = models.PositiveSmallIntegerField(
        default=1941, help_text="Campaign year, for the characteristics table."
    )

    history = ReasonedHistoricalRecords()  # issue 16: who, when, why of every change

    class Meta:
        verbose_name_plural = "career settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(year__range=(1936, 1946)), name="career_settings_year_in_war"
            )
        ]

    def __str__(self) -> str:
        return f"Career settings of {self.campaign}"


class ThresholdKind(models.TextChoices):
    KILLS = "kills", "Confirmed air kills"
    MISSIONS = "missions", "Missions flown"


class AwardDefinition(models.Model):
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="award_definitions"
    )
    name = models.CharField(max_length=120)
    nation = models.CharField(max_length=60, blank=True, help_text="Blank: any nation.")
    threshold_kind = models.CharField(max_length=10, choices=ThresholdKind.choices)
    threshold = models.PositiveSmallIntegerField()

    history = ReasonedHistoricalRecords()  # issue 16: who, when, why of every change

    class Meta:
        ordering = ["campaign_id", "threshold_kind", "threshold", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="award_name_unique"),
            models.CheckConstraint(condition=Q(threshold__gte=1), name="award_threshold_positive"),
            models.CheckConstraint(
                condition=Q(threshold_kind__in=ThresholdKind.values), name="award_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PilotAward(models.Model):
    pilot = models.ForeignKey(Pilot, on_delete=models.CASCADE, related_name="awards")
    name = models.CharField(max_length=120)
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    campaign_turn = models.PositiveIntegerField(null=True, blank=True)
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pilot_id", "granted_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["pilot", "name"], name="award_once_per_pilot")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.pilot})"


def campaign_model() -> type[CampaignModel]:
    """The campaign model, read off a key to it (no import of the campaign app)."""
    # A key to another model: never "self" (and resolved once the apps are loaded).
    return cast("type[models.Model]", CareerSettings._meta.get_field("campaign").related_model)

"""Campaigns in the product: who plays, the game's state, and the record of every action.

The canonical record of a campaign is its seed and its ordered actions
(:class:`CampaignAction`); ``Campaign.state`` is the game state those give,
kept so pages need not replay. ``version`` rises by one with every applied
action, so two requests that act on the same version cannot both win.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from angels.fields import OrderedJSONField
from angels.history import ReasonedHistoricalRecords


class ResolutionMode(models.TextChoices):
    """How an engagement (a mission's interception segment) is resolved (SPEC "Strategic campaign")."""

    CARD = "card", "Card game rolls"
    ENGINE = "engine", "Angels 20 engine"
    TABLE = "table", "Played on the table"
    WEB = "web", "Flown by the commanders in their browsers"


class ProgressionRule(models.TextChoices):
    CARD_GAME = "card_game", "Card game experience markers"
    AIR_FORCE = "air_force", "Air Force (001 XIX)"
    AIR_PIRATES = "air_pirates", "Air Pirates (002)"


class SurvivalRule(models.TextChoices):
    ANGELS20 = "angels20", "Angels 20 pilot survival"
    AIR_FORCE = "air_force", "Air Force bailing out"
    AIR_PIRATES = "air_pirates", "Air Pirates bail-out"


class CampaignStatus(models.TextChoices):
    # issue 24: a new campaign waits for its commanders until the organiser starts it
    GATHERING = "gathering", "Gathering commanders"
    ACTIVE = "active", "Active"
    FINISHED = "finished", "Finished"


class Pace(models.TextChoices):
    """How long a side has for a decision (issue 15 "The clock")."""

    NONE = "none", "No deadlines"
    HOURS = "hours", "Hours per decision"
    WEEKLY = "weekly", "Fixed weekly turn days"


class OnDeadline(models.TextChoices):
    COMPUTER = "computer", "The computer commander decides for the absent side"
    WAIT = "wait", "Wait for the side"


class Campaign(models.Model):
    name = models.CharField(max_length=120, unique=True)
    seed = models.BigIntegerField(
        help_text="Seed of the campaign's dice; with the actions it replays the campaign."
    )
    resolution_mode = models.CharField(
        max_length=8, choices=ResolutionMode.choices, default=ResolutionMode.CARD
    )
    progression_rule = models.CharField(
        max_length=12, choices=ProgressionRule.choices, default=ProgressionRule.CARD_GAME
    )
    survival_rule = models.CharField(
        max_length=12, choices=SurvivalRule.choices, default=SurvivalRule.ANGELS20
    )
    engine_rules = models.JSONField(
        default=dict,
        blank=True,
        help_text=(
            "Optional rules the engine flies this campaign's engagements with, shaped as a "
            'battle\'s settings.rules (e.g. {"night": "moonlight", "midair_collision": true}).'
        ),
    )
    # issue 25: the tactical game its engine and web engagements are flown under
    tactical_system = models.CharField(
        max_length=20,
        default="angels20",
        help_text="The tactical game (rules.tactical's registry) its engine and web "
        "engagements are flown under, e.g. angels20.",
    )
    mission_systems = models.JSONField(
        default=dict,
        blank=True,
        help_text="The organiser's choice of game for single missions, by mission id "
        '(e.g. {"m12": "angels20"}); a mission not named flies the campaign\'s game.',
    )
    engine_territory = models.BooleanField(
        default=True,
        help_text=(
            "Engine engagements are flown over the defender's ground: the defenders over "
            "friendly territory, the attackers over enemy territory (off: neutral for both)."
        ),
    )
    squadrons = models.ManyToManyField("roster.Squadron", blank=True, related_name="campaigns")
    setup = OrderedJSONField(
        default=dict, help_text="The game's setup (plane decks, options) it was created with."
    )
    state = OrderedJSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=CampaignStatus.choices, default=CampaignStatus.ACTIVE
    )
    winner = models.CharField(max_length=10, blank=True)
    turn = models.PositiveIntegerField(default=1)
    phase = models.CharField(max_length=30, blank=True)
    current_side = models.CharField(max_length=10, blank=True)
    # -- issue 15: the clock (campaign.clock) --------------------------------------
    pace = models.CharField(max_length=8, choices=Pace.choices, default=Pace.NONE)
    pace_hours = models.PositiveIntegerField(
        default=48, help_text="Hours a side has for each decision (pace 'hours')."
    )
    turn_weekdays = models.JSONField(
        default=list, blank=True, help_text="Turn days (0 = Monday ... 6 = Sunday), pace 'weekly'."
    )
    turn_time = models.TimeField(null=True, blank=True, help_text="Time of day of a turn day.")
    pace_timezone = models.CharField(
        max_length=64, default="UTC", help_text="The organiser's time zone for turn days."
    )
    on_deadline = models.CharField(
        max_length=8, choices=OnDeadline.choices, default=OnDeadline.COMPUTER
    )
    remind_hours = models.PositiveIntegerField(
        default=12, help_text="A reminder goes out this many hours before a deadline."
    )
    auto_advance = models.BooleanField(
        default=True,  # issue 15: "phases with nothing to decide advance by themselves"
        help_text="Phases in which the side to act can only advance move on by themselves.",
    )
    computer_sides = models.JSONField(
        default=list, blank=True, help_text="Sides played by the computer commander (solo play)."
    )
    # the decision the clock waits for; written by the services with each action
    decision_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    decision_side = models.CharField(max_length=10, blank=True)
    decision_turn = models.PositiveIntegerField(null=True, blank=True)
    decision_phase = models.CharField(max_length=30, blank=True)
    remind_at = models.DateTimeField(null=True, blank=True)
    deadline_noted = models.BooleanField(
        default=False, help_text="The passed deadline was announced (the campaign waits)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Issue 16: the organiser's settings are kept; the game's own columns (state,
    # turn, phase, ...) follow the action record and are written by QuerySet.update.
    history = ReasonedHistoricalRecords(
        excluded_fields=[
            "state",
            "setup",
            "version",
            "status",
            "winner",
            "turn",
            "phase",
            "current_side",
            "updated_at",
            "decision_due_at",
            "decision_side",
            "decision_turn",
            "decision_phase",
            "remind_at",
            "deadline_noted",
        ]  # fmt: skip
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[CampaignStatus.GATHERING, CampaignStatus.ACTIVE], winner="")
                | Q(status=CampaignStatus.FINISHED),
                name="campaign_winner_only_when_finished",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    ORGANISER = "organiser", "Organiser"
    COMMANDER = "commander", "Commander"
    SPECTATOR = "spectator", "Spectator"


class CampaignMember(models.Model):
    """A user's part in a campaign: organiser, the commander of one side, or spectator."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    side = models.CharField(max_length=10, blank=True)
    holiday_until = models.DateTimeField(
        null=True, blank=True, help_text="Until then the computer commander plays this side."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            models.CheckConstraint(
                condition=Q(role=Role.COMMANDER, side__in=["allied", "axis"])
                | (~Q(role=Role.COMMANDER) & Q(side="")),
                name="commander_has_a_side",
            ),
        ]

    def __str__(self) -> str:
        side = f" ({self.side})" if self.side else ""
        return f"{self.user} — {self.get_role_display()}{side}"


class ActionKind(models.TextChoices):
    PLAY = "play", "Game action"
    CORRECTION = "correction", "Organiser correction"


class CampaignAction(models.Model):
    """One applied action, in order. Replaying them from the seed gives ``Campaign.state``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="actions")
    sequence = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=ActionKind.choices, default=ActionKind.PLAY)
    side = models.CharField(max_length=10, blank=True)
    payload = models.JSONField()
    reason = models.TextField(blank=True, help_text="Why, for organiser corrections.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    turn = models.PositiveIntegerField(default=1)
    phase = models.CharField(max_length=30, blank=True)
    undone = models.BooleanField(
        default=False, help_text="Taken back by the organiser; skipped on replay."
    )
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "sequence"], name="action_sequence_unique")
        ]

    def __str__(self) -> str:
        return f"{self.campaign} #{self.sequence}: {self.payload}"


class CampaignPlane(models.Model):
    """A plane card in play, flown by an airframe and pilot of the side's roster (SPEC "Strategic campaign")."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="planes")
    plane_id = models.CharField(max_length=40, help_text="The game's id of the card instance.")
    side = models.CharField(max_length=10)
    aircraft_type = models.ForeignKey(
        "roster.AircraftType", on_delete=models.PROTECT, related_name="+"
    )
    airframe = models.ForeignKey(
        "roster.Airframe", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    pilot = models.ForeignKey(
        "roster.Pilot",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="campaign_planes",
    )
    entered_turn = models.PositiveIntegerField(default=1)
    left_turn = models.PositiveIntegerField(null=True, blank=True)
    # What of the game's counts has been carried over to the pilot's record.
    xm_recorded = models.PositiveIntegerField(default=0)
    kills_recorded = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "plane_id"], name="plane_id_unique_in_campaign"
            )
        ]

    def __str__(self) -> str:
        return f"{self.plane_id} {self.aircraft_type} ({self.pilot or 'no pilot'})"


class PersonToInvite(models.Model):
    """One of an imported file's members (issue 23: nobody is made a member by an import):
    the part he had there, for the importer to invite here if he wants (the campaign
    page's Invitations block). Never exported: it is this server's to-do, not the game's."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="people_to_invite"
    )
    username = models.CharField(max_length=150)
    role = models.CharField(max_length=10, choices=Role.choices)
    side = models.CharField(max_length=10, blank=True)

    class Meta:
        ordering = ["username", "pk"]

    def __str__(self) -> str:
        side = f" of the {self.side.capitalize()} side" if self.side else ""
        return f"{self.username} ({self.role}{side})"


class ImportUpload(models.Model):
    """A campaign file uploaded on the import page, kept between its preview and the
    importer's confirmation (an hour at most): the confirmation names it by a signed
    token, and the file is checked again, as a whole, before anything is created."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField()
    sha256 = models.CharField(max_length=64)
    mode = models.CharField(max_length=10)
    catalog = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"a campaign file of {self.user} ({self.mode}), {self.created_at:%Y-%m-%d %H:%M}"

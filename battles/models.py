"""Battles in the product: an engagement handed to the rules engine.

The row is the source of truth for background work: its status, seed, error,
event log and result live here, not in a Celery result backend. A task claims
a battle with a conditional update (PENDING → RUNNING, with a fresh lease
token) and writes the result once (RUNNING with that token → FINISHED), so a
re-delivered task, or a worker whose lease was taken back, changes nothing.

Three more things are tracked on the row so that nothing is lost or stuck:
``dispatched_at`` (null while the battle waits in the outbox for the broker),
``lease_expires_at`` (renewed by the flying worker's heartbeat; once past, the
sweep takes the battle back), and ``applied_at`` / ``apply_error`` (the
result handed to the apps above, e.g. a campaign, as its own step after the
result is committed: a finished battle with an ``apply_error`` is "finished,
not applied" and waits for a person to re-apply it).
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

from rules.tactical import DEFAULT_SYSTEM, UnknownSystem, system_named

# the annotation of a battle's setup's name (battles.selectors.with_setup_name)
SETUP_NAME = "listed_setup_name"


class BattleStatus(models.TextChoices):
    DRAFT = "draft", "Waiting to be resolved"
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    FAILED = "failed", "Failed"
    IN_PLAY = "in_play", "In play (flown by people)"


# a battle's status in running text ("Battle 5 (being flown)"), where the labels above
# head a column (issue 24 §7)
STATUS_WORDS: dict[str, str] = {
    BattleStatus.DRAFT: "waiting to be resolved",
    BattleStatus.PENDING: "waiting to be flown",
    BattleStatus.RUNNING: "being flown",
    BattleStatus.FINISHED: "flown",
    BattleStatus.FAILED: "failed",
    BattleStatus.IN_PLAY: "being flown",
}


class ScenarioKind(models.TextChoices):
    """The scenarios of 000 "SCENARIOS", "STANDARD SCENARIO", "BOMBER ESCORT SCENARIO"."""

    DOGFIGHT = "dogfight", "Battle of Britain: Dogfight"
    INTERCEPT = "intercept", "Battle of Britain: Intercept the Interceptors"
    LIMITED_FUEL = "limited_fuel", "Battle of Britain: Limited Fuel"
    SCHNELLBOMBER = "schnellbomber", "Battle of Britain: Schnellbomber"
    STANDARD = "standard", "Standard Scenario"
    BOMBER_ESCORT = "bomber_escort", "Bomber Escort"
    ENGAGEMENT = "engagement", "Campaign engagement"


class BattleBatch(models.Model):
    """The same matchup flown many times (balance questions, odds previews)."""

    scenario = models.CharField(max_length=20, choices=ScenarioKind.choices)
    settings = models.JSONField(default=dict, blank=True)
    flights = models.JSONField(default=dict, blank=True)
    runs = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    purpose = models.CharField(
        max_length=20, default="balance", help_text="balance or odds preview"
    )
    summary = models.JSONField(null=True, blank=True)
    done = models.PositiveIntegerField(
        default=0, help_text="Battles of it a worker saw finish or fail (counted once each)."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    requested_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(runs__gte=1) & Q(runs__lte=2000), name="batch_runs_in_range"
            )
        ]

    def __str__(self) -> str:
        return f"Batch #{self.pk}: {self.get_scenario_display()} x{self.runs}"


class Battle(models.Model):
    # issue 25: which tactical game (rules.tactical's registry) flies, replays and reports it
    system = models.CharField(
        max_length=20,
        default=DEFAULT_SYSTEM,
        help_text="The tactical game: a system in rules.tactical's registry, e.g. angels20.",
    )
    scenario = models.CharField(max_length=20, choices=ScenarioKind.choices)
    settings = models.JSONField(
        default=dict, blank=True, help_text="Rules switches, territory, policies, year, theater."
    )
    flights = models.JSONField(
        default=dict, blank=True, help_text="The flights as asked for: aircraft types and pilots."
    )
    setup = models.JSONField(default=dict, help_text="The engine's scenario, fixed at creation.")
    seed = models.BigIntegerField()
    status = models.CharField(
        max_length=10, choices=BattleStatus.choices, default=BattleStatus.PENDING
    )
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    actions = models.JSONField(
        default=list, blank=True, help_text="Every action taken: with the seed, replays the battle."
    )
    log = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True)
    batch = models.ForeignKey(
        BattleBatch, on_delete=models.CASCADE, null=True, blank=True, related_name="battles"
    )
    source_key = models.CharField(
        max_length=120, blank=True, help_text="What asked for it, e.g. a campaign mission."
    )
    requested_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    dispatched_at = models.DateTimeField(
        null=True, blank=True, help_text="When the broker accepted its task; null: queued (outbox)."
    )
    lease_token = models.CharField(max_length=32, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    progress_turn = models.PositiveSmallIntegerField(
        default=0,
        help_text="The game turn the computer pilots have reached while it is flown (its progress).",
    )
    applied_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When its result was handed to the apps (campaign, roster).",
    )
    apply_error = models.TextField(blank=True)
    version = models.PositiveIntegerField(
        default=0,
        help_text="A battle flown by people: one more with every accepted move (optimistic locking).",
    )
    decision_due = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A battle flown by people with a time per decision: when the person to act "
        "runs out of time and their computer pilot decides (battles.play).",
    )
    handed = models.JSONField(
        default=dict,
        blank=True,
        help_text='Seats handed to the computer pilot: {"axis": "side"} or {"axis": [aircraft]}.',
    )
    notes = models.JSONField(
        default=list,
        blank=True,
        help_text="Lines for the log that the engine does not write (a deadline passed, an "
        'aircraft handed over): [{"at": log index, "text": ...}].',
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "created_at"]),
            models.Index(fields=["status", "dispatched_at"]),
            models.Index(fields=["status", "lease_expires_at"]),
            models.Index(fields=["status", "applied_at"]),
            models.Index(fields=["batch", "status"]),
            models.Index(fields=["status", "decision_due"]),
            models.Index(fields=["system", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=BattleStatus.values), name="battle_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status=BattleStatus.FINISHED) | Q(result__isnull=False),
                name="finished_battle_has_result",
            ),
        ]

    def __str__(self) -> str:
        # its scenario as the pages call it: a setup-built battle of no campaign by its
        # setup's name (the admin lists it so: battles.admin)
        return f"Battle #{self.pk}: {self.scenario_title} ({self.status})"

    @property
    def system_title(self) -> str:
        """The game's name as pages show it ("Angels 20"); the stored name if unknown here."""
        try:
            return system_named(self.system).title
        except UnknownSystem:
            return self.system

    @property
    def scenario_title(self) -> str:
        """The scenario's name as pages show it: another game's from its own list (issue 25).

        A battle built from a setup (``services.battle_create_from_setup``) is stored as an
        engagement, so that its odds and retries fly that setup and are not rebuilt from a
        scenario's key; a campaign's (``source_key`` ``campaign:<id>:...``) is "Campaign
        engagement", any other one is called by its setup's own name (a game's scenario,
        e.g. "Dusk at the crossroads"), when the setup gives one."""
        if self.scenario == ScenarioKind.ENGAGEMENT and not self.source_key.startswith("campaign:"):
            name = self.setup_name
            if name:
                return name
        if self.system != DEFAULT_SYSTEM:
            try:
                offered = getattr(system_named(self.system), "scenarios", None)
            except UnknownSystem:
                offered = None
            if isinstance(offered, dict) and self.scenario in offered:
                return str(offered[self.scenario])
        return str(self.get_scenario_display())

    @property
    def setup_name(self) -> str:
        """The name its setup gives the scenario ("" if none): from a list's annotation
        (``selectors.with_setup_name``, which spares a list with the setup deferred a query
        per row) when there is one, else read from the setup."""
        if SETUP_NAME in self.__dict__:
            return str(self.__dict__[SETUP_NAME] or "")
        setup = self.setup
        return str(setup.get("name") or "") if isinstance(setup, dict) else ""

    @property
    def winner(self) -> str | None:
        return (self.result or {}).get("winner")

    @property
    def queued(self) -> bool:
        """Waiting for the broker (the outbox): stored, not yet handed to a worker."""
        return self.status == BattleStatus.PENDING and self.dispatched_at is None

    @property
    def not_applied(self) -> bool:
        """Finished, but its result could not be handed on: ``apply_error`` says why."""
        return (
            self.status == BattleStatus.FINISHED
            and self.applied_at is None
            and bool(self.apply_error)
        )

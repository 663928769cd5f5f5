"""Roster: aircraft types, squadrons, pilots and airframes (careers: the ``careers`` app).

Invariants are database constraints, not only form validation, so a bad row
cannot be written by any path (admin, API, command, shell).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from angels.history import ReasonedHistoricalRecords
from rules.angels20.abilities import ABILITIES, unknown_ability_message

from .game_cards import game_card, game_cards_problems, problem_text


class Side(models.TextChoices):
    ALLIED = "allied", "Allied"
    AXIS = "axis", "Axis"


class AircraftKind(models.TextChoices):
    """000 "AIRCRAFT STATS" / Type and "ILLUMINATION" (light, medium and heavy bombers).

    A plain ``bomber`` flies as a medium bomber (ruling "Bomber classes").
    """

    FIGHTER = "fighter", "Fighter"
    HEAVY_FIGHTER = "heavy fighter", "Heavy fighter"
    NAVAL_FIGHTER = "naval fighter", "Naval fighter"
    LIGHT_BOMBER = "light bomber", "Light bomber"
    MEDIUM_BOMBER = "medium bomber", "Medium bomber"
    BOMBER = "bomber", "Bomber"
    HEAVY_BOMBER = "heavy bomber", "Heavy bomber"
    BOMBER_TOKEN = "bomber token", "Bomber token"


class CardQuality(models.TextChoices):
    """The printed pilot grade of an Angels 20 card (000 "HOW TO READ A STAT CARD")."""

    POOR = "poor", "Poor"
    AVERAGE = "average", "Average"
    VETERAN = "veteran", "Veteran"
    ACE = "ace", "Ace"


class CardType(models.TextChoices):
    """Plane card notation of the card game (003 "PLANE DECK CARD NOTATION")."""

    FIGHTER = "F", "Fighter"
    FIGHTER_BOMBER = "FB", "Fighter bomber"
    BOMBER = "B", "Bomber"
    LIGHT_BOMBER = "LB", "Light bomber"
    DIVE_BOMBER = "DB", "Dive bomber"
    HEAVY_BOMBER = "HB", "Heavy bomber"


class Deck(models.TextChoices):
    ALLIED = "allied", "Allied plane deck"
    LUFTWAFFE = "luftwaffe", "Luftwaffe plane deck"


class CatalogOrigin(models.TextChoices):
    ANGELS20 = "angels20", "Angels 20 card"
    CARD_GAME = "card_game", "Card game plane"
    AIR_PIRATES = "air_pirates", "Aircraft Air Pirates (002) names"
    ORGANISER = "organiser", "Added by an organiser"


TACTICAL_FIELDS = (
    "cost",
    "pilot_quality",
    "speed_min",
    "speed_max",
    "high_speed_min",
    "high_speed_max",
    "attack_1",
    "attack_2",
    "attack_3",
    "armor",
    "vital_armor",
    "hits",
    "turn",
    "roll",
    "climb",
    "dive",
    "abilities",
)


class AircraftType(models.Model):
    """One aircraft type with its tactical Angels 20 card and its strategic card values."""

    name = models.CharField(max_length=120, unique=True)
    nation = models.CharField(max_length=60)
    side = models.CharField(
        max_length=10,
        choices=Side.choices,
        blank=True,
        help_text="Blank: either side (generic tokens).",
    )
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20, choices=AircraftKind.choices)

    # Tactical card, 000 "HOW TO READ A STAT CARD".
    cost = models.PositiveSmallIntegerField()
    pilot_quality = models.CharField(max_length=10, choices=CardQuality.choices)
    speed_min = models.PositiveSmallIntegerField()
    speed_max = models.PositiveSmallIntegerField()
    high_speed_min = models.PositiveSmallIntegerField(null=True, blank=True)
    high_speed_max = models.PositiveSmallIntegerField(null=True, blank=True)
    attack_1 = models.PositiveSmallIntegerField("attack dice at range 1")
    attack_2 = models.PositiveSmallIntegerField("attack dice at range 2")
    attack_3 = models.PositiveSmallIntegerField("attack dice at range 3")
    armor = models.PositiveSmallIntegerField()
    vital_armor = models.PositiveSmallIntegerField()
    hits = models.PositiveSmallIntegerField("hit points")
    turn = models.PositiveSmallIntegerField()
    roll = models.PositiveSmallIntegerField()
    climb = models.PositiveSmallIntegerField()
    dive = models.PositiveSmallIntegerField()
    abilities = models.JSONField(
        default=list, blank=True, help_text="Special ability names, as printed."
    )

    # Strategic card game, 003 "PLANE DECK CARD LIST". Blank when not in a deck.
    card_type = models.CharField(max_length=2, choices=CardType.choices, blank=True)
    card_af = models.PositiveSmallIntegerField("AF", null=True, blank=True)
    card_sf = models.PositiveSmallIntegerField("SF", null=True, blank=True)
    card_gf = models.PositiveSmallIntegerField("GF", null=True, blank=True)
    night_fighter = models.BooleanField(default=False)
    deck = models.CharField(max_length=10, choices=Deck.choices, blank=True)
    deck_copies = models.PositiveSmallIntegerField(default=0)

    origin = models.CharField(
        max_length=12, choices=CatalogOrigin.choices, default=CatalogOrigin.ORGANISER
    )
    source = models.TextField(help_text="Rulebook section or URL the values come from.")
    estimated_fields = models.JSONField(
        default=list,
        blank=True,
        help_text="Names of the fields whose values are estimates (docs/rulings.md), not printed values.",
    )

    # Issue 25: the cards of the other games, checked by roster.game_cards (rules/ schemas).
    game_cards = models.JSONField(
        default=dict,
        blank=True,
        help_text=(
            'Each game\'s card: {"airforce": {"values": {...}, "provenance": {field: '
            '{"kind": "printed"|"estimated", "source": "..."}}}, "airpirates": {...}}, '
            'or {"reason": "..."} where a type has none.'
        ),
    )

    history = ReasonedHistoricalRecords()  # issue 16: who, when, why of every change

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(speed_min__gte=1) & Q(speed_min__lte=F("speed_max")),
                name="aircraft_speed_range",
            ),
            models.CheckConstraint(
                condition=(Q(high_speed_min__isnull=True) & Q(high_speed_max__isnull=True))
                | (
                    Q(high_speed_min__gt=F("speed_max"))
                    & Q(high_speed_min__lte=F("high_speed_max"))
                ),
                name="aircraft_high_speed_range",
            ),
            models.CheckConstraint(
                condition=Q(vital_armor__gt=F("armor")), name="aircraft_vital_above_armor"
            ),
            models.CheckConstraint(condition=Q(hits__gte=1), name="aircraft_hits_positive"),
            models.CheckConstraint(condition=Q(cost__gte=1), name="aircraft_cost_positive"),
            models.CheckConstraint(
                condition=(Q(card_af__isnull=True) | Q(card_af__range=(1, 10)))
                & (Q(card_sf__isnull=True) | Q(card_sf__range=(1, 10)))
                & (Q(card_gf__isnull=True) | Q(card_gf__range=(1, 10))),
                name="aircraft_card_forces_are_d10_targets",
            ),
            models.CheckConstraint(
                condition=(Q(deck="") & Q(deck_copies=0))
                | (
                    ~Q(deck="")
                    & Q(deck_copies__gte=1)
                    & ~Q(card_type="")
                    & Q(card_af__isnull=False)
                ),
                name="aircraft_deck_cards_complete",
            ),
            models.CheckConstraint(
                condition=Q(pilot_quality__in=CardQuality.values),
                name="aircraft_pilot_quality_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=AircraftKind.values), name="aircraft_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # An ability the engine does not know is refused, never a silent no-op (issue 4).
        if not isinstance(self.abilities, list) or not all(
            isinstance(n, str) for n in self.abilities
        ):
            raise ValidationError({"abilities": "a list of special ability names"})
        problems = [m for m in map(unknown_ability_message, self.abilities) if m is not None]
        if problems:
            raise ValidationError({"abilities": problems})
        card_problems = game_cards_problems(self.game_cards)
        if card_problems:
            raise ValidationError({"game_cards": [problem_text(p) for p in card_problems]})

    def game_card(self, game: str) -> dict[str, Any] | None:
        """One game's block (``angels20``, ``cardgame``, ``airforce``, ``airpirates``)."""
        return game_card(self, game)

    @property
    def ability_rules(self) -> list[dict[str, str]]:
        """Each special ability with the rule the engine flies it by, and where that comes from."""
        return [
            {"name": name, "text": ABILITIES[name].text, "source": ABILITIES[name].source}
            if name in ABILITIES
            else {"name": name, "text": "not an ability the engine knows", "source": ""}
            for name in self.abilities
        ]

    @property
    def is_estimated(self) -> bool:
        return bool(self.estimated_fields)

    def is_field_estimated(self, field: str) -> bool:
        return field in self.estimated_fields


class Squadron(models.Model):
    name = models.CharField(max_length=120, unique=True)
    nation = models.CharField(max_length=60)
    side = models.CharField(max_length=10, choices=Side.choices)
    aircraft_type = models.ForeignKey(
        AircraftType, on_delete=models.PROTECT, null=True, blank=True, related_name="squadrons"
    )
    base = models.CharField(max_length=120, blank=True)
    target_strength = models.PositiveSmallIntegerField(
        default=12, help_text="Pilots the squadron should have on strength."
    )

    history = ReasonedHistoricalRecords()  # issue 16: who, when, why of every change

    class Meta:
        ordering = ["side", "nation", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(side__in=Side.values), name="squadron_side_valid")
        ]

    def __str__(self) -> str:
        return self.name


class QualityScale(models.TextChoices):
    """Which quality progression rule set a pilot's quality is measured on (SPEC "Roster")."""

    CARD_GAME = "card_game", "Card game (experience markers)"
    AIR_FORCE = "air_force", "Air Force (001 XIX)"
    AIR_PIRATES = "air_pirates", "Air Pirates (002)"


# The qualities each scale allows, lowest first.
QUALITY_SCALES: dict[str, tuple[str, ...]] = {
    QualityScale.CARD_GAME: ("poor", "average", "veteran", "ace"),
    QualityScale.AIR_FORCE: ("novice", "average", "ace"),
    QualityScale.AIR_PIRATES: ("green", "inexperienced", "average", "experienced", "ace"),
}

PILOT_QUALITY_CHOICES = [
    ("poor", "Poor"),
    ("novice", "Novice"),
    ("green", "Green"),
    ("inexperienced", "Inexperienced"),
    ("average", "Average"),
    ("experienced", "Experienced"),
    ("veteran", "Veteran"),
    ("ace", "Ace"),
]


class PilotStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    WOUNDED = "wounded", "Wounded"
    CAPTURED = "captured", "Captured"
    KILLED = "killed", "Killed"
    MISSING = "missing", "Missing"
    RETIRED = "retired", "Retired"


class Pilot(models.Model):
    name = models.CharField(max_length=120)
    rank = models.CharField(max_length=60, blank=True)
    nation = models.CharField(max_length=60)
    squadron = models.ForeignKey(Squadron, on_delete=models.PROTECT, related_name="pilots")
    quality_scale = models.CharField(
        max_length=12, choices=QualityScale.choices, default=QualityScale.CARD_GAME
    )
    quality = models.CharField(max_length=14, choices=PILOT_QUALITY_CHOICES, default="average")
    experience_markers = models.PositiveIntegerField(
        default=0, help_text="Missions flown (003 EXPERIENCE MARKERS)."
    )
    air_kills = models.PositiveIntegerField(default=0)
    ground_credits = models.PositiveIntegerField(default=0)
    bombing_successes = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=PilotStatus.choices, default=PilotStatus.ACTIVE
    )
    wounded_until_turn = models.PositiveIntegerField(
        null=True, blank=True, help_text="Campaign turn on which a wounded pilot returns to duty."
    )
    # Optional characteristics, 001 section XIX "PILOT CHARACTERISTICS".
    vision = models.BooleanField(default=False)
    reflex = models.BooleanField(default=False)
    training = models.PositiveSmallIntegerField(
        default=0, help_text="0 none, 1 T, 2 TT (doubled training benefits)."
    )
    experience = models.BooleanField(default=False)
    entry_quality = models.CharField(
        max_length=14,
        choices=PILOT_QUALITY_CHOICES,
        blank=True,
        help_text="Quality the pilot joined with (promotion thresholds count from it).",
    )
    unconfirmed_kills = models.PositiveIntegerField(
        default=0,
        help_text="Kill claims not (yet) confirmed: claimed, probable or shared (table mode).",
    )
    # The one campaign the pilot serves in (issue 12 "One truth per pilot"): a lazy
    # key upward, like careers' keys, never a Python import of the campaign app.
    # Null: the free roster. Set by enrolment (campaign.enrolment), cleared when
    # the campaign ends; a wounded pilot stays enrolled where he was wounded, so
    # his "returns on turn N" is that campaign's turn clock.
    enrolled_in = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="enrolled_pilots",
        help_text="The campaign the pilot serves in (blank: the free roster).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = ReasonedHistoricalRecords()  # issue 16: who, when, why of every change

    class Meta:
        ordering = ["squadron__name", "name"]
        indexes = [models.Index(fields=["status", "air_kills"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    quality_scale=QualityScale.CARD_GAME,
                    quality__in=QUALITY_SCALES[QualityScale.CARD_GAME],
                )
                | Q(
                    quality_scale=QualityScale.AIR_FORCE,
                    quality__in=QUALITY_SCALES[QualityScale.AIR_FORCE],
                )
                | Q(
                    quality_scale=QualityScale.AIR_PIRATES,
                    quality__in=QUALITY_SCALES[QualityScale.AIR_PIRATES],
                ),
                name="pilot_quality_within_scale",
            ),
            models.CheckConstraint(
                condition=(Q(status=PilotStatus.WOUNDED) & Q(wounded_until_turn__isnull=False))
                | (~Q(status=PilotStatus.WOUNDED) & Q(wounded_until_turn__isnull=True)),
                name="pilot_wounded_has_return_turn",
            ),
            models.CheckConstraint(
                condition=Q(status__in=PilotStatus.values), name="pilot_status_valid"
            ),
            models.CheckConstraint(condition=Q(training__lte=2), name="pilot_training_t_or_tt"),
        ]

    def __str__(self) -> str:
        return f"{self.rank} {self.name}".strip()

    @property
    def is_ace(self) -> bool:
        """An ace in the leaderboard sense: 5 or more confirmed air kills (SPEC "Roster")."""
        return self.air_kills >= 5


class AirframeState(models.TextChoices):
    SERVICEABLE = "serviceable", "Serviceable"
    DAMAGED = "damaged", "Damaged"
    DESTROYED = "destroyed", "Destroyed"
    RETIRED = "retired", "Retired"


class Airframe(models.Model):
    aircraft_type = models.ForeignKey(
        AircraftType, on_delete=models.PROTECT, related_name="airframes"
    )
    serial = models.CharField(max_length=40, unique=True)
    squadron = models.ForeignKey(
        Squadron, on_delete=models.PROTECT, null=True, blank=True, related_name="airframes"
    )
    pilot = models.OneToOneField(
        Pilot, on_delete=models.SET_NULL, null=True, blank=True, related_name="airframe"
    )
    state = models.CharField(
        max_length=12, choices=AirframeState.choices, default=AirframeState.SERVICEABLE
    )

    history = ReasonedHistoricalRecords()  # issue 16: who, when, why of every change

    class Meta:
        ordering = ["serial"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=AirframeState.values), name="airframe_state_valid"
            ),
            models.CheckConstraint(
                condition=~Q(state=AirframeState.DESTROYED) | Q(pilot__isnull=True),
                name="airframe_destroyed_has_no_pilot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.serial} ({self.aircraft_type})"

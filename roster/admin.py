from django.contrib import admin, messages
from django.db.models import Count, Q
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from angels.errors import RuleViolation

from . import services
from .models import (
    AircraftType,
    Airframe,
    AppliedResult,
    AwardDefinition,
    CareerSettings,
    Claim,
    Pilot,
    PilotAward,
    PilotEvent,
    Squadron,
    TableBattle,
)


@admin.register(AircraftType)
class AircraftTypeAdmin(admin.ModelAdmin):
    list_display = (
        "name", "nation", "side", "year", "kind", "cost", "pilot_quality", "card_type", "card_af", "card_sf",
        "card_gf", "night_fighter", "deck", "deck_copies", "estimated",
    )  # fmt: skip
    list_filter = (
        "side",
        "nation",
        "kind",
        "origin",
        "deck",
        "card_type",
        "night_fighter",
        "pilot_quality",
    )
    search_fields = ("name", "nation")
    readonly_fields = ("origin", "ability_rule_text")
    fieldsets = (
        (None, {"fields": ("name", "nation", "side", "year", "kind", "origin")}),
        (
            "Angels 20 card",
            {
                "fields": (
                    "cost",
                    "pilot_quality",
                    ("speed_min", "speed_max"),
                    ("high_speed_min", "high_speed_max"),
                    ("attack_1", "attack_2", "attack_3"),
                    ("armor", "vital_armor", "hits"),
                    ("turn", "roll", "climb", "dive"),
                    "abilities",
                    "ability_rule_text",
                )  # fmt: skip
            },
        ),
        (
            "Card game",
            {
                "fields": (
                    "card_type",
                    ("card_af", "card_sf", "card_gf"),
                    "night_fighter",
                    ("deck", "deck_copies"),
                )
            },
        ),
        ("Where the values come from", {"fields": ("source", "estimated_fields")}),
    )

    @admin.display(description="rules of its abilities")
    def ability_rule_text(self, obj: AircraftType) -> str:
        rules = obj.ability_rules if obj.pk else []
        return format_html_join(
            mark_safe("<br>"), "<strong>{}</strong>: {} <small>({})</small>",
            ((a["name"], a["text"], a["source"]) for a in rules),
        ) or "—"  # fmt: skip

    @admin.display(boolean=True, description="estimated")
    def estimated(self, obj: AircraftType) -> bool:
        return obj.is_estimated


class PilotInline(admin.TabularInline):
    model = Pilot
    fields = (
        "name",
        "rank",
        "quality_scale",
        "quality",
        "status",
        "experience_markers",
        "air_kills",
    )
    extra = 0
    show_change_link = True


class AirframeInline(admin.TabularInline):
    model = Airframe
    fields = ("serial", "aircraft_type", "pilot", "state")
    extra = 0


@admin.register(Squadron)
class SquadronAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "nation",
        "side",
        "aircraft_type",
        "base",
        "active_pilots",
        "target_strength",
    )
    list_filter = ("side", "nation")
    search_fields = ("name", "base")
    list_select_related = ("aircraft_type",)
    inlines = (PilotInline, AirframeInline)

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(_active=Count("pilots", filter=Q(pilots__status="active")))
        )

    @admin.display(description="active pilots", ordering="_active")
    def active_pilots(self, obj: Squadron) -> int:
        return obj._active


class PilotEventInline(admin.TabularInline):
    model = PilotEvent
    fields = ("created_at", "kind", "campaign_turn", "battle_ref", "details", "dice", "recorded_by")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-created_at",)


@admin.register(Pilot)
class PilotAdmin(admin.ModelAdmin):
    list_display = (
        "name", "rank", "nation", "squadron", "quality", "status", "experience_markers", "air_kills",
        "ground_credits", "bombing_successes",
    )  # fmt: skip
    list_filter = ("squadron__side", "nation", "squadron", "status", "quality", "quality_scale")
    search_fields = ("name", "rank", "squadron__name")
    list_select_related = ("squadron",)
    ordering = ("-air_kills", "name")
    inlines = (PilotEventInline,)
    actions = ("retire", "revive")

    def _act(self, request, queryset, act, verb):
        done = 0
        for pilot in queryset:
            try:
                act(pilot_id=pilot.pk, by=request.user.username, reason=f"{verb} in the admin")
                done += 1
            except RuleViolation as exc:
                self.message_user(request, f"{pilot}: {exc}", messages.ERROR)
        self.message_user(request, f"{done} pilot(s) {verb}.")

    @admin.action(description="Retire the selected pilots (logged)")
    def retire(self, request, queryset):
        self._act(request, queryset, services.pilot_retire, "retired")

    @admin.action(description="Revive the selected pilots: back on duty (logged)")
    def revive(self, request, queryset):
        self._act(request, queryset, services.pilot_revive, "revived")


@admin.register(Airframe)
class AirframeAdmin(admin.ModelAdmin):
    list_display = ("serial", "aircraft_type", "squadron", "pilot", "state")
    list_filter = ("state", "squadron__side", "squadron", "aircraft_type")
    search_fields = ("serial", "aircraft_type__name", "pilot__name")
    list_select_related = ("aircraft_type", "squadron", "pilot")
    raw_id_fields = ("pilot",)


@admin.register(PilotEvent)
class PilotEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "pilot", "kind", "campaign_turn", "battle_ref", "recorded_by")
    list_filter = ("kind", "pilot__squadron__side", "pilot__squadron")
    search_fields = ("pilot__name", "battle_ref")
    list_select_related = ("pilot",)
    raw_id_fields = ("pilot",)


@admin.register(CareerSettings)
class CareerSettingsAdmin(admin.ModelAdmin):
    list_display = ("campaign", "replacement_rate", "characteristics", "year")
    actions = ("begin_turn",)

    @admin.action(description="Begin the campaign's current turn: return to duty and replacements")
    def begin_turn(self, request, queryset):
        for settings in queryset.select_related("campaign"):
            campaign = settings.campaign
            out = services.campaign_turn_begin(
                campaign=campaign, campaign_turn=campaign.turn, recorded_by=request.user.username
            )
            self.message_user(
                request,
                f"{campaign}: {len(out['returned'])} back on duty, {len(out['drafted'])} replacements.",
            )


@admin.register(AwardDefinition)
class AwardDefinitionAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "nation", "threshold_kind", "threshold")
    list_filter = ("campaign", "threshold_kind")


@admin.register(PilotAward)
class PilotAwardAdmin(admin.ModelAdmin):
    list_display = ("name", "pilot", "campaign", "campaign_turn", "granted_at")
    raw_id_fields = ("pilot",)


class ClaimInline(admin.TabularInline):
    model = Claim
    fields = ("pilot", "victim", "victim_type", "target", "state", "turn", "decided_by", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(TableBattle)
class TableBattleAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "campaign",
        "system",
        "territory",
        "campaign_turn",
        "recorded_by",
        "created_at",
    )
    list_filter = ("system", "campaign")
    readonly_fields = ("record", "applied_result")
    inlines = (ClaimInline,)


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = ("pilot", "victim", "victim_type", "battle", "state", "decided_by")
    list_filter = ("state",)
    list_select_related = ("pilot", "victim", "victim_type", "battle")
    actions = ("confirm",)
    readonly_fields = ("state", "credit", "was_confirmed", "quality_before", "quality_after")

    @admin.action(
        description="Confirm the selected kill claims (deny from the battle page, with a reason)"
    )
    def confirm(self, request, queryset):
        for claim in queryset:
            try:
                services.claim_confirm(
                    claim_id=claim.pk, by=request.user.username, reason="confirmed in the admin"
                )
            except RuleViolation as exc:
                self.message_user(request, f"{claim}: {exc}", messages.ERROR)


@admin.register(AppliedResult)
class AppliedResultAdmin(admin.ModelAdmin):
    list_display = ("source_key", "campaign", "mode", "battle_ref", "campaign_turn", "applied_at")
    list_filter = ("mode", "campaign")
    readonly_fields = (
        "source_key",
        "campaign",
        "mode",
        "battle_ref",
        "campaign_turn",
        "seed",
        "record",
        "summary",
        "recorded_by",
    )

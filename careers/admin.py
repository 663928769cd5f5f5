from django.contrib import admin, messages

from angels.errors import RuleViolation
from angels.history import HistoryAdmin
from roster import admin as roster_admin
from roster.models import Pilot

from . import services
from .models import (
    AppliedResult,
    AwardDefinition,
    CareerSettings,
    Claim,
    PilotAward,
    PilotEvent,
    TableBattle,
)


class PilotEventInline(admin.TabularInline):
    model = PilotEvent
    fields = ("created_at", "kind", "campaign_turn", "battle_ref", "details", "dice", "recorded_by")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-created_at",)


# The roster's pilot admin, with the career log and the organiser's logged acts.
admin.site.unregister(Pilot)


@admin.register(Pilot)
class PilotAdmin(roster_admin.PilotAdmin):
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


@admin.register(PilotEvent)
class PilotEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "pilot", "kind", "campaign_turn", "battle_ref", "recorded_by")
    list_filter = ("kind", "pilot__squadron__side", "pilot__squadron")
    search_fields = ("pilot__name", "battle_ref")
    list_select_related = ("pilot",)
    raw_id_fields = ("pilot",)


@admin.register(CareerSettings)
class CareerSettingsAdmin(HistoryAdmin):
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
class AwardDefinitionAdmin(HistoryAdmin):
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

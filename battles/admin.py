from django.contrib import admin, messages

from angels.errors import RuleViolation

from . import services
from .models import Battle, BattleBatch


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "system",
        "scenario_title",
        "status",
        "winner",
        "seed",
        "attempts",
        "batch",
        "source_key",
        "created_at",
        "finished_at",
    )
    list_filter = ("system", "status", "scenario")
    search_fields = ("source_key", "error")
    readonly_fields = (
        "system",
        "setup",
        "seed",
        "status",
        "error",
        "attempts",
        "actions",
        "log",
        "result",
        "batch",
        "started_at",
        "finished_at",
        "requested_by",
    )
    actions = ("retry_failed", "resolve_drafts")

    def has_add_permission(self, request):
        return False  # battles are created from the battle pages or the API, which validate flights

    @admin.display(description="scenario", ordering="scenario")
    def scenario_title(self, obj: Battle) -> str:
        """As the battle pages call it: a setup-built battle of no campaign by its setup's
        name, not "Campaign engagement" (``Battle.scenario_title``, read from the row's
        setup: no query of its own)."""
        return obj.scenario_title

    @admin.display(description="winner")
    def winner(self, obj: Battle) -> str:
        return obj.winner or ""

    @admin.action(description="Retry the selected failed battles")
    def retry_failed(self, request, queryset):
        for battle in queryset:
            try:
                services.battle_retry(battle_id=battle.pk)
                self.message_user(request, f"Battle #{battle.pk} sent to the engine again.")
            except RuleViolation as exc:
                self.message_user(request, f"Battle #{battle.pk}: {exc}", level=messages.ERROR)

    @admin.action(description="Resolve the selected waiting battles")
    def resolve_drafts(self, request, queryset):
        for battle in queryset:
            try:
                services.battle_resolve(battle_id=battle.pk)
                self.message_user(request, f"Battle #{battle.pk} sent to the engine.")
            except RuleViolation as exc:
                self.message_user(request, f"Battle #{battle.pk}: {exc}", level=messages.ERROR)


@admin.register(BattleBatch)
class BattleBatchAdmin(admin.ModelAdmin):
    list_display = ("id", "scenario", "runs", "purpose", "created_at", "finished_at")
    list_filter = ("scenario", "purpose")
    readonly_fields = ("summary", "finished_at", "seed")

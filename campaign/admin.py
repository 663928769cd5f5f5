from django import forms
from django.contrib import admin, messages

from angels.errors import RuleViolation
from angels.history import HistoryAdmin, history_reason
from battles.rules_settings import rules_options

from . import clock, services
from .models import Campaign, CampaignAction, CampaignMember, CampaignPlane


class MemberInline(admin.TabularInline):
    model = CampaignMember
    extra = 0


class ActionInline(admin.TabularInline):
    model = CampaignAction
    fields = (
        "sequence",
        "kind",
        "side",
        "payload",
        "reason",
        "actor",
        "turn",
        "phase",
        "undone",
        "created_at",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-sequence",)
    max_num = 0


class CampaignForm(forms.ModelForm):
    """Engine rules are checked as a battle's settings.rules are (000 "OPTIONAL RULES")."""

    class Meta:
        model = Campaign
        fields = (
            "name",
            "resolution_mode",
            "progression_rule",
            "survival_rule",
            "engine_rules",
            "engine_territory",
            "tactical_system",  # issue 25: the game its engagements are flown under
            "mission_systems",
            "squadrons",
            *clock.PACE_FIELDS,  # issue 15: the clock
        )

    def clean(self):
        cleaned = super().clean() or {}
        changes = {f: cleaned[f] for f in clock.PACE_FIELDS if f in cleaned}
        try:
            clock.pace_values(self.instance, changes)
        except clock.PaceRefused as refused:  # every problem, each by its field
            for exc in refused.problems:
                self.add_error(exc.field if exc.field in self.fields else None, str(exc))
        return cleaned

    def clean_tactical_system(self):
        """A registered game able to fly a campaign engagement (campaign.game)."""
        from .game import game_checked

        try:
            return game_checked(self.cleaned_data.get("tactical_system")).name
        except RuleViolation as exc:
            raise forms.ValidationError(exc.message) from exc

    def clean_mission_systems(self):
        from .game import game_checked

        chosen = self.cleaned_data.get("mission_systems") or {}
        if not isinstance(chosen, dict):
            raise forms.ValidationError(
                'missions\' games map a mission id to a game: {"m12": "angels20"}'
            )
        try:
            return {str(m): game_checked(s).name for m, s in chosen.items()}
        except RuleViolation as exc:
            raise forms.ValidationError(exc.message) from exc

    def clean_engine_rules(self):
        rules = self.cleaned_data.get("engine_rules") or {}
        try:
            rules_options(rules, field="engine_rules")
        except RuleViolation as exc:
            raise forms.ValidationError(str(exc)) from exc
        return rules


@admin.register(Campaign)
class CampaignAdmin(HistoryAdmin):
    form = CampaignForm
    list_display = (
        "name",
        "status",
        "winner",
        "turn",
        "phase",
        "current_side",
        "resolution_mode",
        "version",
        "created_by",
    )
    list_filter = ("status", "resolution_mode")
    search_fields = ("name",)
    readonly_fields = (
        "seed",
        "version",
        "status",
        "winner",
        "turn",
        "phase",
        "current_side",
        "setup",
        "state",
        "decision_due_at",
        "decision_side",
        "decision_phase",
        "deadline_noted",
    )
    filter_horizontal = ("squadrons",)
    inlines = (MemberInline, ActionInline)
    actions = ("advance_phase", "undo_last_action")

    def save_model(self, request, obj, form, change):
        if not change:
            with history_reason("admin add"):
                created = self._create(request, obj)
            obj.pk = created.pk
            obj.__dict__.update(Campaign.objects.get(pk=created.pk).__dict__)
        else:
            super().save_model(request, obj, form, change)
            if set(form.changed_data) & set(clock.PACE_FIELDS):  # the deadline under the new pace
                clock.campaign_pace_set(campaign_id=obj.pk, by=request.user, changes={})

    def _create(self, request, obj):
        return services.campaign_create(
            name=obj.name, created_by=request.user, resolution_mode=obj.resolution_mode,
            progression_rule=obj.progression_rule, survival_rule=obj.survival_rule,
            engine_rules=obj.engine_rules, engine_territory=obj.engine_territory,
        )  # fmt: skip

    @admin.action(description="Advance: pass for the side whose move it is")
    def advance_phase(self, request, queryset):
        for campaign in queryset:
            try:
                services.campaign_act(
                    campaign_id=campaign.pk, user=request.user, version=campaign.version,
                    action={"type": "advance", "side": campaign.current_side},
                    umpire_reason="admin",
                )  # fmt: skip
                self.message_user(request, f"{campaign}: advanced.")
            except RuleViolation as exc:
                self.message_user(request, f"{campaign}: {exc}", level=messages.ERROR)

    @admin.action(description="Undo the last action")
    def undo_last_action(self, request, queryset):
        for campaign in queryset:
            try:
                services.campaign_undo_last(campaign_id=campaign.pk, by=request.user)
                self.message_user(request, f"{campaign}: last action undone.")
            except RuleViolation as exc:
                self.message_user(request, f"{campaign}: {exc}", level=messages.ERROR)


@admin.register(CampaignPlane)
class CampaignPlaneAdmin(admin.ModelAdmin):
    list_display = (
        "plane_id",
        "campaign",
        "side",
        "aircraft_type",
        "pilot",
        "entered_turn",
        "left_turn",
        "xm_recorded",
        "kills_recorded",
    )
    list_filter = ("campaign", "side")
    list_select_related = ("campaign", "aircraft_type", "pilot")
    raw_id_fields = ("pilot", "airframe")

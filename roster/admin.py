from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin
from django.db.models import Count, Q
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from angels.history import HistoryAdmin

from .models import AircraftType, Airframe, Pilot, Squadron

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    class _Active(TypedDict):
        _active: int


@admin.register(AircraftType)
class AircraftTypeAdmin(HistoryAdmin):
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
        (
            "Other games' cards",
            {
                "fields": ("game_cards",),
                "description": "Air Force data card and Air Pirates control card: each value "
                "with its kind (printed or estimated) and source; checked on save.",
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
class SquadronAdmin(HistoryAdmin):
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
    def active_pilots(self, obj: "WithAnnotations[Squadron, _Active]") -> int:
        return obj._active


@admin.register(Pilot)
class PilotAdmin(HistoryAdmin):
    list_display = (
        "name", "rank", "nation", "squadron", "quality", "status", "experience_markers", "air_kills",
        "ground_credits", "bombing_successes",
    )  # fmt: skip
    list_filter = ("squadron__side", "nation", "squadron", "status", "quality", "quality_scale")
    search_fields = ("name", "rank", "squadron__name")
    list_select_related = ("squadron",)
    ordering = ("-air_kills", "name")


@admin.register(Airframe)
class AirframeAdmin(HistoryAdmin):
    list_display = ("serial", "aircraft_type", "squadron", "pilot", "state")
    list_filter = ("state", "squadron__side", "squadron", "aircraft_type")
    search_fields = ("serial", "aircraft_type__name", "pilot__name")
    list_select_related = ("aircraft_type", "squadron", "pilot")
    raw_id_fields = ("pilot",)

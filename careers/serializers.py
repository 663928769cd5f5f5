from rest_framework import serializers

from roster.models import AircraftType, Pilot, Squadron
from roster.serializers import PilotOutput, SquadronOutput

from .models import (
    AppliedResult,
    AwardDefinition,
    CareerSettings,
    Claim,
    PilotEvent,
    TableBattle,
    TableSystem,
    Territory,
)
from .selectors import campaign_of


class PilotEventOutput(serializers.ModelSerializer):
    campaign = serializers.SerializerMethodField(help_text='Campaign name, or "standalone".')

    class Meta:
        model = PilotEvent
        fields = (
            "id",
            "kind",
            "campaign",
            "campaign_turn",
            "battle_ref",
            "details",
            "dice",
            "recorded_by",
            "created_at",
        )

    def get_campaign(self, obj) -> str:
        return campaign_of(obj)


class KillOutput(PilotEventOutput):
    victim = serializers.CharField(
        source="victim_label", help_text="Pilot and aircraft, or the aircraft."
    )
    victim_pilot_id = serializers.IntegerField(allow_null=True)

    class Meta(PilotEventOutput.Meta):
        fields = (*PilotEventOutput.Meta.fields, "victim", "victim_pilot_id")  # type: ignore[assignment]  # a subclass's Meta lists more fields


class PilotFiguresOutput(PilotOutput):
    """A pilot with the figures of careers.selectors (confirmed kills from his kill entries)."""

    confirmed_kills = serializers.IntegerField()
    ace = serializers.BooleanField()

    class Meta(PilotOutput.Meta):
        fields = (*PilotOutput.Meta.fields, "confirmed_kills", "ace")  # type: ignore[assignment]  # a subclass's Meta lists more fields


class LeaderboardOutput(serializers.ModelSerializer):
    squadron: "serializers.StringRelatedField[Squadron]" = serializers.StringRelatedField()
    squadron_id = serializers.IntegerField()
    side = serializers.CharField(source="squadron.side")
    aircraft_type = serializers.CharField(source="squadron.aircraft_type.name", default=None)
    confirmed_kills = serializers.IntegerField()
    claimed_kills = serializers.IntegerField()
    missions = serializers.IntegerField(source="experience_markers")
    is_ace = serializers.BooleanField(source="ace")

    class Meta:
        model = Pilot
        fields = (
            "id", "name", "rank", "nation", "side", "squadron", "squadron_id", "aircraft_type", "quality",
            "status", "confirmed_kills", "claimed_kills", "missions", "is_ace",
        )  # fmt: skip


class PilotCareerOutput(serializers.Serializer):
    pilot = PilotFiguresOutput()
    missions = serializers.IntegerField()
    confirmed_kills = serializers.IntegerField()
    kills = KillOutput(many=True)
    damage = PilotEventOutput(many=True)
    shot_down = PilotEventOutput(many=True)
    survival_rolls = PilotEventOutput(many=True)
    awards = serializers.SerializerMethodField()
    kills_by_turn = serializers.ListField(child=serializers.ListField())

    def get_awards(self, obj) -> list[dict]:
        return [{"name": a.name, "campaign_turn": a.campaign_turn} for a in obj["awards"]]


class SquadronPageOutput(serializers.Serializer):
    squadron = SquadronOutput()
    strength = serializers.IntegerField()
    pilots = PilotFiguresOutput(many=True)
    per_turn = serializers.ListField(child=serializers.DictField())
    aircraft = serializers.ListField(child=serializers.DictField())
    log = PilotEventOutput(many=True)


class CampaignStatsOutput(serializers.Serializer):
    sides = serializers.DictField(help_text="allied/axis: kills, losses, ratio (null: no loss).")
    turns = serializers.ListField(child=serializers.DictField())
    ratios = serializers.ListField(child=serializers.DictField())
    battles = serializers.IntegerField()


class EngagementInput(serializers.Serializer):
    source_key = serializers.CharField(max_length=160)
    campaign = serializers.IntegerField(required=False, allow_null=True)
    record = serializers.DictField(help_text="careers.records.EngagementRecord as JSON.")


class AppliedResultOutput(serializers.ModelSerializer):
    class Meta:
        model = AppliedResult
        fields = (
            "id",
            "source_key",
            "campaign",
            "mode",
            "battle_ref",
            "campaign_turn",
            "seed",
            "summary",
            "applied_at",
        )


class TableBattleInput(serializers.Serializer):
    campaign = serializers.IntegerField(required=False, allow_null=True)
    name = serializers.CharField(max_length=80)
    system = serializers.ChoiceField(choices=TableSystem.choices)
    territory = serializers.ChoiceField(choices=Territory.choices)
    campaign_turn = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    flights = serializers.ListField(child=serializers.DictField(), allow_empty=False)
    kills = serializers.ListField(child=serializers.DictField(), required=False, default=list)
    damages = serializers.ListField(child=serializers.DictField(), required=False, default=list)
    probables = serializers.ListField(child=serializers.DictField(), required=False, default=list)
    confirm = serializers.BooleanField(required=False, default=False)


class ClaimOutput(serializers.ModelSerializer):
    pilot: "serializers.StringRelatedField[Pilot]" = serializers.StringRelatedField()
    victim: "serializers.StringRelatedField[Pilot]" = serializers.StringRelatedField()
    victim_type: "serializers.StringRelatedField[AircraftType]" = serializers.StringRelatedField()

    class Meta:
        model = Claim
        fields = ("id", "pilot", "pilot_id", "victim", "victim_id", "victim_type", "target", "state", "turn", "credit",
                  "was_confirmed", "decided_by", "reason")  # fmt: skip


class TableBattleOutput(serializers.ModelSerializer):
    claims = ClaimOutput(many=True, read_only=True)
    applied_result = AppliedResultOutput(read_only=True)

    class Meta:
        model = TableBattle
        fields = ("id", "campaign", "name", "system", "territory", "campaign_turn", "record", "recorded_by", "claims",
                  "applied_result")  # fmt: skip


class ReasonInput(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class PilotAddInput(serializers.Serializer):
    squadron = serializers.IntegerField()
    name = serializers.CharField(max_length=120)
    rank = serializers.CharField(max_length=60, required=False, default="")
    campaign = serializers.IntegerField(required=False, allow_null=True)
    reason = serializers.CharField()


class TransferInput(serializers.Serializer):
    squadron = serializers.IntegerField()
    reason = serializers.CharField()


class CareerSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = CareerSettings
        fields = ("replacement_rate", "characteristics", "year")


class AwardDefinitionSerializer(serializers.ModelSerializer):
    class Meta:
        model = AwardDefinition
        fields = ("id", "name", "nation", "threshold_kind", "threshold")
        read_only_fields = ("id",)


class TurnBeginInput(serializers.Serializer):
    campaign_turn = serializers.IntegerField(min_value=1)


class TurnBeginOutput(serializers.Serializer):
    returned = serializers.ListField(child=serializers.IntegerField())
    drafted = serializers.ListField(child=serializers.IntegerField())

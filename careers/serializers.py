from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from angels.numbers import MAX_ID, MAX_TURN
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
from .records import GAMES, MODES, TERRITORIES
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


class SquadronPilotOutput(PilotFiguresOutput):
    """A pilot on a squadron's page, with the campaign he serves in (null: free, the library)."""

    enrolled_in = serializers.IntegerField(source="enrolled_in_id", allow_null=True)

    class Meta(PilotFiguresOutput.Meta):
        fields = (*PilotFiguresOutput.Meta.fields, "enrolled_in")  # type: ignore[assignment]  # a subclass's Meta lists more fields


class SquadronPageOutput(serializers.Serializer):
    squadron = SquadronOutput()
    campaign = serializers.SerializerMethodField(
        help_text="The campaign the figures are counted in (?campaign=), null: the library view."
    )
    strength = serializers.IntegerField()
    strength_words = serializers.CharField()
    pilots = SquadronPilotOutput(many=True)
    per_turn = serializers.ListField(child=serializers.DictField())
    aircraft = serializers.ListField(child=serializers.DictField())
    log = PilotEventOutput(many=True)

    def get_campaign(self, page: Mapping[str, Any]) -> dict[str, Any] | None:
        campaign = page.get("campaign")
        return None if campaign is None else {"id": campaign.pk, "name": campaign.name}


class CampaignStatsOutput(serializers.Serializer):
    sides = serializers.DictField(help_text="allied/axis: kills, losses, ratio (null: no loss).")
    turns = serializers.ListField(child=serializers.DictField())
    ratios = serializers.ListField(child=serializers.DictField())
    battles = serializers.IntegerField()


class _RecordPart(serializers.Serializer):
    """A part of an engagement record: an unknown key is refused (``code`` format) at the
    part's own path, as ``EngagementRecord.from_json`` refuses it."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(k) for k in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    f"unknown field(s) {', '.join(unknown)}", code="format"
                )
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if not isinstance(exc.detail, dict):
                raise
            # DRF keys a list's errors by index ("flown.0.pilot_id"); the record's paths
            # are named as the service names them, "flown[0].pilot_id"
            raise serializers.ValidationError(
                {key: _by_position(value) for key, value in exc.detail.items()}
            ) from exc


def _by_position(detail: Any) -> Any:
    """A list's errors keyed by index as a list (an entry without errors empty)."""
    if isinstance(detail, dict) and detail and all(isinstance(k, int) for k in detail):
        return [detail.get(i, {}) for i in range(max(detail) + 1)]
    return detail


_WHOLE: dict[str, Any] = {"invalid": "must be a whole number"}


def _id(**kw: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=MAX_ID, error_messages=_WHOLE, **kw)


def _count() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0, max_value=MAX_ID, required=False, error_messages=_WHOLE
    )


class FlownRecordInput(_RecordPart):
    """careers.records.FlownRecord: one pilot who flew (the service checks the rest)."""

    pilot_id = _id(help_text="The roster pilot's id.")
    aircraft = serializers.CharField(required=False, allow_blank=True)
    mission = serializers.BooleanField(required=False)
    damage = _count()
    crew_hits = _count()
    cockpit_hits = _count()
    fires = _count()
    retreated = serializers.BooleanField(required=False)
    destroyed = serializers.BooleanField(required=False)
    bailed_out_early = serializers.BooleanField(required=False)
    bombing_success = serializers.BooleanField(required=False)
    ground_targets = _count()
    territory = serializers.ChoiceField(choices=TERRITORIES, required=False, allow_blank=True)
    survival = serializers.DictField(required=False, allow_null=True)
    survival_die = serializers.IntegerField(  # the game's die: d6, or Air Pirates' d10
        min_value=1, max_value=10, required=False, allow_null=True, error_messages=_WHOLE
    )
    damage_by_part = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_ID, error_messages=_WHOLE),
        required=False,
        help_text='Damage by the parts the game uses, e.g. {"wing": 2, "cockpit": 1}.',
    )


class KillRecordInput(_RecordPart):
    """careers.records.KillRecord: a confirmed air kill."""

    shooter_pilot_id = _id()
    victim_pilot_id = _id(required=False, allow_null=True)
    victim_aircraft = serializers.CharField(required=False, allow_blank=True)
    turn = _id(required=False, allow_null=True)
    credit = serializers.DictField(required=False)


class EngagementRecordInput(_RecordPart):
    """careers.records.EngagementRecord as JSON: its shape and types are checked here, so
    a missing or mistyped field is named (``mode``, ``flown[0].pilot_id``)
    instead of the dataclass's own TypeError ("__init__() missing 2 required positional
    arguments") under ``record``. The API names them within the record
    (:func:`engagement_errors`)."""

    mode = serializers.ChoiceField(choices=MODES)
    battle_ref = serializers.CharField()
    flown = FlownRecordInput(many=True)
    kills = KillRecordInput(many=True, required=False)
    campaign_turn = serializers.IntegerField(
        min_value=0, max_value=MAX_TURN, required=False, allow_null=True, error_messages=_WHOLE
    )
    territory = serializers.ChoiceField(choices=TERRITORIES, required=False)
    survival_rule = serializers.CharField(required=False, allow_blank=True)
    game = serializers.ChoiceField(
        choices=GAMES,
        required=False,
        allow_blank=True,
        help_text="The game the battle was flown under (empty: the survival rule's own).",
    )


class EngagementInput(serializers.Serializer):
    source_key = serializers.CharField(max_length=160)
    campaign = serializers.IntegerField(required=False, allow_null=True)
    record = EngagementRecordInput(help_text="careers.records.EngagementRecord as JSON.")


# DRF's codes for a value of the wrong type or out of range, as the service names them
_CODES = {"invalid": "format", "min_value": "range", "max_value": "range"}


def engagement_errors(errors: Mapping[str, Any]) -> dict[str, Any]:
    """EngagementInput's errors as the engagement endpoint names them: a record's fields by
    their path in the record (``mode``, ``flown[0].pilot_id``), as the service and the
    campaign checks name them (careers.services.results, careers.access); a problem with
    the record as a whole (an unknown key) under ``record``."""
    out: dict[str, Any] = {}
    for key, value in errors.items():
        if key == "record" and isinstance(value, Mapping):
            for inner, detail in value.items():
                out["record" if inner == "non_field_errors" else inner] = _recoded(detail)
        else:
            out[key] = _recoded(value)
    return out


def _recoded(detail: Any) -> Any:
    if isinstance(detail, Mapping):
        return {key: _recoded(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_recoded(value) for value in detail]
    code = str(getattr(detail, "code", "invalid"))
    return serializers.ErrorDetail(str(detail), code=_CODES.get(code, code))


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


class RenameInput(serializers.Serializer):
    name = serializers.CharField(allow_blank=True)


class TransferInput(serializers.Serializer):
    squadron = serializers.IntegerField()
    reason = serializers.CharField()


class CareerSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = CareerSettings
        fields = ("replacement_rate", "characteristics", "year")


class AwardDefinitionSerializer(serializers.ModelSerializer):
    # the model's column takes 0 and the database's check constraint refused it, a 400
    # naming no field ("Constraint 'award_threshold_positive' is violated")
    threshold = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        error_messages={
            "min_value": "threshold must be at least 1",
            "max_value": "threshold must be at most 32767",
        },
    )

    class Meta:
        model = AwardDefinition
        fields = ("id", "name", "nation", "threshold_kind", "threshold")
        read_only_fields = ("id",)


class TurnBeginInput(serializers.Serializer):
    campaign_turn = serializers.IntegerField(min_value=1)


class TurnBeginOutput(serializers.Serializer):
    returned = serializers.ListField(child=serializers.IntegerField())
    drafted = serializers.ListField(child=serializers.IntegerField())

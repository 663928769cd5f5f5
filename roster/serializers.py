from typing import Any

from rest_framework import serializers

from .game_cards import GAMES
from .models import AircraftType, Pilot, Squadron


class AircraftTypeOutput(serializers.ModelSerializer):
    # every game's block read alike: values and provenance, or the reason it has none
    games = serializers.SerializerMethodField()

    class Meta:
        model = AircraftType
        fields = (
            "id", "name", "nation", "side", "year", "kind", "cost", "pilot_quality", "speed_min", "speed_max",
            "high_speed_min", "high_speed_max", "attack_1", "attack_2", "attack_3", "armor", "vital_armor", "hits",
            "turn", "roll", "climb", "dive", "abilities", "card_type", "card_af", "card_sf", "card_gf",
            "night_fighter", "deck", "deck_copies", "origin", "source", "estimated_fields", "game_cards",
            "games",
        )  # fmt: skip

    def get_games(self, obj: AircraftType) -> dict[str, Any]:
        return {game: obj.game_card(game) for game in GAMES}


class GameCardsInput(serializers.Serializer):
    """``PATCH .../game-cards/``: the games' cards to replace (null removes one), checked
    by the service (roster.game_cards), and the reason kept in the type's history."""

    game_cards = serializers.JSONField()
    reason = serializers.CharField(max_length=100, required=False, default="")


class SquadronOutput(serializers.ModelSerializer):
    aircraft_type: "serializers.StringRelatedField[AircraftType]" = serializers.StringRelatedField()
    # The figures of roster.selectors.squadron_list (SQUADRON_FIGURES), read-only.
    active_pilots = serializers.IntegerField(read_only=True)
    wounded_pilots = serializers.IntegerField(read_only=True)
    captured_pilots = serializers.IntegerField(read_only=True)
    killed_pilots = serializers.IntegerField(read_only=True)
    missing_pilots = serializers.IntegerField(read_only=True)
    retired_pilots = serializers.IntegerField(read_only=True)
    strength = serializers.IntegerField(read_only=True)
    airframes_on_hand = serializers.IntegerField(read_only=True)
    serviceable_airframes = serializers.IntegerField(read_only=True)

    class Meta:
        model = Squadron
        fields = (
            "id",
            "name",
            "nation",
            "side",
            "aircraft_type",
            "base",
            "target_strength",
            "active_pilots",
            "wounded_pilots",
            "captured_pilots",
            "killed_pilots",
            "missing_pilots",
            "retired_pilots",
            "strength",
            "airframes_on_hand",
            "serviceable_airframes",
        )


class PilotOutput(serializers.ModelSerializer):
    squadron: "serializers.StringRelatedField[Squadron]" = serializers.StringRelatedField()
    is_ace = serializers.BooleanField(read_only=True)

    class Meta:
        model = Pilot
        fields = (
            "id", "name", "rank", "nation", "squadron", "quality_scale", "quality", "experience_markers", "air_kills",
            "ground_credits", "bombing_successes", "status", "wounded_until_turn", "vision", "reflex", "training",
            "experience", "is_ace", "entry_quality", "unconfirmed_kills",
        )  # fmt: skip

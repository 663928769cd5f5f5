from typing import TYPE_CHECKING

from rest_framework import serializers

from angels.numbers import MAX_ID

from .models import Campaign, ProgressionRule, ResolutionMode, Role, SurvivalRule

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ENGINE_RULES_HELP = (
    "Optional rules the engine flies engine-mode engagements with, shaped like a battle's "
    'settings.rules, e.g. {"night": "moonlight", "midair_collision": true, '
    '"clouds": ["clear", "solid", "heavy", "light", "clear", "clear"], '
    '"flak_fields": [[8, 10, 3]], "fighter_direction": {"allied": 2}}.'
)
ENGINE_TERRITORY_HELP = (
    "Fly engine engagements over the defender's ground (defenders friendly, attackers "
    "enemy) for the engine's pilot survival rolls; false: neutral for both."
)


class CampaignListOutput(serializers.ModelSerializer):
    created_by: "serializers.StringRelatedField[User]" = serializers.StringRelatedField()

    class Meta:
        model = Campaign
        fields = (
            "id",
            "name",
            "status",
            "winner",
            "turn",
            "phase",
            "current_side",
            "resolution_mode",
            "created_by",
            "created_at",
            "version",
        )


class CampaignCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
    resolution_mode = serializers.ChoiceField(
        choices=ResolutionMode.choices, default=ResolutionMode.CARD
    )
    progression_rule = serializers.ChoiceField(
        choices=ProgressionRule.choices, default=ProgressionRule.CARD_GAME
    )
    survival_rule = serializers.ChoiceField(
        choices=SurvivalRule.choices,
        required=False,
        help_text="Left out: the rule of its game (tactical_system), Angels 20's for Angels 20.",
    )
    tactical_system = serializers.CharField(
        required=False,
        default="angels20",
        max_length=20,
        help_text="The game its engine and web engagements are flown under (issue 25), a "
        "registered tactical system able to fly a campaign engagement; an unknown one is a "
        "400 naming tactical_system and listing the games.",
    )
    # ids within the column's range: a larger one reached the database and overflowed (a 500)
    squadrons = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False, default=list
    )
    pilots = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        help_text="Which of the squadrons' pilots enlist (issue 24), each of one of "
        "squadrons and serving in no other campaign; left out: every free pilot of "
        "squadrons; []: none (replacements fill the planes).",
    )
    engine_rules = serializers.DictField(required=False, default=dict, help_text=ENGINE_RULES_HELP)
    engine_territory = serializers.BooleanField(
        required=False, default=True, help_text=ENGINE_TERRITORY_HELP
    )


class EngineRulesInput(serializers.Serializer):
    engine_rules = serializers.DictField(help_text=ENGINE_RULES_HELP)
    engine_territory = serializers.BooleanField(required=False, help_text=ENGINE_TERRITORY_HELP)


class EngineRulesOutput(serializers.Serializer):
    engine_rules = serializers.DictField()
    engine_territory = serializers.BooleanField()
    optional_rules = serializers.ListField(
        child=serializers.CharField(), help_text="Names of the optional rules in force."
    )


class ActionInput(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0, help_text="The campaign version the action was chosen on."
    )
    action = serializers.DictField(
        help_text='A game action, e.g. {"type": "advance", "side": "allied"}.'
    )
    umpire_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="Required when the organiser acts for a side they do not command (as umpire): "
        "why; recorded with the action and shown in the log.",
    )


class MemberInput(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)
    side = serializers.ChoiceField(
        choices=[("allied", "Allied"), ("axis", "Axis"), ("", "none")], required=False, default=""
    )


class CorrectionInput(serializers.Serializer):
    reason = serializers.CharField()
    pp = serializers.DictField(child=serializers.IntegerField(min_value=0), required=False)
    st = serializers.DictField(child=serializers.IntegerField(min_value=0), required=False)


class CampaignViewOutput(serializers.Serializer):
    """The game as the requesting user may see it (see ``rules.cardgame.visibility``)."""

    campaign = serializers.DictField()
    you = serializers.DictField()
    turn = serializers.IntegerField()
    phase = serializers.CharField()
    step = serializers.CharField(allow_blank=True)
    current_side = serializers.CharField(allow_null=True)
    pp = serializers.DictField()
    st = serializers.DictField()
    hand = serializers.ListField(allow_null=True)
    hand_counts = serializers.DictField()
    decks = serializers.DictField()
    planes = serializers.ListField()
    missions_in_play = serializers.ListField()
    legal_actions = serializers.ListField()
    history = serializers.ListField()
    log = serializers.ListField()
    log_length = serializers.IntegerField()
    umpire_actions = serializers.ListField(
        child=serializers.DictField(),
        help_text="What the organiser did for a side as umpire: sequence, turn, side, type, by, reason.",
    )
    winner = serializers.CharField(allow_null=True)


class GameMissionOutput(serializers.Serializer):
    mission = serializers.CharField(help_text="The mission card's id, e.g. m12.")
    mission_name = serializers.CharField()
    tactical_system = serializers.CharField()
    title = serializers.CharField(help_text="The game's name in words, e.g. Angels 20.")


class GameChoiceOutput(serializers.Serializer):
    tactical_system = serializers.CharField()
    title = serializers.CharField()


class CampaignGameOutput(serializers.Serializer):
    """The game a campaign's engine and web engagements are flown under (issue 25)."""

    tactical_system = serializers.CharField()
    title = serializers.CharField(help_text="The game's name in words, e.g. Angels 20.")
    missions = GameMissionOutput(
        many=True, help_text="Missions the organiser gave a game of their own."
    )
    games = GameChoiceOutput(many=True, help_text="The games a campaign may choose.")


class CampaignGameInput(serializers.Serializer):
    tactical_system = serializers.CharField(
        allow_blank=True,
        max_length=20,
        help_text='The game; with mission, "" takes the mission\'s own choice back.',
    )
    mission = serializers.CharField(
        required=False,
        max_length=40,
        help_text="A mission card's id: the game of that mission's engagement only.",
    )

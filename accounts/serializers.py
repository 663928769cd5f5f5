from rest_framework import serializers

from campaign.models import Role


class InvitationInput(serializers.Serializer):
    role = serializers.ChoiceField(
        choices=[Role.COMMANDER.value, Role.SPECTATOR.value], default=Role.COMMANDER.value
    )
    side = serializers.ChoiceField(
        choices=["allied", "axis", ""], required=False, default="", help_text="For a commander."
    )
    email = serializers.EmailField(
        required=False, default="", allow_blank=True, help_text="Mail the link there too."
    )
    days = serializers.IntegerField(
        required=False, min_value=1, max_value=90, help_text="How long the link works."
    )


class InvitationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField(source="campaign_id")
    role = serializers.CharField()
    side = serializers.CharField()
    part = serializers.CharField(help_text='In words: "commander of the Axis side".')
    email = serializers.CharField()
    status = serializers.ChoiceField(choices=["pending", "accepted", "expired", "revoked"])
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    accepted_by = serializers.CharField(
        source="accepted_by.username", allow_null=True, default=None
    )


class InvitationCreatedOutput(InvitationOutput):
    link = serializers.CharField(help_text="The link to send; shown only in this answer.")


class InvitationAcceptedOutput(serializers.Serializer):
    campaign = serializers.IntegerField()
    role = serializers.CharField()
    side = serializers.CharField()

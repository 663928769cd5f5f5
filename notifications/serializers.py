from rest_framework import serializers

from angels.events import KINDS

from .models import MailMode, Notification


class NotificationOutput(serializers.ModelSerializer):
    campaign_name = serializers.CharField(source="campaign.name")
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = (
            "id",
            "campaign",
            "campaign_name",
            "kind",
            "key",
            "text",
            "url",
            "created_at",
            "read_at",
            "read",
        )

    def get_read(self, obj: Notification) -> bool:
        return obj.read_at is not None


class WebhookInput(serializers.Serializer):
    url = serializers.CharField(
        allow_blank=True, max_length=500,
        help_text='A Discord-compatible webhook (https); it receives {"content": "..."}. Empty: none.',
    )  # fmt: skip
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=KINDS), required=False,
        help_text="The kinds of event posted to it (default: all).",
    )  # fmt: skip


class WebhookOutput(serializers.Serializer):
    campaign = serializers.IntegerField()
    url = serializers.CharField()
    kinds = serializers.ListField(child=serializers.CharField())


class ChoiceSerializer(serializers.Serializer):
    email = serializers.BooleanField(required=False)
    in_app = serializers.BooleanField(required=False)


class PreferencesSerializer(serializers.Serializer):
    preferences = serializers.DictField(
        child=ChoiceSerializer(), required=False,
        help_text=f"By kind ({', '.join(KINDS)}): email and in_app.",
    )  # fmt: skip
    email_mode = serializers.ChoiceField(
        choices=MailMode.choices, required=False,
        help_text="How e-mail comes: every message as it happens, a daily digest, or none.",
    )  # fmt: skip

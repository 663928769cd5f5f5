"""Notifications API: the caller's own list and mark-read, the caller's choices, a
campaign's webhook (its organiser's). Thin: each view parses and calls one service."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.errors import RuleViolation
from campaign.models import Campaign
from campaign.services import is_organiser

from . import selectors, services
from .models import Notification
from .serializers import NotificationOutput, PreferencesSerializer, WebhookInput, WebhookOutput


class NotificationListApi(generics.ListAPIView):
    """The caller's notifications, newest first; ``?unread=1`` for the unread only."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = NotificationOutput

    def get_queryset(self):
        qs = selectors.notifications_of(self.request.user)
        if self.request.query_params.get("unread") in ("1", "true"):
            qs = qs.filter(read_at__isnull=True)
        return qs


class NotificationReadApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=NotificationOutput)
    def post(self, request, pk: int):
        get_object_or_404(Notification, pk=pk, user=request.user, in_app=True)
        notification = services.notification_read(user=request.user, notification_id=pk)
        return Response(NotificationOutput(notification).data)


class PreferencesApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=PreferencesSerializer)
    def get(self, request):
        return Response(self._view(request.user))

    @extend_schema(request=PreferencesSerializer, responses=PreferencesSerializer)
    def put(self, request):
        data = PreferencesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.preferences_and_mode_set(
            user=request.user,
            values=data.validated_data.get("preferences", {}),
            mode=data.validated_data.get("email_mode"),
        )
        return Response(self._view(request.user))

    @staticmethod
    def _view(user):
        return {"preferences": services.preferences(user), "email_mode": services.mail_mode(user)}


class CampaignWebhookApi(APIView):
    """A campaign's webhook: its organiser reads and sets it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=WebhookOutput)
    def get(self, request, pk: int):
        campaign = get_object_or_404(Campaign, pk=pk)
        if not is_organiser(campaign, request.user):
            raise RuleViolation("only the campaign's organiser sees its webhook", code="permission")
        return Response(services.webhook_view(campaign))

    @extend_schema(request=WebhookInput, responses=WebhookOutput)
    def put(self, request, pk: int):
        campaign = get_object_or_404(Campaign, pk=pk)
        data = WebhookInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(
            services.webhook_set(campaign=campaign, by=request.user, **data.validated_data)
        )

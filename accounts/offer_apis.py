"""API of invitations to a known user (issue 23): the organiser offers a part by username,
the user answers (``accounts.offers``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.errors import RuleViolation
from campaign.models import Campaign
from campaign.serializers import MemberInput

from . import offers
from .models import Invitation


class OfferOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The invitation; its user answers it.")
    campaign = serializers.IntegerField()
    username = serializers.CharField()
    role = serializers.CharField()
    side = serializers.CharField(allow_blank=True)
    status = serializers.CharField(help_text="pending until the user accepts.")
    expires_at = serializers.DateTimeField()


class AnswerInput(serializers.Serializer):
    accept = serializers.BooleanField(help_text="true: join with the part offered; false: decline.")


def _offer(invitation: Invitation) -> dict:
    return {
        "id": invitation.pk,
        "campaign": invitation.campaign_id,
        "username": invitation.addressee.username if invitation.addressee else "",
        "role": invitation.role,
        "side": invitation.side,
        "status": invitation.status,
        "expires_at": invitation.expires_at,
    }


class CampaignMemberApi(APIView):
    """The organiser invites a user by username: a pending invitation, not a membership;
    the user becomes a member only by accepting it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MemberInput, responses={201: OfferOutput})
    def post(self, request, pk: int):
        campaign = get_object_or_404(Campaign, pk=pk)
        data = MemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = get_user_model().objects.filter(username=data.validated_data["username"]).first()
        if user is None:
            raise RuleViolation("no user with that username", field="username", code="exists")
        invitation = offers.invitation_offer(
            campaign=campaign,
            by=request.user,
            user=user,
            role=data.validated_data["role"],
            side=data.validated_data["side"],
        )
        return Response(_offer(invitation), status=status.HTTP_201_CREATED)


class InvitationsMineApi(APIView):
    """The invitations addressed to you that wait for your answer."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=OfferOutput(many=True))
    def get(self, request):
        return Response([_offer(i) for i in offers.invitations_waiting(request.user)])


class InvitationAnswerApi(APIView):
    """Accept (you become a member with the part offered) or decline (the offer is removed)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=AnswerInput, responses={200: OfferOutput, 204: None})
    def post(self, request, pk: int):
        data = AnswerInput(data=request.data)
        data.is_valid(raise_exception=True)
        member = offers.invitation_answer(
            invitation_id=pk, user=request.user, accept=data.validated_data["accept"]
        )
        if member is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        invitation = Invitation.objects.get(pk=pk)
        return Response(_offer(invitation))

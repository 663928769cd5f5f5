"""Invitations API: the organiser makes, lists and withdraws links; the invited accepts."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.errors import RuleViolation
from campaign import services as campaign_services
from campaign.models import Campaign

from . import services
from .models import Invitation
from .serializers import (
    InvitationAcceptedOutput,
    InvitationCreatedOutput,
    InvitationInput,
    InvitationOutput,
)


def _organised(request, pk: int) -> Campaign:
    campaign = get_object_or_404(Campaign, pk=pk)
    if not campaign_services.is_organiser(campaign, request.user):
        raise RuleViolation(
            "only the campaign's organiser sees and makes its invitations", code="permission"
        )
    return campaign


class CampaignInvitationsApi(APIView):
    """The campaign's invitations as the caller may see them: all of them for its
    organiser, none for anyone else (an empty list, as a list filtered to what one
    may see); making one is the organiser's."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=InvitationOutput(many=True))
    def get(self, request, pk: int):
        campaign = get_object_or_404(Campaign, pk=pk)
        mine = campaign_services.is_organiser(campaign, request.user)
        invitations = services.campaign_invitations(campaign) if mine else []
        return Response(InvitationOutput(invitations, many=True).data)

    @extend_schema(request=InvitationInput, responses={201: InvitationCreatedOutput})
    def post(self, request, pk: int):
        campaign = _organised(request, pk)
        data = InvitationInput(data=request.data)
        data.is_valid(raise_exception=True)
        invitation, link = services.invitation_create(
            campaign=campaign,
            by=request.user,
            base_url=request.build_absolute_uri("/"),
            **data.validated_data,
        )
        body = dict(InvitationOutput(invitation).data) | {"link": link}
        return Response(body, status=status.HTTP_201_CREATED)


class InvitationApi(APIView):
    """One invitation: its organiser withdraws it (DELETE) while it is unused."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=InvitationOutput)
    def delete(self, request, pk: int):
        invitation = get_object_or_404(Invitation, pk=pk)
        invitation = services.invitation_revoke(invitation_id=invitation.pk, by=request.user)
        return Response(InvitationOutput(invitation).data)


class InvitationAcceptApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=InvitationAcceptedOutput)
    def post(self, request, token: str):
        member = services.invitation_accept(token=token, user=request.user)
        return Response({"campaign": member.campaign_id, "role": member.role, "side": member.side})

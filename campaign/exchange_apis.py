"""Export and import of a whole campaign through the API (issue 16); the work is
``campaign.exchange``'s, these views only check who asks."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.errors import RuleViolation

from .access import may_create_campaign
from .exchange import campaign_export, campaign_import
from .exchange.imports import report_lines
from .models import Campaign
from .services import is_organiser


class CampaignExportApi(APIView):
    """The whole campaign as one versioned JSON document (its organiser or staff)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        campaign = get_object_or_404(Campaign, pk=pk)
        if not (request.user.is_staff or is_organiser(campaign, request.user)):
            raise RuleViolation(
                "only the campaign's organiser or staff may export it", code="permission"
            )
        response = Response(campaign_export(campaign))
        response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}.json"'
        return response


class CampaignImportApi(APIView):
    """Load an exported campaign (staff, or whoever may start campaigns here): 201 with its id."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            201: inline_serializer(
                "CampaignImported",
                {
                    "id": serializers.IntegerField(),
                    "name": serializers.CharField(),
                    "report": serializers.ListField(child=serializers.CharField()),
                },
            )
        },
    )
    def post(self, request):
        if not (request.user.is_staff or may_create_campaign(request.user)):
            raise RuleViolation("only staff may import a campaign here", code="permission")
        report = campaign_import(request.data)
        return Response(
            {
                "id": report.campaign.pk,
                "name": report.campaign.name,
                "report": report_lines(report),
            },
            status=status.HTTP_201_CREATED,
        )

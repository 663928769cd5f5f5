"""Campaign API: one view per operation; each parses, calls one service, returns the caller's view."""

from django.shortcuts import get_object_or_404
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.api import ErrorSerializer
from angels.errors import RuleViolation
from angels.numbers import whole_number
from roster.models import Squadron

from . import selectors, services
from .access import may_create_campaign
from .filters import CampaignFilter
from .models import Campaign
from .serializers import (
    ActionInput,
    CampaignCreateInput,
    CampaignListOutput,
    CampaignViewOutput,
    CorrectionInput,
    EngineRulesInput,
    EngineRulesOutput,
)


class CampaignListApi(generics.ListAPIView):
    """Campaigns, newest first; search and filters as query parameters (``campaign.filters``)."""

    serializer_class = CampaignListOutput
    filter_backends = [DjangoFilterBackend]
    filterset_class = CampaignFilter

    def get_queryset(self):
        return selectors.campaign_list()


class CampaignCreateApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=CampaignCreateInput, responses={201: CampaignViewOutput})
    def post(self, request):
        if not may_create_campaign(request.user):
            raise RuleViolation("only staff may start a campaign here", code="permission")
        data = CampaignCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        ids = values.pop("squadrons")
        squadrons = list(Squadron.objects.filter(pk__in=ids))
        if len(squadrons) != len(set(ids)):
            raise RuleViolation("unknown squadron id", field="squadrons", code="exists")
        campaign = services.campaign_open(created_by=request.user, squadrons=squadrons, **values)
        return Response(
            selectors.campaign_view(campaign, request.user), status=status.HTTP_201_CREATED
        )


class CampaignDetailApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("log_since", int, description="Only log entries from this index on."),
            OpenApiParameter(
                "umpire",
                str,
                enum=["allied", "axis"],
                description="The organiser only: the side's view (hand, legal actions) to act "
                "for it as umpire, each action with an umpire_reason.",
            ),
        ],
        responses={
            200: CampaignViewOutput,
            403: OpenApiResponse(
                ErrorSerializer, description="umpire asked by someone not the campaign's organiser"
            ),
        },
    )
    def get(self, request, pk: int):
        campaign = get_object_or_404(Campaign, pk=pk)
        since = whole_number(request.query_params.get("log_since", "0"), field="log_since")
        umpire = request.query_params.get("umpire") or None
        return Response(
            selectors.campaign_view(campaign, request.user, log_since=since, umpire=umpire)
        )


class CampaignActionApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ActionInput, responses=CampaignViewOutput)
    def post(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        data = ActionInput(data=request.data)
        data.is_valid(raise_exception=True)
        reason = data.validated_data.get("umpire_reason", "")
        campaign = services.campaign_act(
            campaign_id=pk,
            user=request.user,
            action=data.validated_data["action"],
            version=data.validated_data["version"],
            umpire_reason=reason,
        )
        side = str(data.validated_data["action"].get("side", ""))
        umpire = side if reason and side in services.SIDES else None
        if umpire == services.viewer_side(campaign, request.user):
            umpire = None
        return Response(selectors.campaign_view(campaign, request.user, umpire=umpire))


class CampaignCorrectionApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=CorrectionInput, responses=CampaignViewOutput)
    def post(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        data = CorrectionInput(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_correct(campaign_id=pk, by=request.user, **data.validated_data)
        return Response(selectors.campaign_view(campaign, request.user))


class CampaignStartApi(APIView):
    """The organiser starts a campaign gathering its commanders (status ``gathering``):
    from then on it is played and its deadlines run."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=CampaignViewOutput)
    def post(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        campaign = services.campaign_start(campaign_id=pk, by=request.user)
        return Response(selectors.campaign_view(campaign, request.user))


class CampaignUndoApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=CampaignViewOutput)
    def post(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        campaign = services.campaign_undo_last(campaign_id=pk, by=request.user)
        return Response(selectors.campaign_view(campaign, request.user))


class CampaignEngineRulesApi(APIView):
    """The optional rules of the campaign's engine engagements; the organiser may change them."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=EngineRulesOutput)
    def get(self, request, pk: int):
        campaign = get_object_or_404(Campaign, pk=pk)
        return Response(selectors.engine_rules_view(campaign))

    @extend_schema(request=EngineRulesInput, responses=EngineRulesOutput)
    def put(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        data = EngineRulesInput(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_engine_rules_set(
            campaign_id=pk, by=request.user, **data.validated_data
        )
        return Response(selectors.engine_rules_view(campaign))

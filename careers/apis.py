"""Career API: the leaderboard, a pilot's career, a squadron's page, campaign
statistics (reads, open to all); engagement results, table battles, claims and
the organiser's acts (writes, staff or the campaign's organiser). The paths stay
under ``/api/roster/`` as before the careers app split off the roster."""

from collections.abc import Callable
from typing import ClassVar

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.errors import RuleViolation
from roster.models import Pilot, Squadron
from roster.serializers import PilotOutput

from . import selectors, services
from .access import (
    can_write,
    engagement_pilot_fields,
    may_rename,
    require_campaign_pilots,
    require_campaign_squadron,
    require_may_edit,
    table_pilot_fields,
)
from .leaderboard_filters import STATUSES, leaderboard_filters
from .models import AwardDefinition, Claim, PilotEvent, TableBattle, campaign_model
from .records import EngagementRecord
from .serializers import (
    AppliedResultOutput,
    AwardDefinitionSerializer,
    CampaignStatsOutput,
    CareerSettingsSerializer,
    ClaimOutput,
    EngagementInput,
    LeaderboardOutput,
    PilotAddInput,
    PilotCareerOutput,
    PilotEventOutput,
    ReasonInput,
    RenameInput,
    SquadronPageOutput,
    TableBattleInput,
    TableBattleOutput,
    TransferInput,
    TurnBeginInput,
    TurnBeginOutput,
    engagement_errors,
)
from .squadron_campaign import squadron_campaign

_SIDE = OpenApiParameter("side", OpenApiTypes.STR, enum=["allied", "axis"])


def _parse(serializer_class, data):
    """Validate input; a bad value is a RuleViolation naming the field and the rule
    (the DRF error code: required, invalid, min_value, ...)."""
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        field, errors = next(iter(serializer.errors.items()))
        error = errors[0] if isinstance(errors, list) else next(iter(errors.values()))[0]
        if isinstance(error, dict):  # nested
            error = next(iter(error.values()))[0]
        raise RuleViolation(str(error), field=field, code=getattr(error, "code", "invalid"))
    return serializer.validated_data


def _campaign(campaign_id):
    if campaign_id is None:
        return None
    campaign = campaign_model()._default_manager.filter(pk=campaign_id).first()
    if campaign is None:
        raise RuleViolation(f"no campaign with id {campaign_id}", field="campaign", code="exists")
    return campaign


def _require_writer(user, campaign=None) -> None:
    if not can_write(user, campaign):
        raise PermissionDenied("only staff or the campaign's organiser may do this")


@extend_schema(
    parameters=[
        _SIDE,
        OpenApiParameter("campaign", OpenApiTypes.INT),
        OpenApiParameter("nation", OpenApiTypes.STR),
        OpenApiParameter("squadron", OpenApiTypes.INT),
        OpenApiParameter(
            "squadron_name", OpenApiTypes.STR, description="Words in the squadron's name."
        ),
        OpenApiParameter("aircraft_type", OpenApiTypes.INT),
        OpenApiParameter(
            "status",
            OpenApiTypes.STR,
            enum=list(STATUSES),
            description="living, captured, killed or missing (each a group of statuses), or one status.",
        ),  # fmt: skip
        OpenApiParameter(
            "aces", OpenApiTypes.BOOL, description="Only pilots with 5+ confirmed kills."
        ),
    ]
)
class LeaderboardApi(generics.ListAPIView):
    """Confirmed and claimed kills side by side; ties to fewer missions."""

    serializer_class = LeaderboardOutput

    def get_queryset(self):
        query = leaderboard_filters(self.request.query_params)
        if query.problems:
            raise query.problems[0]  # a 400 naming the parameter
        return selectors.leaderboard(**query.filters)


class PilotCareerApi(APIView):
    @extend_schema(responses=PilotCareerOutput)
    def get(self, request, pk: int):
        try:
            career = selectors.pilot_career(pilot_id=pk)
        except Pilot.DoesNotExist:
            raise NotFound("no such pilot") from None
        return Response(PilotCareerOutput(career).data)


class PilotEventListApi(generics.ListAPIView):
    serializer_class = PilotEventOutput

    def get_queryset(self):
        return (
            PilotEvent.objects.filter(pilot_id=self.kwargs["pk"])
            .select_related("campaign")
            .order_by("created_at", "id")
        )


class SquadronPageApi(APIView):
    """A squadron's page; ``?campaign=<id>``: only that campaign's pilots and entries (issue 24)."""

    @extend_schema(
        parameters=[OpenApiParameter("campaign", OpenApiTypes.INT)], responses=SquadronPageOutput
    )
    def get(self, request, pk: int):
        get_object_or_404(Squadron.objects.only("id"), pk=pk)
        campaign = squadron_campaign(request.query_params)
        page = selectors.squadron_page(squadron_id=pk, campaign=campaign)
        return Response(SquadronPageOutput(page).data)


class CampaignStatsApi(APIView):
    @extend_schema(responses=CampaignStatsOutput)
    def get(self, request, pk: int):
        campaign = get_object_or_404(campaign_model(), pk=pk)
        return Response(CampaignStatsOutput(selectors.campaign_statistics(campaign=campaign)).data)


class EngagementApplyApi(APIView):
    """Apply a normalised engagement record (engine mode and other programs). Exactly once per source_key."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=EngagementInput, responses={201: AppliedResultOutput, 200: AppliedResultOutput}
    )
    def post(self, request):
        # every problem named, a record's by its path in the record (mode, flown[0].pilot_id)
        serializer = EngagementInput(data=request.data)
        if not serializer.is_valid():
            raise ValidationError(engagement_errors(serializer.errors))
        data = serializer.validated_data
        campaign = _campaign(data.get("campaign"))
        _require_writer(request.user, campaign)
        try:
            record = EngagementRecord.from_json(data["record"])
        except (TypeError, ValueError) as exc:
            raise RuleViolation(str(exc), field="record", code="format") from exc
        require_campaign_pilots(campaign, engagement_pilot_fields(record))
        applied, created = services.engagement_apply(
            source_key=data["source_key"],
            result=record,
            campaign=campaign,
            recorded_by=request.user.username,
        )
        return Response(AppliedResultOutput(applied).data, status=201 if created else 200)


class TableBattleCreateApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TableBattleInput, responses={201: TableBattleOutput})
    def post(self, request):
        data = dict(_parse(TableBattleInput, request.data))
        campaign = _campaign(data.pop("campaign", None))
        _require_writer(request.user, campaign)
        require_campaign_pilots(campaign, table_pilot_fields(data))
        battle = services.table_battle_record(
            campaign=campaign, recorded_by=request.user.username, **data
        )
        return Response(TableBattleOutput(battle).data, status=201)


class TableBattleDetailApi(generics.RetrieveAPIView):
    serializer_class = TableBattleOutput
    queryset = TableBattle.objects.select_related("applied_result").prefetch_related(
        "claims__pilot", "claims__victim", "claims__victim_type"
    )


class _ClaimDecisionApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    decide: ClassVar[Callable[..., Claim]]  # services.claim_confirm or claim_deny

    @extend_schema(request=ReasonInput, responses=ClaimOutput)
    def post(self, request, pk: int):
        data = _parse(ReasonInput, request.data)
        claim = get_object_or_404(Claim.objects.select_related("battle__campaign"), pk=pk)
        _require_writer(request.user, claim.battle.campaign)
        claim = type(self).decide(claim_id=pk, by=request.user.username, reason=data["reason"])
        return Response(ClaimOutput(claim).data)


class ClaimConfirmApi(_ClaimDecisionApi):
    decide = staticmethod(services.claim_confirm)


class ClaimDenyApi(_ClaimDecisionApi):
    decide = staticmethod(services.claim_deny)


class PilotAddApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PilotAddInput, responses={201: PilotOutput})
    def post(self, request):
        data = _parse(PilotAddInput, request.data)
        campaign = _campaign(data.get("campaign"))
        _require_writer(request.user, campaign)
        squadron = Squadron.objects.filter(pk=data["squadron"]).first()
        if squadron is None:
            raise RuleViolation("no such squadron", field="squadron", code="exists")
        require_campaign_squadron(campaign, squadron)
        require_may_edit(request.user, squadron, field="squadron")  # a shared squadron: staff's
        pilot = services.pilot_add(squadron=squadron, name=data["name"], rank=data["rank"], campaign=campaign,
                                   by=request.user.username, reason=data["reason"])  # fmt: skip
        return Response(PilotOutput(pilot).data, status=201)


class _PilotActApi(APIView):
    permission_classes = [permissions.IsAdminUser]
    act: ClassVar[Callable[..., Pilot]]  # services.pilot_retire or pilot_revive

    @extend_schema(request=ReasonInput, responses=PilotOutput)
    def post(self, request, pk: int):
        data = _parse(ReasonInput, request.data)
        pilot = type(self).act(pilot_id=pk, by=request.user.username, reason=data["reason"])
        return Response(PilotOutput(pilot).data)


class PilotRetireApi(_PilotActApi):
    act = staticmethod(services.pilot_retire)


class PilotReviveApi(_PilotActApi):
    act = staticmethod(services.pilot_revive)


class PilotRenameApi(APIView):
    """Rename a pilot: staff, or the organiser of the campaign he was drafted for (issue 24)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RenameInput, responses=PilotOutput)
    def post(self, request, pk: int):
        pilot = get_object_or_404(Pilot, pk=pk)
        if not may_rename(request.user, pilot):
            raise PermissionDenied(
                "only staff, or the organiser of the campaign he was drafted for, rename a pilot"
            )
        data = _parse(RenameInput, request.data)
        pilot = services.pilot_rename(pilot_id=pk, name=data["name"], by=request.user.username)
        return Response(PilotOutput(pilot).data)


class PilotTransferApi(APIView):
    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=TransferInput, responses=PilotOutput)
    def post(self, request, pk: int):
        data = _parse(TransferInput, request.data)
        squadron = Squadron.objects.filter(pk=data["squadron"]).first()
        if squadron is None:
            raise RuleViolation("no such squadron", field="squadron", code="exists")
        pilot = services.pilot_transfer(
            pilot_id=pk, squadron=squadron, by=request.user.username, reason=data["reason"]
        )
        return Response(PilotOutput(pilot).data)


class CareerSettingsApi(APIView):
    @extend_schema(responses=CareerSettingsSerializer)
    def get(self, request, pk: int):
        campaign = get_object_or_404(campaign_model(), pk=pk)
        return Response(CareerSettingsSerializer(services.career_settings_for(campaign)).data)

    @extend_schema(request=CareerSettingsSerializer, responses=CareerSettingsSerializer)
    def put(self, request, pk: int):
        campaign = get_object_or_404(campaign_model(), pk=pk)
        _require_writer(request.user, campaign)
        serializer = CareerSettingsSerializer(data=request.data, partial=True)
        if not serializer.is_valid():
            _parse(CareerSettingsSerializer, request.data)
        settings = services.career_settings_update(
            campaign=campaign, by=request.user.username, **serializer.validated_data
        )
        return Response(CareerSettingsSerializer(settings).data)


class AwardListCreateApi(generics.ListAPIView):
    serializer_class = AwardDefinitionSerializer

    def get_queryset(self):
        return AwardDefinition.objects.filter(campaign_id=self.kwargs["pk"])

    @extend_schema(request=AwardDefinitionSerializer, responses={201: AwardDefinitionSerializer})
    def post(self, request, pk: int):
        campaign = get_object_or_404(campaign_model(), pk=pk)
        _require_writer(request.user, campaign)
        data = _parse(AwardDefinitionSerializer, request.data)
        award = services.award_define(campaign=campaign, by=request.user.username, **data)
        return Response(AwardDefinitionSerializer(award).data, status=201)


class TurnBeginApi(APIView):
    """The campaign layer's hook at a new campaign turn: return to duty, then replacements."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TurnBeginInput, responses=TurnBeginOutput)
    def post(self, request, pk: int):
        campaign = get_object_or_404(campaign_model(), pk=pk)
        _require_writer(request.user, campaign)
        data = _parse(TurnBeginInput, request.data)
        out = services.campaign_turn_begin(campaign=campaign, campaign_turn=data["campaign_turn"],
                                           recorded_by=request.user.username)  # fmt: skip
        return Response({k: [p.pk for p in v] for k, v in out.items()})

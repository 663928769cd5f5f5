"""Battle API: one view per operation. Bad input is a 400 naming the field and the rule, and creates nothing."""

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.throttling import ScopedRateThrottle

from . import access, selectors, services
from .filters import BattleFilter
from .models import Battle, BattleBatch
from .serializers import (
    BatchCreateInput,
    BatchOutput,
    BattleCreateInput,
    BattleListItem,
    BattleLogOutput,
    BattleOutput,
)


class BattleListApi(generics.ListAPIView):
    """Battles, newest first; filters as query parameters (``battles.filters``)."""

    serializer_class = BattleListItem
    filter_backends = [DjangoFilterBackend]
    filterset_class = BattleFilter

    def get_queryset(self):
        return selectors.battle_list()

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        assert page is not None  # the API's lists are always paged (angels.pagination)
        context = {
            **self.get_serializer_context(),
            "hidden_seeds": selectors.hidden_seeds(page, request.user),
        }
        return self.get_paginated_response(BattleListItem(page, many=True, context=context).data)


class BattleCreateApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "battles"  # REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], per user

    @extend_schema(
        request=BattleCreateInput,
        responses={202: BattleOutput},
        description=(
            "Stores the battle and answers 202 Accepted: it is flown in the background "
            "(`status` pending, then finished). With the broker down the battle is stored "
            "`queued` and sent when the broker is back; there is nothing to retry. "
            "With `resolve` false it waits as a draft."
        ),
    )
    def post(self, request):
        data = BattleCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        battle = services.battle_create(requested_by=request.user, **data.validated_data)
        battle.refresh_from_db()
        return Response(
            BattleOutput(battle, context={"request": request}).data, status=status.HTTP_202_ACCEPTED
        )


class BattleDetailApi(generics.RetrieveAPIView):
    serializer_class = BattleOutput
    queryset = selectors.with_setup_name(Battle.objects.defer("log", "actions", "setup"))


class BattleLogApi(generics.RetrieveAPIView):
    serializer_class = BattleLogOutput
    queryset = Battle.objects.all()


class BattleResolveApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=BattleOutput)
    def post(self, request, pk: int):
        access.require_manager(get_object_or_404(Battle, pk=pk), request.user, what="resolve")
        return Response(
            BattleOutput(services.battle_resolve(battle_id=pk), context={"request": request}).data
        )


class BattleRetryApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=BattleOutput)
    def post(self, request, pk: int):
        access.require_manager(get_object_or_404(Battle, pk=pk), request.user, what="retry")
        return Response(
            BattleOutput(services.battle_retry(battle_id=pk), context={"request": request}).data
        )


class BattleApplyApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses=BattleOutput,
        description=(
            "Hand a finished battle's result on again (to its campaign and the roster) after "
            'the fault that left it "finished, not applied" (`apply_error`) is fixed. Its '
            "creator, its campaign's organiser or staff. Applied at most once; a new failure "
            "is kept in `apply_error`."
        ),
    )
    def post(self, request, pk: int):
        get_object_or_404(Battle, pk=pk)
        battle = services.battle_reapply(battle_id=pk, user=request.user)
        return Response(BattleOutput(battle, context={"request": request}).data)


class BattleOddsApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "odds"

    @extend_schema(request=None, responses={202: BatchOutput})
    def post(self, request, pk: int):
        access.require_manager(get_object_or_404(Battle, pk=pk), request.user, what="preview")
        batch = services.odds_preview(battle_id=pk, requested_by=request.user)
        return Response(
            BatchOutput(_with_progress().get(pk=batch.pk), context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED,
        )


def _with_progress():
    return BattleBatch.objects.annotate(
        finished=Count("battles", filter=Q(battles__status__in=["finished", "failed"]))
    )


class BatchCreateApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "batches"

    @extend_schema(
        request=BatchCreateInput,
        responses={202: BatchOutput},
        description=(
            "Stores the batch and its battles and answers 202 Accepted: they are flown in the "
            "background and `summary` is written when the last one is done. With the broker "
            "down they are stored queued and sent when it is back; there is nothing to retry."
        ),
    )
    def post(self, request):
        data = BatchCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        access.require_batch_size(data.validated_data["runs"], request.user)
        batch = services.batch_create(requested_by=request.user, **data.validated_data)
        return Response(
            BatchOutput(_with_progress().get(pk=batch.pk), context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED,
        )


class BatchDetailApi(generics.RetrieveAPIView):
    serializer_class = BatchOutput

    def get_queryset(self):
        return _with_progress()

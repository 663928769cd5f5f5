"""Roster API: one view per operation, filters as query parameters
(``roster.filters``: the same search and filters as the pages; a bad value is a 400
naming the parameter). Lists are pages of ``limit``/``offset`` (``angels.pagination``)."""

from django.shortcuts import get_object_or_404
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from . import selectors, services
from .filters import AircraftTypeFilter, PilotFilter, SquadronFilter
from .models import AircraftType
from .serializers import AircraftTypeOutput, GameCardsInput, PilotOutput, SquadronOutput


class AircraftTypeListApi(generics.ListAPIView):
    serializer_class = AircraftTypeOutput
    filter_backends = [DjangoFilterBackend]
    filterset_class = AircraftTypeFilter

    def get_queryset(self):
        return selectors.aircraft_type_list()


class AircraftTypeDetailApi(generics.RetrieveAPIView):
    serializer_class = AircraftTypeOutput
    queryset = selectors.aircraft_type_list()


class AircraftTypeGameCardsApi(APIView):
    """Staff replace a type's Air Force / Air Pirates cards (issue 25); the catalog is
    staff's. A bad value is a 400 naming ``game_cards.<game>.values.<field>`` and the rule."""

    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=GameCardsInput, responses=AircraftTypeOutput)
    def patch(self, request, pk: int):
        get_object_or_404(AircraftType, pk=pk)
        data = GameCardsInput(data=request.data)
        data.is_valid(raise_exception=True)
        aircraft_type = services.aircraft_type_set_game_cards(
            aircraft_type_id=pk,
            game_cards=data.validated_data["game_cards"],
            reason=data.validated_data["reason"],
        )
        return Response(AircraftTypeOutput(aircraft_type).data)


class SquadronListApi(generics.ListAPIView):
    serializer_class = SquadronOutput
    filter_backends = [DjangoFilterBackend]
    filterset_class = SquadronFilter

    def get_queryset(self):
        return selectors.squadron_list()


class PilotListApi(generics.ListAPIView):
    serializer_class = PilotOutput
    filter_backends = [DjangoFilterBackend]
    filterset_class = PilotFilter

    def get_queryset(self):
        return selectors.pilot_list()

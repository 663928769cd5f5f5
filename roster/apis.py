"""Read-only roster API: one view per operation, filters as query parameters
(``roster.filters``: the same search and filters as the pages; a bad value is a 400
naming the parameter). Lists are pages of ``limit``/``offset`` (``angels.pagination``)."""

from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import generics

from . import selectors
from .filters import AircraftTypeFilter, PilotFilter, SquadronFilter
from .serializers import AircraftTypeOutput, PilotOutput, SquadronOutput


class AircraftTypeListApi(generics.ListAPIView):
    serializer_class = AircraftTypeOutput
    filter_backends = [DjangoFilterBackend]
    filterset_class = AircraftTypeFilter

    def get_queryset(self):
        return selectors.aircraft_type_list()


class AircraftTypeDetailApi(generics.RetrieveAPIView):
    serializer_class = AircraftTypeOutput
    queryset = selectors.aircraft_type_list()


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

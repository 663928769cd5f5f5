"""Read-only roster API: one view per operation, filters as query parameters."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics

from angels.numbers import whole_number

from . import selectors
from .serializers import AircraftTypeOutput, PilotOutput, SquadronOutput

_SIDE = OpenApiParameter("side", OpenApiTypes.STR, enum=["allied", "axis"])


@extend_schema(
    parameters=[_SIDE, OpenApiParameter("deck", OpenApiTypes.STR, enum=["allied", "luftwaffe"])]
)
class AircraftTypeListApi(generics.ListAPIView):
    serializer_class = AircraftTypeOutput

    def get_queryset(self):
        p = self.request.query_params
        return selectors.aircraft_type_list(side=p.get("side"), deck=p.get("deck"))


class AircraftTypeDetailApi(generics.RetrieveAPIView):
    serializer_class = AircraftTypeOutput
    queryset = selectors.aircraft_type_list()


@extend_schema(parameters=[_SIDE])
class SquadronListApi(generics.ListAPIView):
    serializer_class = SquadronOutput

    def get_queryset(self):
        return selectors.squadron_list(side=self.request.query_params.get("side"))


@extend_schema(
    parameters=[
        _SIDE,
        OpenApiParameter("squadron", OpenApiTypes.INT),
        OpenApiParameter("status", OpenApiTypes.STR),
    ]
)
class PilotListApi(generics.ListAPIView):
    serializer_class = PilotOutput

    def get_queryset(self):
        p = self.request.query_params
        squadron = p.get("squadron")
        return selectors.pilot_list(
            side=p.get("side"),
            squadron_id=whole_number(squadron, field="squadron") if squadron else None,
            status=p.get("status"),
        )

"""Campaign API: the game its engine and web engagements are flown under (issue 25)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.api import ErrorSerializer

from .game import campaign_game_set, game_view
from .models import Campaign
from .serializers import CampaignGameInput, CampaignGameOutput


class CampaignGameApi(APIView):
    """The campaign's game, and the missions the organiser gave a game of their own; the
    organiser changes either for the engagements not yet built."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=CampaignGameOutput)
    def get(self, request, pk: int):
        return Response(game_view(get_object_or_404(Campaign, pk=pk)))

    @extend_schema(
        request=CampaignGameInput,
        responses={
            200: CampaignGameOutput,
            400: OpenApiResponse(
                ErrorSerializer,
                description="an unknown game, one that cannot fly a campaign engagement, an "
                "unknown mission or one whose battle is built, or a finished campaign",
            ),
            403: OpenApiResponse(ErrorSerializer, description="not the campaign's organiser"),
        },
    )
    def put(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        data = CampaignGameInput(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = campaign_game_set(campaign_id=pk, by=request.user, **data.validated_data)
        return Response(game_view(campaign))

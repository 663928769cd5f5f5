"""A campaign's slow work in progress (issue 15): what the campaign page polls."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Campaign
from .work import work_json


class WorkItemOutput(serializers.Serializer):
    key = serializers.CharField(
        help_text="Stays the same while the work is under way, e.g. battle:12."
    )
    kind = serializers.CharField(help_text="engine battle or odds preview.")
    text = serializers.CharField(
        help_text="In words, e.g. 'engine battle for m3: game turn 3 of at most 8'."
    )
    done = serializers.IntegerField(help_text="Game turns flown, or battles of the batch done.")
    total = serializers.IntegerField(allow_null=True, help_text="Of how many (null: not known).")
    url = serializers.CharField(help_text="The page of the battle or batch.")


class WorkOutput(serializers.Serializer):
    busy = serializers.BooleanField(help_text="Is anything under way?")
    items = WorkItemOutput(many=True)


class CampaignWorkApi(APIView):
    """The campaign's engine battles being flown and odds previews running, with their progress.

    Read from the rows (a worker or a background thread updates them); an item
    disappears when its work is done, so a page polls this while ``busy``.
    """

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=WorkOutput)
    def get(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        return Response(work_json(campaign_id=pk))

"""The home page with what waits for a signed-in player on top ("your turn"), and its API."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from careers.views import home_context

from .waiting import waiting_for_user


def home(request: HttpRequest) -> HttpResponse:
    """The home page: to a signed-in player first what waits for them (campaigns and
    battles where they must act, seats and invitations offered), then the roster and
    aces everyone sees."""
    context = home_context()
    if request.user.is_authenticated:
        context["waiting"] = waiting_for_user(request.user)
    return render(request, "careers/home.html", context)


class WaitingItem(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["campaign", "battle", "seat_offer", "invitation"],
        help_text="campaign: your side must act; battle: your seat must decide; seat_offer: "
        "a battle seat offered to you; invitation: a campaign part offered to you.",
    )
    title = serializers.CharField(help_text="The campaign's name, or 'Battle <id>'.")
    what = serializers.CharField(help_text="What waits, in words.")
    url = serializers.CharField(help_text="The page where you act.")
    due = serializers.DateTimeField(allow_null=True, help_text="The deadline, if there is one.")


class WaitingApi(APIView):
    """What waits for you, soonest deadline first: the home page's "your turn" list."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=WaitingItem(many=True))
    def get(self, request):
        return Response(WaitingItem(waiting_for_user(request.user), many=True).data)

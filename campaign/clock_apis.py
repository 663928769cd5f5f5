"""Campaign clock API (issue 15): the organiser's pace, a commander's holiday."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.api import error_body

from . import clock
from .models import Campaign, OnDeadline, Pace

SIDE_CHOICES = ["allied", "axis"]


class PaceInput(serializers.Serializer):
    """Any of the pace settings; those left out keep their values."""

    pace = serializers.ChoiceField(
        choices=Pace.choices, required=False, help_text="none, hours (per decision) or weekly."
    )
    pace_hours = serializers.IntegerField(
        required=False, help_text="Hours a side has for each decision (pace 'hours'), 1-720."
    )
    turn_weekdays = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Turn days for pace 'weekly': 0 = Monday ... 6 = Sunday.",
    )
    turn_time = serializers.TimeField(
        required=False, allow_null=True, help_text="Time of day of a turn day, e.g. 18:00."
    )
    pace_timezone = serializers.CharField(
        required=False, help_text="The organiser's time zone for turn days, e.g. Europe/London."
    )
    on_deadline = serializers.ChoiceField(
        choices=OnDeadline.choices,
        required=False,
        help_text="computer: the computer commander decides for the absent side; wait.",
    )
    remind_hours = serializers.IntegerField(
        required=False, help_text="A reminder this many hours before a deadline (0: none)."
    )
    auto_advance = serializers.BooleanField(
        required=False, help_text="Phases in which the side to act can only advance move on."
    )
    computer_sides = serializers.ListField(
        child=serializers.ChoiceField(choices=SIDE_CHOICES),
        required=False,
        help_text="Sides the computer commander plays (solo play); at most one.",
    )


class PaceOutput(PaceInput):
    decision_due_at = serializers.DateTimeField(allow_null=True, help_text="When it is due.")
    decision_side = serializers.CharField(help_text="The side whose decision is awaited.")
    decision_turn = serializers.IntegerField(allow_null=True)
    decision_phase = serializers.CharField()
    deadline_noted = serializers.BooleanField(
        help_text="The deadline passed and the campaign waits for the side."
    )


class HolidayInput(serializers.Serializer):
    until = serializers.DateTimeField(
        allow_null=True, help_text="The computer plays your side until then; null: you are back."
    )


class HolidayOutput(serializers.Serializer):
    side = serializers.CharField()
    holiday_until = serializers.DateTimeField(allow_null=True)


def _pace(campaign: Campaign) -> dict:
    return PaceOutput(campaign).data


class CampaignPaceApi(APIView):
    """The campaign's pace and the decision awaited; the organiser changes the pace."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=PaceOutput)
    def get(self, request, pk: int):
        return Response(_pace(get_object_or_404(Campaign, pk=pk)))

    @extend_schema(request=PaceInput, responses=PaceOutput)
    def put(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        data = PaceInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            campaign = clock.campaign_pace_set(
                campaign_id=pk, by=request.user, changes=dict(data.validated_data)
            )
        except clock.PaceRefused as refused:  # every problem, the first repeated on top
            body = error_body([problem.as_dict() for problem in refused.problems])
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(_pace(campaign))


class CampaignHolidayApi(APIView):
    """A commander hands their side to the computer commander until a date (holiday mode)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=HolidayInput, responses=HolidayOutput)
    def post(self, request, pk: int):
        get_object_or_404(Campaign, pk=pk)
        data = HolidayInput(data=request.data)
        data.is_valid(raise_exception=True)
        member = clock.campaign_holiday_set(
            campaign_id=pk, by=request.user, until=data.validated_data["until"]
        )
        return Response({"side": member.side, "holiday_until": member.holiday_until})

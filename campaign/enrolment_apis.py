"""Enrolment API: the organiser enrols squadrons or chosen pilots (issue 12)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.numbers import MAX_ID

from .enrolment import Enrolment, campaign_enrol


class EnrolmentInput(serializers.Serializer):
    # ids within the column's range: a larger one reached the database and overflowed (a 500)
    squadrons = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False, default=list
    )
    pilots = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False, default=list
    )


class EnrolledPilotOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    squadron = serializers.CharField()


class LeftOutOutput(serializers.Serializer):
    pilot = serializers.IntegerField()
    name = serializers.CharField()
    reason = serializers.CharField()


class EnrolmentOutput(serializers.Serializer):
    enrolled = EnrolledPilotOutput(many=True)
    left_out = LeftOutOutput(many=True)


def enrolment_json(result: Enrolment) -> dict[str, object]:
    return {
        "enrolled": [
            {"id": p.pk, "name": str(p), "squadron": p.squadron.name} for p in result.enrolled
        ],
        "left_out": result.left_out,
    }


class CampaignEnrolApi(APIView):
    """Enrol squadrons (their free pilots) or chosen pilots. A chosen pilot serving
    in another active campaign, or out of action, is a 400 naming him and where he
    serves; a squadron's such pilots are left out and listed."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=EnrolmentInput, responses=EnrolmentOutput)
    def post(self, request, pk: int):
        data = EnrolmentInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = campaign_enrol(
            campaign_id=pk,
            by=request.user,
            squadrons=data.validated_data["squadrons"],
            pilots=data.validated_data["pilots"],
        )
        return Response(enrolment_json(result))

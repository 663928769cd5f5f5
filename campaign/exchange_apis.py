"""Export and import of a whole campaign through the API (issue 16); the work is
``campaign.exchange``'s, these views only check who asks."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.errors import RuleViolation

from .access import may_create_campaign
from .exchange import campaign_export, campaign_import
from .exchange.document import FORMAT, HISTORY_TABLES, KIND, TABLES
from .exchange.imports import ImportReport, report_lines
from .exchange.naming import MODES, RESTORE
from .models import Campaign
from .services import is_organiser


class CampaignExportApi(APIView):
    """The whole campaign as one versioned JSON document (its organiser or staff)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        campaign = get_object_or_404(Campaign, pk=pk)
        if not (request.user.is_staff or is_organiser(campaign, request.user)):
            raise RuleViolation(
                "only the campaign's organiser or staff may export it", code="permission"
            )
        response = Response(campaign_export(campaign, viewer=request.user))
        response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}.json"'
        return response


class _PersonSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="As a username of this server would be checked.")
    first_name = serializers.CharField(required=False, allow_blank=True)
    last_name = serializers.CharField(required=False, allow_blank=True)


class CampaignDocumentSerializer(serializers.Serializer):
    """The document ``GET /api/campaigns/<id>/export/`` answers (campaign.exchange.document):
    used here only to describe the import's body; the import checks it itself."""

    format = serializers.IntegerField(min_value=1, help_text=f"Up to {FORMAT} is read here.")
    kind = serializers.ChoiceField(choices=[KIND])
    checksum = serializers.CharField(
        help_text="SHA-256 of the document without this key, in canonical JSON: a file "
        "changed or cut short after its export is refused."
    )
    users = _PersonSerializer(
        many=True,
        help_text="The people the rows name, by username: kept as text (nobody is created, "
        "matched or made a member); the report lists the members to invite.",
    )
    tables = serializers.DictField(
        child=serializers.ListField(child=serializers.DictField()),
        help_text="Rows by table (" + ", ".join(TABLES) + "), each with a file-local "
        "integer 'ref'; a key to another row names its ref, to a user a username. Aircraft "
        "types are matched to the catalog by name.",
    )
    history = serializers.DictField(
        child=serializers.ListField(child=serializers.DictField()),
        help_text="History rows by table (" + ", ".join(HISTORY_TABLES) + "): recorded "
        "when imported, with who did what, when, as their reason's text.",
    )


class CampaignImportApi(APIView):
    """Load an exported campaign (staff, or whoever may start campaigns here): 201 with its
    id, or with ``?preview=1`` 200 with what would be created, storing nothing; ``?mode=``
    restore (the file's names) or copy (taken names suffixed). The importer is its
    organiser and only member; what it creates: README, "Moving a campaign"."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=CampaignDocumentSerializer,
        parameters=[
            OpenApiParameter(
                "catalog",
                OpenApiTypes.BOOL,
                description="Staff only: add the aircraft types this server's catalog lacks "
                "(without it such a type is a 400 naming it).",
            ),
            OpenApiParameter(
                "mode",
                OpenApiTypes.STR,
                enum=list(MODES),
                description="restore (the default): the file's names as they are, a name "
                "taken here a 400 naming each clash; copy: each taken name (campaign, "
                "squadron, airframe serial) gets a suffix, ' (copy)', ' (copy 2)', ...",
            ),
            OpenApiParameter(
                "preview",
                OpenApiTypes.BOOL,
                description="Check everything and answer 200 with what would be created and "
                "renamed, storing nothing.",
            ),
        ],
        responses={
            201: inline_serializer(
                "CampaignImported",
                {
                    "id": serializers.IntegerField(allow_null=True),
                    "name": serializers.CharField(),
                    "preview": serializers.BooleanField(),
                    "created": serializers.DictField(child=serializers.IntegerField()),
                    "renamed": serializers.ListField(child=serializers.DictField()),
                    "people_to_invite": serializers.ListField(child=serializers.CharField()),
                    "report": serializers.ListField(child=serializers.CharField()),
                },
            )
        },
    )
    def post(self, request):
        if not (request.user.is_staff or may_create_campaign(request.user)):
            raise RuleViolation("only staff may import a campaign here", code="permission")
        catalog = request.query_params.get("catalog", "").lower() in ("1", "true", "yes")
        if catalog and not request.user.is_staff:
            raise RuleViolation(
                "only staff may add aircraft types to the catalog", field="catalog",
                code="permission",
            )  # fmt: skip
        mode = request.query_params.get("mode", RESTORE)
        preview = request.query_params.get("preview", "").lower() in ("1", "true", "yes")
        report = campaign_import(
            request.data, by=request.user, catalog=catalog, mode=mode, preview=preview
        )
        return Response(
            import_answer(report),
            status=status.HTTP_200_OK if preview else status.HTTP_201_CREATED,
        )


def import_answer(report: ImportReport) -> dict:
    """An import's (or its preview's) answer: the new id (none in a preview), the rows
    created by table, each renamed item, the people to invite and the report's lines."""
    return {
        "id": None if report.preview else report.campaign.pk,
        "name": report.campaign.name,
        "preview": report.preview,
        "created": report.created(),
        "renamed": [
            {"table": c.table, "what": c.what, "old": c.old, "new": c.new} for c in report.renamed
        ],
        "people_to_invite": report.people,
        "report": report_lines(report),
    }

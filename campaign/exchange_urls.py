"""Export and import of a whole campaign (issue 16), under /api/campaigns/."""

from django.urls import path

from . import exchange_apis

urlpatterns = [
    path("import/", exchange_apis.CampaignImportApi.as_view(), name="api-campaign-import"),
    path("<id:pk>/export/", exchange_apis.CampaignExportApi.as_view(), name="api-campaign-export"),
]

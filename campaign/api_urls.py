from django.urls import path

from . import apis, clock_apis, enrolment_apis, game_apis, work_apis

urlpatterns = [
    path("", apis.CampaignListApi.as_view(), name="api-campaign-list"),
    path("create/", apis.CampaignCreateApi.as_view(), name="api-campaign-create"),
    path("<id:pk>/", apis.CampaignDetailApi.as_view(), name="api-campaign-detail"),
    path("<id:pk>/actions/", apis.CampaignActionApi.as_view(), name="api-campaign-act"),
    path("<id:pk>/corrections/", apis.CampaignCorrectionApi.as_view(), name="api-campaign-correct"),
    path("<id:pk>/start/", apis.CampaignStartApi.as_view(), name="api-campaign-start"),
    path("<id:pk>/undo/", apis.CampaignUndoApi.as_view(), name="api-campaign-undo"),
    path(
        "<id:pk>/enrolment/",
        enrolment_apis.CampaignEnrolApi.as_view(),
        name="api-campaign-enrol",
    ),
    path(
        "<id:pk>/engine-rules/",
        apis.CampaignEngineRulesApi.as_view(),
        name="api-campaign-engine-rules",
    ),
    path("<id:pk>/game/", game_apis.CampaignGameApi.as_view(), name="api-campaign-game"),
    path("<id:pk>/pace/", clock_apis.CampaignPaceApi.as_view(), name="api-campaign-pace"),
    path("<id:pk>/holiday/", clock_apis.CampaignHolidayApi.as_view(), name="api-campaign-holiday"),
    path("<id:pk>/work/", work_apis.CampaignWorkApi.as_view(), name="api-campaign-work"),
]

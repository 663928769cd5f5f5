from django.urls import path

from . import apis, clock_apis, enrolment_apis, work_apis

urlpatterns = [
    path("", apis.CampaignListApi.as_view(), name="api-campaign-list"),
    path("create/", apis.CampaignCreateApi.as_view(), name="api-campaign-create"),
    path("<int:pk>/", apis.CampaignDetailApi.as_view(), name="api-campaign-detail"),
    path("<int:pk>/actions/", apis.CampaignActionApi.as_view(), name="api-campaign-act"),
    path("<int:pk>/members/", apis.CampaignMemberApi.as_view(), name="api-campaign-members"),
    path(
        "<int:pk>/corrections/", apis.CampaignCorrectionApi.as_view(), name="api-campaign-correct"
    ),
    path("<int:pk>/undo/", apis.CampaignUndoApi.as_view(), name="api-campaign-undo"),
    path(
        "<int:pk>/enrolment/",
        enrolment_apis.CampaignEnrolApi.as_view(),
        name="api-campaign-enrol",
    ),
    path(
        "<int:pk>/engine-rules/",
        apis.CampaignEngineRulesApi.as_view(),
        name="api-campaign-engine-rules",
    ),
    path("<int:pk>/pace/", clock_apis.CampaignPaceApi.as_view(), name="api-campaign-pace"),
    path("<int:pk>/holiday/", clock_apis.CampaignHolidayApi.as_view(), name="api-campaign-holiday"),
    path("<int:pk>/work/", work_apis.CampaignWorkApi.as_view(), name="api-campaign-work"),
]

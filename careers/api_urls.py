from django.urls import path

from . import apis

urlpatterns = [
    path("squadrons/<id:pk>/", apis.SquadronPageApi.as_view(), name="api-squadron-page"),
    path("pilots/add/", apis.PilotAddApi.as_view(), name="api-pilot-add"),
    path("pilots/<id:pk>/", apis.PilotCareerApi.as_view(), name="api-pilot-career"),
    path("pilots/<id:pk>/events/", apis.PilotEventListApi.as_view(), name="api-pilot-events"),
    path("pilots/<id:pk>/transfer/", apis.PilotTransferApi.as_view(), name="api-pilot-transfer"),
    path("pilots/<id:pk>/rename/", apis.PilotRenameApi.as_view(), name="api-pilot-rename"),
    path("pilots/<id:pk>/retire/", apis.PilotRetireApi.as_view(), name="api-pilot-retire"),
    path("pilots/<id:pk>/revive/", apis.PilotReviveApi.as_view(), name="api-pilot-revive"),
    path("aces/", apis.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("engagements/", apis.EngagementApplyApi.as_view(), name="api-engagement-apply"),
    path("table-battles/", apis.TableBattleCreateApi.as_view(), name="api-table-battle-create"),
    path("table-battles/<id:pk>/", apis.TableBattleDetailApi.as_view(), name="api-table-battle"),
    path("claims/<id:pk>/confirm/", apis.ClaimConfirmApi.as_view(), name="api-claim-confirm"),
    path("claims/<id:pk>/deny/", apis.ClaimDenyApi.as_view(), name="api-claim-deny"),
    path("campaigns/<id:pk>/stats/", apis.CampaignStatsApi.as_view(), name="api-campaign-stats"),
    path(
        "campaigns/<id:pk>/career-settings/",
        apis.CareerSettingsApi.as_view(),
        name="api-career-settings",
    ),
    path("campaigns/<id:pk>/awards/", apis.AwardListCreateApi.as_view(), name="api-awards"),
    path("campaigns/<id:pk>/turn-begin/", apis.TurnBeginApi.as_view(), name="api-turn-begin"),
]

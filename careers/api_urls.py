from django.urls import path

from . import apis

urlpatterns = [
    path("squadrons/<int:pk>/", apis.SquadronPageApi.as_view(), name="api-squadron-page"),
    path("pilots/add/", apis.PilotAddApi.as_view(), name="api-pilot-add"),
    path("pilots/<int:pk>/", apis.PilotCareerApi.as_view(), name="api-pilot-career"),
    path("pilots/<int:pk>/events/", apis.PilotEventListApi.as_view(), name="api-pilot-events"),
    path("pilots/<int:pk>/transfer/", apis.PilotTransferApi.as_view(), name="api-pilot-transfer"),
    path("pilots/<int:pk>/retire/", apis.PilotRetireApi.as_view(), name="api-pilot-retire"),
    path("pilots/<int:pk>/revive/", apis.PilotReviveApi.as_view(), name="api-pilot-revive"),
    path("aces/", apis.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("engagements/", apis.EngagementApplyApi.as_view(), name="api-engagement-apply"),
    path("table-battles/", apis.TableBattleCreateApi.as_view(), name="api-table-battle-create"),
    path("table-battles/<int:pk>/", apis.TableBattleDetailApi.as_view(), name="api-table-battle"),
    path("claims/<int:pk>/confirm/", apis.ClaimConfirmApi.as_view(), name="api-claim-confirm"),
    path("claims/<int:pk>/deny/", apis.ClaimDenyApi.as_view(), name="api-claim-deny"),
    path("campaigns/<int:pk>/stats/", apis.CampaignStatsApi.as_view(), name="api-campaign-stats"),
    path(
        "campaigns/<int:pk>/career-settings/",
        apis.CareerSettingsApi.as_view(),
        name="api-career-settings",
    ),
    path("campaigns/<int:pk>/awards/", apis.AwardListCreateApi.as_view(), name="api-awards"),
    path("campaigns/<int:pk>/turn-begin/", apis.TurnBeginApi.as_view(), name="api-turn-begin"),
]

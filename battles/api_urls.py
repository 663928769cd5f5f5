from django.urls import path

from . import apis, play_apis

urlpatterns = [
    path("", apis.BattleListApi.as_view(), name="api-battle-list"),
    path("create/", apis.BattleCreateApi.as_view(), name="api-battle-create"),
    path("<id:pk>/", apis.BattleDetailApi.as_view(), name="api-battle-detail"),
    path("<id:pk>/log/", apis.BattleLogApi.as_view(), name="api-battle-log"),
    path("<id:pk>/resolve/", apis.BattleResolveApi.as_view(), name="api-battle-resolve"),
    path("<id:pk>/retry/", apis.BattleRetryApi.as_view(), name="api-battle-retry"),
    path("<id:pk>/apply/", apis.BattleApplyApi.as_view(), name="api-battle-apply"),
    path("<id:pk>/turn/", play_apis.BattleTurnApi.as_view(), name="api-battle-turn"),
    path("<id:pk>/hand-over/", play_apis.BattleHandOverApi.as_view(), name="api-battle-hand-over"),
    path("<id:pk>/seat/", play_apis.BattleSeatApi.as_view(), name="api-battle-seat"),
    path("<id:pk>/odds/", apis.BattleOddsApi.as_view(), name="api-battle-odds"),
    path("batches/", apis.BatchCreateApi.as_view(), name="api-batch-create"),
    path("batches/<id:pk>/", apis.BatchDetailApi.as_view(), name="api-batch-detail"),
]

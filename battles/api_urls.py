from django.urls import path

from . import apis, play_apis

urlpatterns = [
    path("", apis.BattleListApi.as_view(), name="api-battle-list"),
    path("create/", apis.BattleCreateApi.as_view(), name="api-battle-create"),
    path("<int:pk>/", apis.BattleDetailApi.as_view(), name="api-battle-detail"),
    path("<int:pk>/log/", apis.BattleLogApi.as_view(), name="api-battle-log"),
    path("<int:pk>/resolve/", apis.BattleResolveApi.as_view(), name="api-battle-resolve"),
    path("<int:pk>/retry/", apis.BattleRetryApi.as_view(), name="api-battle-retry"),
    path("<int:pk>/apply/", apis.BattleApplyApi.as_view(), name="api-battle-apply"),
    path("<int:pk>/turn/", play_apis.BattleTurnApi.as_view(), name="api-battle-turn"),
    path("<int:pk>/hand-over/", play_apis.BattleHandOverApi.as_view(), name="api-battle-hand-over"),
    path("<int:pk>/odds/", apis.BattleOddsApi.as_view(), name="api-battle-odds"),
    path("batches/", apis.BatchCreateApi.as_view(), name="api-batch-create"),
    path("batches/<int:pk>/", apis.BatchDetailApi.as_view(), name="api-batch-detail"),
]

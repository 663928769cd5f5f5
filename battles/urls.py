from django.urls import path

from . import new_battle, play_views, views

urlpatterns = [
    path("", views.battle_list, name="battle-list"),
    path("new/", new_battle.battle_new, name="battle-new"),
    path("<id:pk>/", views.battle_report, name="battle-report"),
    path("<id:pk>/play/", play_views.battle_play, name="battle-play"),
    path("<id:pk>/<str:action>/", views.battle_action, name="battle-action"),
    path("batches/<id:pk>/", views.batch_detail, name="batch-detail"),
]

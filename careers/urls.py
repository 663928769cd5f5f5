from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("pilots/<int:pk>/", views.pilot_detail, name="pilot"),
    path("squadrons/<int:pk>/", views.squadron_detail, name="squadron"),
    path("aces/", views.aces, name="aces"),
    path("statistics/<int:pk>/", views.campaign_stats, name="campaign-stats"),
    path("table-battles/new/", views.table_battle_new, name="table-battle-new"),
    path("table-battles/<int:pk>/", views.table_battle_detail, name="table-battle"),
    path("claims/<int:pk>/decide/", views.claim_decide, name="claim-decide"),
]

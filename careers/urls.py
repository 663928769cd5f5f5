from django.urls import path

from . import print_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("pilots/", views.pilot_list, name="pilot-list"),
    path("squadrons/", views.squadron_list, name="squadron-list"),
    path("pilots/<int:pk>/", views.pilot_detail, name="pilot"),
    path("squadrons/<int:pk>/", views.squadron_detail, name="squadron"),
    path("pilots/<int:pk>/card.pdf", print_views.pilot_card_pdf, name="pilot-card-pdf"),
    path("squadrons/<int:pk>/print/", print_views.squadron_print, name="squadron-print"),
    path(
        "squadrons/<int:pk>/roster.pdf", print_views.squadron_roster_pdf, name="squadron-roster-pdf"
    ),
    path("aces.csv", print_views.aces_csv, name="aces-csv"),
    path(
        "statistics/<int:pk>/statistics.csv",
        print_views.campaign_stats_csv,
        name="campaign-stats-csv",
    ),
    path("aces/", views.aces, name="aces"),
    path("statistics/<int:pk>/", views.campaign_stats, name="campaign-stats"),
    path("table-battles/new/", views.table_battle_new, name="table-battle-new"),
    path("table-battles/<int:pk>/", views.table_battle_detail, name="table-battle"),
    path("claims/<int:pk>/decide/", views.claim_decide, name="claim-decide"),
]

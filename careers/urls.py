from django.urls import path

from . import print_views, views

urlpatterns = [
    path("pilots/", views.pilot_list, name="pilot-list"),
    path("squadrons/", views.squadron_list, name="squadron-list"),
    path("pilots/<id:pk>/", views.pilot_detail, name="pilot"),
    path("pilots/<id:pk>/rename/", views.pilot_rename, name="pilot-rename"),
    path("squadrons/<id:pk>/", views.squadron_detail, name="squadron"),
    path("pilots/<id:pk>/card.pdf", print_views.pilot_card_pdf, name="pilot-card-pdf"),
    path("squadrons/<id:pk>/print/", print_views.squadron_print, name="squadron-print"),
    path(
        "squadrons/<id:pk>/roster.pdf", print_views.squadron_roster_pdf, name="squadron-roster-pdf"
    ),
    path("aces.csv", print_views.aces_csv, name="aces-csv"),
    path(
        "statistics/<id:pk>/statistics.csv",
        print_views.campaign_stats_csv,
        name="campaign-stats-csv",
    ),
    path("aces/", views.aces, name="aces"),
    path("statistics/<id:pk>/", views.campaign_stats, name="campaign-stats"),
    path("table-battles/new/", views.table_battle_new, name="table-battle-new"),
    path("table-battles/<id:pk>/", views.table_battle_detail, name="table-battle"),
    path("claims/<id:pk>/decide/", views.claim_decide, name="claim-decide"),
]

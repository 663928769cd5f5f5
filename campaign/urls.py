from django.urls import path

from . import clock_views, enrolment_views, exchange_views, game_views, print_views, views

urlpatterns = [
    path("", views.campaign_list, name="campaign-list"),
    path("new/", views.campaign_new, name="campaign-new"),
    path("import/", exchange_views.campaign_import_preview, name="campaign-import"),
    path("import/confirm/", exchange_views.campaign_import_confirm, name="campaign-import-confirm"),
    path("<id:pk>/", views.campaign_detail, name="campaign-detail"),
    path("<id:pk>/export/", exchange_views.campaign_export_download, name="campaign-export"),
    path("<id:pk>/print/", print_views.campaign_print, name="campaign-print"),
    path("<id:pk>/act/", views.campaign_act, name="campaign-act"),
    path("<id:pk>/start/", views.campaign_start, name="campaign-start"),
    path("<id:pk>/undo/", views.campaign_undo, name="campaign-undo"),
    path("<id:pk>/enrol/", enrolment_views.campaign_enrol_page, name="campaign-enrol"),
    path("<id:pk>/engine-rules/", views.campaign_engine_rules, name="campaign-engine-rules"),
    path("<id:pk>/game/", game_views.campaign_game, name="campaign-game"),
    path("<id:pk>/pace/", clock_views.campaign_pace, name="campaign-pace"),
    path("<id:pk>/holiday/", clock_views.campaign_holiday, name="campaign-holiday"),
]

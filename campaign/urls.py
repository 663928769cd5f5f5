from django.urls import path

from . import clock_views, enrolment_views, print_views, views

urlpatterns = [
    path("", views.campaign_list, name="campaign-list"),
    path("new/", views.campaign_new, name="campaign-new"),
    path("<int:pk>/", views.campaign_detail, name="campaign-detail"),
    path("<int:pk>/print/", print_views.campaign_print, name="campaign-print"),
    path("<int:pk>/act/", views.campaign_act, name="campaign-act"),
    path("<int:pk>/invite/", views.campaign_invite, name="campaign-invite"),
    path("<int:pk>/undo/", views.campaign_undo, name="campaign-undo"),
    path("<int:pk>/enrol/", enrolment_views.campaign_enrol_page, name="campaign-enrol"),
    path("<int:pk>/engine-rules/", views.campaign_engine_rules, name="campaign-engine-rules"),
    path("<int:pk>/pace/", clock_views.campaign_pace, name="campaign-pace"),
    path("<int:pk>/holiday/", clock_views.campaign_holiday, name="campaign-holiday"),
]

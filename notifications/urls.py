from django.urls import path

from . import views

app_name = "notifications"
urlpatterns = [
    path("", views.notification_list, name="list"),
    path("<id:pk>/read/", views.notification_read, name="read"),
    path("read-all/", views.notification_read_all, name="read-all"),
    path("settings/", views.preferences_page, name="settings"),
    path("campaigns/<id:pk>/", views.campaign_webhook_page, name="campaign"),
]

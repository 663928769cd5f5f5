from django.urls import path

from . import apis

urlpatterns = [
    path("", apis.NotificationListApi.as_view(), name="api-notification-list"),
    path("<id:pk>/read/", apis.NotificationReadApi.as_view(), name="api-notification-read"),
    path("preferences/", apis.PreferencesApi.as_view(), name="api-notification-preferences"),
    path(
        "campaigns/<id:pk>/webhook/",
        apis.CampaignWebhookApi.as_view(),
        name="api-notification-webhook",
    ),
]

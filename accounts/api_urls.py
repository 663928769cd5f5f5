from django.urls import path

from . import apis, waiting_views

urlpatterns = [
    path("me/waiting/", waiting_views.WaitingApi.as_view(), name="api-me-waiting"),
    path(
        "campaigns/<id:pk>/invitations/",
        apis.CampaignInvitationsApi.as_view(),
        name="api-campaign-invitations",
    ),
    path(
        "invitations/<id:pk>/",
        apis.InvitationApi.as_view(),
        name="api-invitation",
    ),
    path(
        "invitations/<str:token>/accept/",
        apis.InvitationAcceptApi.as_view(),
        name="api-invitation-accept",
    ),
]

from django.urls import path

from . import apis, offer_apis, waiting_views

urlpatterns = [
    path("me/waiting/", waiting_views.WaitingApi.as_view(), name="api-me-waiting"),
    path("me/invitations/", offer_apis.InvitationsMineApi.as_view(), name="api-me-invitations"),
    path(
        "campaigns/<id:pk>/members/",
        offer_apis.CampaignMemberApi.as_view(),
        name="api-campaign-members",
    ),
    path(
        "invitations/<id:pk>/answer/",
        offer_apis.InvitationAnswerApi.as_view(),
        name="api-invitation-answer",
    ),
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

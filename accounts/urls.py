from django.urls import path

from . import offer_views, signin_views, views

app_name = "accounts"
urlpatterns = [
    # Django's own views (the rest is django.contrib.auth.urls, whose names these paths
    # keep): password guessing limited, the reset's mail queued (issue 23)
    path("login/", signin_views.LoginView.as_view(), name="login"),
    path("password_change/", signin_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_reset/", signin_views.PasswordResetView.as_view(), name="password_reset"),
    path("signup/", views.signup, name="signup"),
    path("settings/", views.user_settings_page, name="settings"),
    path(
        "campaigns/<id:pk>/invitations/",
        views.campaign_invitations_page,
        name="campaign-invitations",
    ),
    path("invitations/", offer_views.invitations_mine, name="invitations-mine"),
    path("invitations/<id:pk>/answer/", offer_views.invitation_answer, name="invitation-answer"),
    path("invitations/<id:pk>/revoke/", views.invitation_revoke, name="invitation-revoke"),
    path("invitations/<str:token>/", views.invitation_page, name="invitation"),
]

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .forms import QueuedPasswordResetForm

app_name = "accounts"
urlpatterns = [
    # Django's own view (the rest of the reset is django.contrib.auth.urls), its mail queued
    path(
        "password_reset/",
        auth_views.PasswordResetView.as_view(form_class=QueuedPasswordResetForm),
        name="password_reset",
    ),
    path("signup/", views.signup, name="signup"),
    path("settings/", views.user_settings_page, name="settings"),
    path(
        "campaigns/<id:pk>/invitations/",
        views.campaign_invitations_page,
        name="campaign-invitations",
    ),
    path("invitations/<id:pk>/revoke/", views.invitation_revoke, name="invitation-revoke"),
    path("invitations/<str:token>/", views.invitation_page, name="invitation"),
]

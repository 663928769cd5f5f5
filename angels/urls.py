from django.contrib import admin
from django.urls import include, path, re_path, register_converter
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from accounts import offer_views, waiting_views

from . import auth, favicon, health
from .api import unknown_api_path
from .api_root import api_root
from .converters import BoundedIdConverter

handler404 = "angels.api.not_found"  # JSON in the API's error shape under /api/
handler500 = "angels.error_pages.server_error"  # likewise; elsewhere templates/500.html
# <id:pk>: an id beyond 64 bits is a 404, not the database's OverflowError (a 500);
# registered before the includes below read their patterns
register_converter(BoundedIdConverter, "id")

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", favicon.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("api/", api_root, name="api-root"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # the split view: its start-up script is a file of its own (?script), not inline (the CSP)
    # templates/api/swagger_ui.html: the package's page under a link back to the site
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html"),
        name="api-redoc",
    ),
    path("api/roster/", include("roster.api_urls")),
    path("api/roster/", include("careers.api_urls")),  # career API, same paths as before the split
    path("api/campaigns/", include("campaign.exchange_urls")),  # export, import (issue 16)
    path("api/campaigns/", include("campaign.api_urls")),
    path("api/", include("accounts.api_urls")),  # invitations (issue 15)
    # issue 23: the invite form makes an invitation the user accepts (accounts.offers)
    path("campaigns/<id:pk>/invite/", offer_views.campaign_invite, name="campaign-invite"),
    path("campaigns/", include("campaign.urls")),
    path("history/", include("campaign.history_urls")),  # issue 16: history of every change
    path("api/battles/", include("battles.api_urls")),
    path("battles/", include("battles.urls")),
    path("api/auth/token/", auth.TokenObtainApi.as_view(), name="api-token"),
    path("accounts/token/", auth.token_page, name="api-token-page"),
    path("accounts/", include("accounts.urls")),  # sign-up, invitations, settings
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/notifications/", include("notifications.api_urls")),  # issue 15
    path("notifications/", include("notifications.urls")),
    path("", waiting_views.home, name="home"),  # issue 24: "your turn" first when signed in
    path("", include("roster.urls")),
    path("", include("careers.urls")),
    # last: an /api/ address no endpoint above has is the API's JSON 404 with DEBUG on too
    # (handler404 covers only DEBUG off); it adds a missing slash as APPEND_SLASH did
    re_path(r"^api/(?P<rest>.+)$", unknown_api_path, name="api-unknown"),
]

from django.urls import path

from . import history_views

urlpatterns = [
    path("<slug:app>/<slug:model>/<int:pk>/", history_views.object_history, name="object-history"),
    path(
        "<slug:app>/<slug:model>/<int:pk>/revert/",
        history_views.object_revert,
        name="object-revert",
    ),
]

from django.urls import path

from . import history_views

urlpatterns = [
    path("<slug:app>/<slug:model>/<id:pk>/", history_views.object_history, name="object-history"),
    path(
        "<slug:app>/<slug:model>/<id:pk>/revert/",
        history_views.object_revert,
        name="object-revert",
    ),
]

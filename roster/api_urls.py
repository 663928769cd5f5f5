from django.urls import path

from . import apis

urlpatterns = [
    path("aircraft-types/", apis.AircraftTypeListApi.as_view(), name="api-aircraft-type-list"),
    path(
        "aircraft-types/<id:pk>/",
        apis.AircraftTypeDetailApi.as_view(),
        name="api-aircraft-type-detail",
    ),
    path(
        "aircraft-types/<id:pk>/game-cards/",
        apis.AircraftTypeGameCardsApi.as_view(),
        name="api-aircraft-type-game-cards",
    ),
    path("squadrons/", apis.SquadronListApi.as_view(), name="api-squadron-list"),
    path("pilots/", apis.PilotListApi.as_view(), name="api-pilot-list"),
]

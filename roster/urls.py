from django.urls import path

from . import views

urlpatterns = [
    path("aircraft/", views.catalog, name="catalog"),
]

from django.shortcuts import render

from . import selectors


def home(request):
    return render(
        request,
        "roster/home.html",
        {
            "squadrons": selectors.squadron_list(),
            "aces": selectors.ace_list(limit=10),
        },
    )


def catalog(request):
    return render(
        request, "roster/catalog.html", {"aircraft_types": selectors.aircraft_type_list()}
    )

from django.shortcuts import render

from . import selectors


def catalog(request):
    return render(
        request, "roster/catalog.html", {"aircraft_types": selectors.aircraft_type_list()}
    )

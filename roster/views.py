from django.shortcuts import render

from angels.listing import filtered_page

from . import selectors
from .filters import AircraftTypeFilter


def catalog(request):
    """The aircraft catalog: search, filters and pages (issue 16 "Find things")."""
    page = filtered_page(request, AircraftTypeFilter, selectors.aircraft_type_list())
    return render(request, "roster/catalog.html", {**page, "aircraft_types": page["rows"]})

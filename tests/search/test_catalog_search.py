"""Issue 16 "Find things": the aircraft catalog's search, filters and pages, on the page
and in the API (the same filters; a bad value is a plain message on the page, a 400
naming the parameter in the API)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from roster.models import AircraftType

pytestmark = pytest.mark.django_db


def _page_names(html: str) -> list[str]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [unescape(name) for name in re.findall(r"<tr>\s*<td>([^<]+)", body)]


def _api_names(client, query: str) -> list[str]:
    response = client.get(f"/api/roster/aircraft-types/?{query}")
    assert response.status_code == 200, response.content
    return [row["name"] for row in response.json()["results"]]


def test_search_finds_the_spitfires_only_on_the_page_and_in_the_api(client, catalog):
    spitfires = sorted(
        AircraftType.objects.filter(name__icontains="spitfire").values_list("name", flat=True)
    )
    assert len(spitfires) >= 2
    page = client.get("/aircraft/?q=spitfire")
    assert page.status_code == 200
    html = page.content.decode()
    assert _page_names(html) == spitfires
    assert 'value="spitfire"' in html  # the search box keeps what was typed
    assert _api_names(client, "q=SPITFIRE") == spitfires


def test_filters_combine_side_role_and_years(client, catalog):
    expected = sorted(
        AircraftType.objects.filter(
            side__in=("axis", ""), kind="fighter", year__gte=1941, year__lte=1942
        ).values_list("name", flat=True)
    )
    assert expected
    query = "side=axis&kind=fighter&year_from=1941&year_to=1942"
    assert _page_names(client.get(f"/aircraft/?{query}").content.decode()) == expected
    assert _api_names(client, query + "&limit=500") == expected


def test_pages_of_25_whose_links_keep_the_query(client, catalog):
    allied = sorted(
        AircraftType.objects.filter(side__in=("allied", "")).values_list("name", flat=True)
    )
    assert len(allied) > 25
    first = client.get("/aircraft/?side=allied").content.decode()
    assert _page_names(first) == allied[:25]
    assert f"{len(allied)} found" in first
    assert 'href="?side=allied&amp;page=2"' in first
    second = client.get("/aircraft/?side=allied&page=2").content.decode()
    assert _page_names(second) == allied[25:50]
    assert 'href="?side=allied&amp;page=1"' in second
    # a page past the end or not a number is the last or first page, never an error
    assert client.get("/aircraft/?page=999").status_code == 200
    assert _page_names(client.get("/aircraft/?page=abc").content.decode())[0] == min(
        AircraftType.objects.values_list("name", flat=True)
    )


def test_bad_filter_values_are_a_plain_message_on_the_page(client, catalog):
    response = client.get("/aircraft/?year_from=abc&side=japan")
    assert response.status_code == 200
    html = response.content.decode()
    assert "From year: Enter a whole number." in html
    assert "Side: Select a valid choice." in html
    assert _page_names(html) == []
    assert 'value="abc"' in html  # kept in the box to correct


@pytest.mark.parametrize(
    ("query", "field"),
    [("year_from=abc", "year_from"), ("year_to=1941.5", "year_to"), ("side=japan", "side"),
     ("kind=zeppelin", "kind"), ("year_from=99999999999999999999", "year_from")],
)  # fmt: skip
def test_bad_filter_values_are_a_400_naming_the_parameter(client, catalog, query, field):
    response = client.get(f"/api/roster/aircraft-types/?{query}")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == field and body["detail"] and body["errors"][0]["field"] == field


def test_the_catalog_page_queries_do_not_grow_with_rows(
    client, catalog, django_assert_max_num_queries
):
    with django_assert_max_num_queries(4):
        client.get("/aircraft/?page=2")
    with django_assert_max_num_queries(4):
        client.get("/api/roster/aircraft-types/?limit=500")

"""The aces leaderboard read in pages (issue 17, "pages flat in data size"): a page
holds the rows of the whole ordering, the page needs no count of every pilot, the
squadron filter is a search, and the page, the API and the CSV agree."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from careers import selectors, tallies
from careers.models import ClaimState, PilotEvent, PilotEventKind
from roster.models import Pilot, PilotStatus
from rules.careers.progression import is_ace


def _ranked(squadron, kills, *, unconfirmed=0, missions=0, status=PilotStatus.ACTIVE, prefix="R"):
    """Pilots with these confirmed kills (kill entries, tallies recounted as a bulk load must)."""
    pilots = Pilot.objects.bulk_create(
        [Pilot(name=f"{prefix}{squadron.pk}-{i:03d}", nation=squadron.nation, squadron=squadron, quality="average",
               quality_scale="air_force", unconfirmed_kills=unconfirmed, experience_markers=(missions or i % 4),
               status=status)
         for i in range(len(kills))]
    )  # fmt: skip
    PilotEvent.objects.bulk_create(
        [PilotEvent(pilot=p, kind=PilotEventKind.KILL, details={}) for p, n in zip(pilots, kills, strict=True)
         for _ in range(n)]
    )  # fmt: skip
    tallies.pilot_tallies_rebuild([p.pk for p in pilots])
    return pilots


@pytest.fixture
def board(cast):
    """About 150 ranked pilots on both sides, with long ties, claims-only pilots and
    a killed one, beside the cast (no kills yet)."""
    raf, jg = cast["raf"], cast["jg"]
    _ranked(raf, [i % 9 for i in range(1, 71)])  # 0..8 kills: ties of 7 or 8 pilots
    _ranked(jg, [3] * 40 + [7] * 12 + [1] * 8)  # a tie of 40 across a page boundary
    _ranked(jg, [0] * 6, unconfirmed=2, prefix="C")  # claims only: at the end
    _ranked(raf, [9], status=PilotStatus.KILLED, prefix="K")
    return cast


FILTERS = [{}, {"side": "axis"}, {"side": "allied", "status": "living"}, {"aces_only": True},
           {"squadron_name": "jg"}, {"status": "killed"}]  # fmt: skip


@pytest.mark.parametrize("filters", FILTERS)
def test_every_slice_holds_the_rows_of_the_whole_ordering(board, filters):
    whole = [p.pk for p in selectors.leaderboard(**filters)]
    assert list(selectors.leaderboard(**filters)) == list(selectors.leaderboard(**filters).all())
    for start, stop in ((0, 1), (0, 10), (0, 50), (0, 51), (10, 45), (50, 100), (50, 101),
                        (100, 150), (120, 200), (0, 400), (300, 350)):  # fmt: skip
        got = [p.pk for p in selectors.leaderboard(**filters)[start:stop]]
        assert got == whole[start:stop], (filters, start, stop)
    figures = {
        p.pk: (p.confirmed_kills, p.claimed_kills, p.ace)
        for p in selectors.leaderboard(**filters)[:400]
    }
    assert figures == {
        p.pk: (p.confirmed_kills, p.claimed_kills, p.ace) for p in selectors.leaderboard(**filters)
    }


def test_a_slice_runs_three_queries_whatever_its_place(board):
    for start, stop in ((0, 51), (50, 101), (130, 181), (500, 551)):
        with CaptureQueriesContext(connection) as ctx:
            list(selectors.leaderboard()[start:stop])
        assert len(ctx) == 3, (start, stop)


def _ranks(page):
    return [int(n) for n in re.findall(r'<tr data-pilot="\d+"><td>(\d+)</td>', page)]


def test_aces_page_pages_through_the_leaderboard_with_previous_and_next(client, board):
    whole = [p.pk for p in selectors.leaderboard()]
    assert 100 < len(whole) < 150
    first = client.get("/aces/").content.decode()
    assert _ranks(first) == list(range(1, 51))
    assert [int(pk) for pk in re.findall(r'<tr data-pilot="(\d+)">', first)] == whole[:50]
    assert "page 1 (ranks 1–50)" in first and 'href="?page=2">next</a>' in first
    assert "previous</a>" not in first
    last = client.get("/aces/?page=3").content.decode()
    assert _ranks(last) == list(range(101, len(whole) + 1))
    assert 'href="?page=2">previous</a>' in last and "next</a>" not in last
    past = client.get("/aces/?page=9").content.decode()
    assert (
        "No pilot on this page." in past and 'is past the end: <a href="?">first page</a>' in past
    )
    assert "previous</a>" not in past  # page 8 would be past the end too
    assert _ranks(client.get("/aces/?page=abc").content.decode()) == list(range(1, 51))
    assert client.get("/aces/?page=99999999999999999999").status_code == 200


def test_page_links_keep_the_filters(client, board):
    page = client.get("/aces/?side=axis&nation=Germany&page=1").content.decode()
    assert 'href="?side=axis&amp;nation=Germany&amp;page=2">next</a>' in page
    assert 'href="/aces.csv?side=axis&amp;nation=Germany"' in page


def test_squadron_filter_is_a_search_by_name_not_a_list_of_every_squadron(client, board):
    raf, jg = board["raf"], board["jg"]
    page = client.get("/aces/").content.decode()
    assert 'name="squadron_name"' in page and f'<option value="{jg.pk}"' not in page
    searched = client.get("/aces/?squadron_name=No.+19").content.decode()
    assert "No. 19 Squadron" in searched and "JG 51" not in searched.split("<tbody>")[1]
    assert 'value="No. 19"' in searched  # the form keeps what was typed
    # a squadron chosen by id (the API's filter, older links): named, kept, and can be cleared
    chosen = client.get(f"/aces/?squadron={jg.pk}&side=axis").content.decode()
    assert f'<input type="hidden" name="squadron" value="{jg.pk}">squadron JG 51' in chosen
    assert '<a href="?side=axis">any squadron</a>' in chosen
    assert "No. 19 Squadron" not in chosen.split("<tbody>")[1]
    assert raf.pk != jg.pk


def test_page_api_and_csv_agree_for_every_filter(client, board):
    for query in ("", "side=axis", "squadron_name=JG", "status=living&aces=1"):
        page = client.get(f"/aces/?{query}").content.decode()
        on_page = [int(pk) for pk in re.findall(r'<tr data-pilot="(\d+)">', page)]
        api = client.get(f"/api/roster/aces/?{query}&limit=50").json()
        assert [r["id"] for r in api["results"]] == on_page, query
        rows = list(csv.reader(io.StringIO(client.get(f"/aces.csv?{query}").content.decode())))[1:]
        assert len(rows) == api["count"], query
        names = {p.pk: str(p) for p in Pilot.objects.filter(pk__in=on_page)}
        assert [(r[1], int(r[7])) for r in rows[:50]] == [
            (names[r["id"]], r["confirmed_kills"]) for r in api["results"]
        ], query


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("side=pacific", "side must be one of allied, axis"),
        ("status=promoted", "status must be one of living, captured, killed, missing, active"),
        ("campaign=abc", "campaign must be a whole number"),
        ("campaign=999999", "no campaign with id 999999"),
        ("squadron=-1", "squadron must be a whole number"),
        ("aircraft_type=999999", "no aircraft type with id 999999"),
        ("aces=maybe", "aces must be one of 1, true, 0, false"),
    ],
)
def test_a_bad_filter_value_is_named_by_the_page_the_csv_and_the_api(client, board, query, message):
    """Not silently ignored (every pilot, as if no filter) nor silently empty (no pilot
    "has a kill here yet"): the page says which value it does not know, and shows no rows;
    the CSV and the API answer 400 naming the parameter."""
    page = client.get(f"/aces/?{query}&nation=Germany")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<ul class="messages filter-problems" role="alert">' in html
    assert f'<li class="error">{message}' in html
    assert not re.findall(r'<tr data-pilot="(\d+)">', html)
    assert "a filter above is not one this list knows" in html
    field = query.split("=")[0]
    assert f'name="{field}"' in html or field in ("campaign", "squadron", "aces")
    csv_answer = client.get(f"/aces.csv?{query}")
    assert csv_answer.status_code == 400 and message in csv_answer.content.decode()
    api = client.get(f"/api/roster/aces/?{query}")
    assert api.status_code == 400
    assert api.json()["field"] == field and message in api.json()["detail"]


def test_every_problem_of_a_query_is_listed_at_once(client, board):
    html = client.get("/aces/?side=pacific&status=promoted&aircraft_type=x").content.decode()
    listed = re.findall(r'<li class="error">([^<]*)</li>', html)
    assert [m.split(" ")[0] for m in listed] == ["side", "aircraft_type", "status"]
    # and a good query still reads the same rows as before
    assert re.findall(
        r'<tr data-pilot="(\d+)">', client.get("/aces/?status=active").content.decode()
    )


def test_ace_is_one_rule_on_every_read(board):
    counted = {p.pk: p.ace for p in selectors.pilots_with_figures(Pilot.objects.all())}
    kept = {p.pk: (p.ace, p.confirmed_kills) for p in selectors.leaderboard()}
    assert kept and all(ace == is_ace(kills) == counted[pk] for pk, (ace, kills) in kept.items())
    assert {True, False} <= {ace for ace, _ in kept.values()}
    aces = {p.pk for p in selectors.leaderboard(aces_only=True)}
    assert aces == {pk for pk, (ace, _) in kept.items() if ace}


@pytest.mark.parametrize("kind", list(PilotEventKind))
@pytest.mark.parametrize("was", [None, ClaimState.CONFIRMED, ClaimState.CLAIMED])
def test_the_tallies_count_an_entry_as_their_recount_does(cast, kind, was):
    details = {} if was is None else {"was": was}
    event = PilotEvent.objects.create(pilot=cast["Bader"], kind=kind, details=details)
    in_recount = PilotEvent.objects.filter(tallies._counted(), pk=event.pk).exists()
    assert tallies._is_counted(event) == in_recount


def test_home_page_shows_the_first_squadrons_of_each_side_and_links_them_all(client, cast):
    from roster.models import Squadron
    from roster.selectors import HOME_SQUADRONS_PER_SIDE, squadron_list

    home = client.get("/").content.decode()
    assert f'data-squadron="{cast["raf"].pk}"' in home and "all 2 squadrons" not in home
    Squadron.objects.bulk_create(
        [Squadron(name=f"Sqn {side} {i:02d}", nation="France" if side == "allied" else "Italy", side=side)
         for side in ("allied", "axis") for i in range(HOME_SQUADRONS_PER_SIDE + 3)]
    )  # fmt: skip
    home = client.get("/").content.decode()
    shown = {int(pk) for pk in re.findall(r'<tr data-squadron="(\d+)">', home)}
    assert len(shown) == 2 * HOME_SQUADRONS_PER_SIDE
    for side in ("allied", "axis"):  # the first of each side, in the squadron list's order
        first = [s.pk for s in squadron_list().filter(side=side)][:HOME_SQUADRONS_PER_SIDE]
        assert set(first) <= shown
    total = Squadron.objects.count()
    assert f'<a href="/squadrons/">all {total} squadrons</a>' in home

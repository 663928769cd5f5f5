"""The aces' ``campaign`` filter reads "serving in it" (README, the aces filters): the
campaign's own pilots by the app's one definition (``campaign.access.campaign_pilots``),
not every pilot of its squadrons. Two campaigns sharing a squadron: each lists only its
own pilots and kills, on the page, in the CSV and from the API alike."""

from __future__ import annotations

import csv
import io
import re

import pytest

from campaign import services as campaign_services
from campaign.access import campaign_pilots
from campaign.enrolment import campaign_enrol
from careers import selectors, tallies
from careers.models import PilotEvent, PilotEventKind


def _kills(pilot, n):
    PilotEvent.objects.bulk_create(
        [PilotEvent(pilot=pilot, kind=PilotEventKind.KILL, details={}) for _ in range(n)]
    )


@pytest.fixture
def two(cast, organiser):
    """Bader and Mölders serve in the first campaign; a second campaign over the very
    same squadrons enrols the free ones (Tuck, Lacey, Balthasar)."""
    first = cast["campaign"]
    campaign_enrol(
        campaign_id=first.pk, by=organiser, pilots=[cast["Bader"].pk, cast["Mölders"].pk]
    )
    second = campaign_services.campaign_create(
        name="Second 1941", created_by=organiser, seed=5, squadrons=[cast["raf"], cast["jg"]],
        auto_advance=False,
    )  # fmt: skip
    for name, n in (("Bader", 6), ("Mölders", 2), ("Tuck", 3), ("Balthasar", 1)):
        _kills(cast[name], n)
    tallies.pilot_tallies_rebuild([cast[n].pk for n in ("Bader", "Mölders", "Tuck", "Balthasar")])
    return {**cast, "first": first, "second": second}


def _names(two, *names):
    return [str(two[n]) for n in names]


def _read(client, campaign):
    """(page, API, CSV) of /aces filtered by ``campaign``: the pilots' names, in order."""
    page = client.get(f"/aces/?campaign={campaign.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<ul class="messages filter-problems"' not in html
    on_page = [int(pk) for pk in re.findall(r'<tr data-pilot="(\d+)">', html)]
    api = client.get(f"/api/roster/aces/?campaign={campaign.pk}&limit=50")
    assert api.status_code == 200
    answer = client.get(f"/aces.csv?campaign={campaign.pk}")
    assert answer.status_code == 200
    rows = list(csv.reader(io.StringIO(answer.content.decode())))[1:]
    by_id = {p.pk: str(p) for p in selectors.leaderboard()}
    return (
        [by_id[pk] for pk in on_page],
        [by_id[r["id"]] for r in api.json()["results"]],
        [r[1] for r in rows],
    )


def test_each_campaign_lists_only_its_own_pilots_and_kills(client, two):
    first, second = two["first"], two["second"]
    # both campaigns play the same squadrons; the pilots serve in one each
    assert set(first.squadrons.all()) == set(second.squadrons.all())
    own = {c: set(campaign_pilots(c).values_list("pk", flat=True)) for c in (first, second)}
    assert two["Bader"].pk in own[first] and two["Bader"].pk not in own[second]
    assert two["Tuck"].pk in own[second] and two["Tuck"].pk not in own[first]

    page, api, rows = _read(client, first)
    assert page == api == rows == _names(two, "Bader", "Mölders")
    page, api, rows = _read(client, second)
    assert page == api == rows == _names(two, "Tuck", "Balthasar")
    # the page's kill column: the second campaign's page shows neither Bader nor his six
    html = client.get(f"/aces/?campaign={second.pk}").content.decode()
    assert str(two["Bader"]) not in html.split("<tbody>")[1]
    # unfiltered: everyone with a kill, as before
    assert set(_names(two, "Bader", "Mölders", "Tuck", "Balthasar")) == {
        str(p) for p in selectors.leaderboard()
    }


def test_the_filter_is_the_campaign_pilots_definition(two):
    """The selector and campaign_pilots agree for both campaigns, given an id or a row."""
    for campaign in (two["first"], two["second"]):
        ranked = {p.pk for p in selectors.leaderboard()}
        expected = ranked & set(campaign_pilots(campaign).values_list("pk", flat=True))
        assert {p.pk for p in selectors.leaderboard(campaign=campaign)} == expected
        assert {p.pk for p in selectors.leaderboard(campaign=campaign.pk)} == expected

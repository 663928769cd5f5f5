"""Every plane card put into play gets a pilot of its side's roster (SPEC "Strategic
campaign"): a plane that came into play when no pilot was free gets one at the first
sync after one is (replacements drafted, pilots enlisted), oldest planes first, as a
new plane does; undoing the action whose sync made the assignment takes it back."""

from __future__ import annotations

import random

import pytest

from campaign import services
from campaign.enrolment import campaign_enrol
from campaign.models import CampaignPlane
from careers.models import PilotEvent
from demo.roster import demo_roster_create
from roster.models import Pilot, Squadron
from rules.cardgame import GameState
from rules.cardgame.actions import Advance
from tests.campaign.test_undo_turn_start import _act, _figures

NOTE = "assigned to a plane in play"


@pytest.fixture
def crewless(catalog, users):
    """A second campaign over the squadrons of a first, whose pilots all serve in the
    first: its planes come into play with no pilot."""
    demo_roster_create()
    squadrons = list(Squadron.objects.all())
    services.campaign_create(
        name="Channel 1941", created_by=users["organiser"], seed=7, squadrons=squadrons
    )
    return services.campaign_create(
        name="Malta 1942", created_by=users["organiser"], seed=9, squadrons=squadrons,
        auto_advance=False,
    )  # fmt: skip


def _notes(campaign):
    return PilotEvent.objects.filter(campaign=campaign, kind="note", details__text=NOTE)


def _manning(campaign):
    """plane id -> pilot id (None: no pilot) of the planes in play."""
    return dict(campaign.planes.filter(left_turn__isnull=True).values_list("plane_id", "pilot_id"))


def _a_pass(campaign):
    campaign.refresh_from_db()
    state = GameState.from_json(campaign.state)
    actions = state.legal_actions()
    return next((a for a in actions if isinstance(a, Advance)), actions[0])


def _waiting(campaign):
    """The planes in play with no pilot."""
    return campaign.planes.filter(left_turn__isnull=True, pilot__isnull=True)


def _play(campaign, users, until, *, limit=400):
    """Play (passing more often than not) until ``until(campaign)`` holds."""
    rng = random.Random(5)
    for _ in range(limit):
        campaign.refresh_from_db()
        if until(campaign):
            return
        actions = GameState.from_json(campaign.state).legal_actions()
        passes = [a for a in actions if isinstance(a, Advance)]
        _act(campaign, users, passes[0] if passes and rng.random() < 0.5 else rng.choice(actions))
    raise AssertionError("never came to pass")


def _enlist(squadron, n):
    return [
        Pilot.objects.create(
            name=f"Newcomer {squadron.pk}-{i}", nation=squadron.nation, squadron=squadron
        )  # fmt: skip
        for i in range(n)
    ]


def test_pilotless_planes_get_free_pilots_at_the_next_sync_and_undo_takes_them_back(
    crewless, users, client
):
    campaign = crewless
    _play(campaign, users, lambda c: _waiting(c).count() >= 2)
    assert campaign.turn == 1
    before = _manning(campaign)
    assert all(p is None for p in before.values()), "no free pilot at the start"
    assert not _notes(campaign).exists()
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "no pilot" in page

    # free pilots enlist, one fewer than a side's waiting planes: the oldest planes first
    counts = {s: n for s in ("allied", "axis") if (n := sum(p.startswith(s) for p in before))}
    sides = {s: Squadron.objects.filter(side=s).order_by("name").first() for s in counts}
    newcomers = {s: _enlist(sq, max(1, counts[s] - 1)) for s, sq in sides.items()}
    total = sum(len(p) for p in newcomers.values())
    # issue 24: only the pilots the organiser enlists fly the campaign's planes
    campaign_enrol(
        campaign_id=campaign.pk, by=users["organiser"],
        pilots=[p.pk for pilots in newcomers.values() for p in pilots],
    )  # fmt: skip
    figures_before = _figures(client, campaign, sides.values())
    action = _a_pass(campaign)
    _act(campaign, users, action)
    campaign.refresh_from_db()
    after = _manning(campaign)
    records = {r.plane_id: r for r in CampaignPlane.objects.filter(campaign=campaign)}
    for side, pilots in newcomers.items():
        manned = {pid: pilot for pid, pilot in after.items() if pilot and records[pid].side == side}
        assert set(manned.values()) == {p.pk for p in pilots}, side
        # the oldest planes of the side (entered first) got them
        waiting = sorted((r for r in records.values() if r.side == side and before.get(r.plane_id, 0) is None),
                         key=lambda r: (r.entered_turn, r.pk))  # fmt: skip
        assert set(manned) == {r.plane_id for r in waiting[: len(pilots)]}, side
        for pilot in pilots:
            pilot.refresh_from_db()
            assert pilot.enrolled_in_id == campaign.pk  # he serves in it now
    notes = _notes(campaign)
    assert notes.count() == total
    assert {(n.pilot_id, n.details["plane"]) for n in notes} == {
        (pilot, pid) for pid, pilot in after.items() if pilot
    }
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    for pilots in newcomers.values():
        for pilot in pilots:
            assert f">{pilot.name}</a>" in page  # the campaign page names the plane's pilot
            career = client.get(f"/pilots/{pilot.pk}/").content.decode()
            assert "Assigned to a plane in play" in career and "Also recorded" not in career

    # undo: the planes are without pilots again, the notes go; the pilots still serve in
    # the campaign (the organiser enrolled them, not the undone action)
    services.campaign_undo_last(campaign_id=campaign.pk, by=users["organiser"])
    campaign.refresh_from_db()
    assert _manning(campaign) == before
    assert not _notes(campaign).exists()
    for pilots in newcomers.values():
        for pilot in pilots:
            pilot.refresh_from_db()
            assert pilot.enrolled_in_id == campaign.pk
            assert "Assigned to a plane" not in client.get(f"/pilots/{pilot.pk}/").content.decode()
    assert _figures(client, campaign, sides.values()) == figures_before

    # played again: the same assignments, once each (idempotent)
    _act(campaign, users, action)
    campaign.refresh_from_db()
    assert _manning(campaign) == after
    assert _notes(campaign).count() == total
    _act(campaign, users, _a_pass(campaign))  # a further sync changes nothing
    campaign.refresh_from_db()
    assert {pid: p for pid, p in _manning(campaign).items() if pid in after} == after
    assert _notes(campaign).count() == total
    _figures(client, campaign, sides.values())  # the tallies still equal a recount


def test_replacements_drafted_man_the_waiting_planes_and_both_undos_take_it_back(
    crewless, users, client
):
    """The tester's game: the first planes come with no pilot; the next turn's
    replacements man them at the next action (before, they went to newer planes and
    the first stayed without one all game). Undone, then the turn's start undone too:
    the replacements leave the roster, nothing refused."""
    campaign = crewless
    _play(campaign, users, lambda c: c.turn > 1)  # the action that began turn 2 drafted
    waiting = {r.plane_id for r in _waiting(campaign)}
    assert waiting, "planes came into play on turn 1 with no pilot"
    drafted = Pilot.objects.filter(
        squadron__in=campaign.squadrons.all(), events__kind="joined", events__campaign=campaign
    )
    assert drafted.exists(), "replacements were drafted"
    began = campaign.actions.filter(undone=False).order_by("-sequence").first()
    action = _a_pass(campaign)
    _act(campaign, users, action)
    campaign.refresh_from_db()
    manned = {pid: p for pid, p in _manning(campaign).items() if pid in waiting and p}
    assert manned, "the waiting planes got the replacements"
    assert set(manned.values()) <= set(drafted.values_list("pk", flat=True))
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    for pilot in Pilot.objects.filter(pk__in=manned.values()):
        assert f">{pilot.name}</a>" in page
    services.campaign_undo_last(campaign_id=campaign.pk, by=users["organiser"])
    assert {r.plane_id for r in _waiting(campaign)} >= waiting
    assert not _notes(campaign).filter(pilot_id__in=manned.values()).exists()
    last = campaign.actions.filter(undone=False).order_by("-sequence").first()
    assert last == began
    services.campaign_undo_last(campaign_id=campaign.pk, by=users["organiser"])
    assert not Pilot.objects.filter(pk__in=manned.values()).exists()  # off the roster
    _figures(client, campaign)  # the tallies equal a recount

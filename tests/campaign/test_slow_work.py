"""Feedback for slow work (issue 15): without a broker, battles are flown by background
threads of the web process (angels.background), so the request that starts them answers
at once; the campaign page and the batch page show the progress, read from the rows, and
a small JSON endpoint tells the pages when the work is done.

These tests run the real background path (settings.ANGELS_BACKGROUND_WORK = "thread"):
the work is held on an event until the test has seen the answer and the progress. One
background thread; transaction=True, as the thread reads committed rows through its own
connection (on SQLite the test database is a file, as a server's is: angels/settings/test.py)."""

from __future__ import annotations

import threading

import pytest
from django.utils import timezone

from angels import background
from battles import services as battle_services
from battles.models import Battle, BattleBatch, BattleStatus, ScenarioKind
from battles.scenarios import build_scenario

pytestmark = pytest.mark.django_db(transaction=True)
POLICIES = {"axis": "tactical", "allied": "tactical"}
WAIT = 30  # seconds at most for the background work (a loaded CI machine)


@pytest.fixture
def in_threads(settings):
    """The embedded default's background threads (one), shut down after the test."""
    settings.ANGELS_BACKGROUND_WORK = "thread"
    settings.ANGELS_BACKGROUND_THREADS = 1
    background.shutdown()
    yield
    assert background.wait_idle(WAIT)
    background.shutdown()


class Gate:
    """Holds each background battle before it is claimed until ``open()``."""

    def __init__(self, monkeypatch):
        self.opened = threading.Event()
        real = battle_services.battle_run

        def held(*, battle_id: int) -> bool:
            assert self.opened.wait(WAIT), "the test never let the battle fly"
            return real(battle_id=battle_id)

        monkeypatch.setattr(battle_services, "battle_run", held)

    def open(self) -> None:
        self.opened.set()
        assert background.wait_idle(WAIT), "the background work did not end"


def _campaign_battle(campaign, *, mission="m1", **fields) -> Battle:
    setup = build_scenario(kind="dogfight", flights={}, settings={}, seed=1).to_json()
    return Battle.objects.create(
        scenario=ScenarioKind.ENGAGEMENT, setup=setup, seed=11,
        source_key=f"campaign:{campaign.pk}:turn1:{mission}",
        settings={"policies": POLICIES, "max_turns": 8, **fields.pop("settings", {})}, **fields,
    )  # fmt: skip


def test_an_odds_preview_answers_at_once_and_the_pages_show_its_progress(
    campaign, users, client, settings, monkeypatch, in_threads
):
    settings.BATTLE_ODDS_RUNS = 2
    battle = _campaign_battle(
        campaign, settings={"campaign": campaign.pk}, status=BattleStatus.FINISHED,
        applied_at=timezone.now(), result={"winner": None},
    )  # fmt: skip
    gate = Gate(monkeypatch)
    client.force_login(users["organiser"])

    answer = client.post(f"/api/battles/{battle.pk}/odds/")

    # the answer came while the battles were held: none flown yet
    assert answer.status_code == 202, answer.content
    assert answer.json()["finished"] == 0 and answer.json()["summary"] is None
    batch = BattleBatch.objects.get(pk=answer.json()["id"])
    assert set(batch.battles.values_list("status", flat=True)) == {"pending"}
    work = client.get(f"/api/campaigns/{campaign.pk}/work/").json()
    assert work["busy"] is True
    [item] = work["items"]
    assert item["text"] == f"odds preview of Battle {battle.pk}: battles 0 of 2"
    assert (item["done"], item["total"], item["url"]) == (0, 2, f"/battles/batches/{batch.pk}/")
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f"odds preview of Battle {battle.pk}: battles 0 of 2" in page
    assert "updates itself when it is done" in page
    batch_page = client.get(f"/battles/batches/{batch.pk}/").content.decode()
    assert "battles 0 of 2" in batch_page and "updates itself" in batch_page

    gate.open()

    assert client.get(f"/api/campaigns/{campaign.pk}/work/").json() == {"busy": False, "items": []}
    batch.refresh_from_db()
    assert batch.done == 2 and batch.summary["battles"] == 2
    batch_page = client.get(f"/battles/batches/{batch.pk}/").content.decode()
    assert "updates itself" not in batch_page and "Axis" in batch_page  # the summary's table
    assert 'id="work"' in client.get(f"/campaigns/{campaign.pk}/").content.decode()


def test_an_engine_battle_shows_its_game_turn_while_flown(
    campaign, client, monkeypatch, in_threads
):
    gate, flying, landed = Gate(monkeypatch), threading.Event(), threading.Event()
    real_fly = battle_services.fly

    def fly(setup, seed, policies, heartbeat=None, progress=None):
        progress(3)  # as the engine reports the third game turn
        flying.set()
        assert landed.wait(WAIT)
        return real_fly(setup, seed, policies, heartbeat, progress)

    monkeypatch.setattr(battle_services, "fly", fly)
    setup = build_scenario(kind="dogfight", flights={}, settings={}, seed=1).to_json()
    battle = battle_services.battle_create_from_setup(
        setup=setup, seed=11, source_key=f"campaign:{campaign.pk}:turn1:m1",
        settings={"policies": POLICIES, "max_turns": 8},
    )  # fmt: skip
    work = f"/api/campaigns/{campaign.pk}/work/"
    assert (
        client.get(work).json()["items"][0]["text"] == "engine battle for m1: waiting to be flown"
    )

    gate.opened.set()
    assert flying.wait(WAIT)
    [item] = client.get(work).json()["items"]
    assert item["text"] == "engine battle for m1: game turn 3 of at most 8"
    assert (item["done"], item["total"], item["url"]) == (3, 8, f"/battles/{battle.pk}/")
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "engine battle for m1: game turn 3 of at most 8" in page
    assert '<progress max="8" value="3">' in page

    landed.set()
    assert background.wait_idle(WAIT)
    assert client.get(work).json() == {"busy": False, "items": []}
    battle.refresh_from_db()
    assert battle.status == "finished" and battle.applied_at is not None
    assert battle.progress_turn >= 1  # the engine itself reported the turns it flew
    assert "engine battle for m1" not in client.get(f"/campaigns/{campaign.pk}/").content.decode()

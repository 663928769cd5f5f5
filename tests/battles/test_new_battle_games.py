"""The new-battle page and POST /api/battles/create/ offer every registered game with its
scenarios (issue 25): with Angels 20 alone the page looks as before; a game that offers
scenarios of its own is listed with them, created, flown by the computer and stored
under its name; what it does not take is refused by field."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle
from rules.tactical import DEFAULT_SYSTEM, register, registered, tactical_systems, unregister
from tests.rules.duel_system import DUEL_SCENARIO, DuelSystem

pytestmark = pytest.mark.django_db


class ScenarioDuel(DuelSystem):
    """The tests' duel, offering scenarios of its own to the new-battle page."""

    scenarios = {"dawn": "Dawn at the airfield", "long": "A long duel"}

    def scenario(self, key: str, seed: int) -> dict[str, Any]:
        return {**DUEL_SCENARIO, "turns": 12 if key == "long" else DUEL_SCENARIO["turns"]}


@pytest.fixture
def api(client, catalog):
    user = get_user_model().objects.create_user("flyer", password="pw-123456")
    client.force_login(user)
    return client


@pytest.fixture
def duel():
    with registered(ScenarioDuel()) as system:
        yield system


@pytest.fixture
def angels20_alone():
    """Only Angels 20 registered (Air Pirates and any other game taken out, then back)."""
    others = [s for name, s in tactical_systems().items() if name != DEFAULT_SYSTEM]
    for system in others:
        unregister(system.name)
    yield
    for system in others:
        register(system)


def test_with_angels20_alone_the_page_offers_its_scenarios_as_before(api, angels20_alone):
    page = api.get("/battles/new/").content.decode()
    assert '<option value="angels20" selected>Angels 20</option>' in page
    assert "<optgroup" not in page  # one game: its scenarios listed plainly
    assert '<option value="standard" selected>Standard Scenario</option>' in page


def test_the_page_lists_every_game_with_its_scenarios_and_flies_the_duel(
    api, duel, django_capture_on_commit_callbacks
):
    page = api.get("/battles/new/").content.decode()
    assert '<option value="duel">Duel at Dawn</option>' in page
    assert '<optgroup label="Duel at Dawn" data-system="duel">' in page
    assert '<option value="dawn">Dawn at the airfield</option>' in page
    assert '<optgroup label="Angels 20" data-system="angels20">' in page
    post = {
        "system": "duel",
        "scenario": "long",
        "axis_policy": "gunner",
        "allied_policy": "gunner",
    }
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post("/battles/new/", post)
    assert answer.status_code == 302
    battle = Battle.objects.get()
    assert answer["Location"] == f"/battles/{battle.pk}/"
    assert battle.system == "duel" and battle.scenario == "long" and battle.setup["turns"] == 12
    assert battle.status == "finished" and battle.result["kind"] == "duel"
    report = api.get(f"/battles/{battle.pk}/").content.decode()
    assert "Duel at Dawn" in report


def test_the_page_refuses_a_duel_with_an_angels20_pilot_beside_the_field(api, duel):
    post = {
        "system": "duel",
        "scenario": "dawn",
        "axis_policy": "tactical",
        "allied_policy": "gunner",
    }
    answer = api.post("/battles/new/", post)
    assert answer.status_code == 400
    assert "Duel at Dawn&#x27;s computer pilots are: gunner" in answer.content.decode()
    assert not Battle.objects.exists()


def test_the_api_creates_a_duel_and_refuses_what_it_does_not_take(
    api, duel, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(
            "/api/battles/create/", {"system": "duel", "scenario": "dawn", "seed": 5},
            content_type="application/json",
        )  # fmt: skip
    assert made.status_code == 202, made.content
    assert made.json()["system"] == "duel" and made.json()["scenario"] == "dawn"
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.settings == {"policies": {"axis": "gunner", "allied": "gunner"}}
    assert battle.status == "finished"
    refusals = {
        "scenario": {"system": "duel", "scenario": "dogfight"},
        "flights": {"system": "duel", "scenario": "dawn", "flights": {"axis": [{"aircraft_type": 1}]}},
        "settings.year": {"system": "duel", "scenario": "dawn", "settings": {"year": 1940}},
        "settings.policies.axis": {"system": "duel", "scenario": "dawn", "settings": {"policies": {"axis": "tactical"}}},
        "system": {"system": "chess", "scenario": "dawn"},
    }  # fmt: skip
    for field, body in refusals.items():
        answer = api.post("/api/battles/create/", body, content_type="application/json")
        assert answer.status_code == 400, (field, answer.content)
        assert answer.json()["errors"][0]["field"] == field, answer.json()
    words = api.post(
        "/api/battles/create/", refusals["scenario"], content_type="application/json"
    ).json()["detail"]
    assert "Dawn at the airfield (dawn)" in words and "A long duel (long)" in words
    assert Battle.objects.count() == 1


def test_a_game_without_scenarios_of_its_own_is_not_offered(api):
    with registered(DuelSystem()):
        page = api.get("/battles/new/").content.decode()
        assert "Duel at Dawn" not in page
        answer = api.post(
            "/api/battles/create/", {"system": "duel", "scenario": "dawn"}, content_type="application/json"
        )  # fmt: skip
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "system"


class _Forms(HTMLParser):
    """The page's forms in tree order, each with its attributes, the names of its fields
    (what it sends) and its submit buttons in tree order (the first is the form's default
    button, which Enter in a text field presses: HTML "Implicit submission")."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._open: dict[str, Any] | None = None

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "form":
            self._form = {**found, "fields": [], "buttons": []}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "button" and found.get("type", "submit") == "submit":
            self._open = {**found, "text": ""}
            self._form["buttons"].append(self._open)
        elif tag in ("input", "select", "textarea") and found.get("name"):
            self._form["fields"].append(found["name"])

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data

    def handle_endtag(self, tag):
        if tag == "button":
            self._open = None
        elif tag == "form":
            self._form = None


def test_enter_in_the_form_creates_the_battle_and_choose_only_shows_a_games_page(api, duel):
    page = api.get("/battles/new/").content.decode()
    parser = _Forms()
    parser.feed(page)
    battle = next(f for f in parser.forms if "new-battle" in f.get("class", "").split())
    choose = next(f for f in parser.forms if f.get("id") == "choose-game")
    # the battle form's default button posts it, as "Create the battle" (its only one)
    assert [b["text"] for b in battle["buttons"]] == ["Create the battle"]
    assert {"formmethod", "name"}.isdisjoint(battle["buttons"][0])
    assert battle["method"] == "post" and {"csrfmiddlewaretoken", "system"} <= set(battle["fields"])
    # "Choose" is a GET of its own form, which sends the game alone: no CSRF token in an address
    assert choose["method"] == "get" and choose["fields"] == ["system"]
    assert [(b.get("name"), b["text"]) for b in choose["buttons"]] == [("choose", "Choose")]
    # "Choose" shows the chosen game's own page and creates nothing
    chosen = api.get("/battles/new/", {"system": "duel", "choose": "1"})
    assert chosen.status_code == 200 and "Fly a battle of Duel at Dawn" in chosen.content.decode()
    assert not Battle.objects.exists()

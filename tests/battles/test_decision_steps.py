"""Decisions built step by step (issue 25), proved with a game of the tests' own
(tests/rules/stepped_duel.py: each gunner's sealed plot is an aim, a height and, after a
bold aim, once a duel, a long burst: "2H", "3LB").

The turn offers the first step; each partial decision gets its legal next steps, a step
not legal where it stands is a 400 naming it; a decision built in steps, or typed, plays
exactly the action a whole one would; the play page builds it by clicking. Angels 20's
answers stay as recorded (tests/battles/test_angels_play_unchanged.py)."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from battles.models import Battle
from rules import tactical
from rules.tactical import registered
from tests.battles.seating import logged_in, seated_battle, seated_people, turn_of
from tests.rules.stepped_duel import STEPPED_DUEL, STEPPED_SCENARIO, SteppedDuel

pytestmark = pytest.mark.django_db
AIMS = [
    {"step": "1", "label": "aim 1 (cautious)"},
    {"step": "2", "label": "aim 2 (steady)"},
    {"step": "3", "label": "aim 3 (bold)"},
]


@pytest.fixture
def people(django_user_model):
    with registered(STEPPED_DUEL):
        yield seated_people(django_user_model)


def _create(people, seed: int = 5, key: str = "test:stepped:1") -> Battle:
    return seated_battle(people, setup=STEPPED_SCENARIO, system="stepped_duel", seed=seed, key=key)


def _post(client: APIClient, pk: int, **body):
    return client.post(f"/api/battles/{pk}/turn/", body, format="json")


def test_the_turn_offers_the_first_step_not_a_list_of_whole_plots(people):
    battle = _create(people)
    turn = turn_of(logged_in(people["axis"]), battle.pk)
    assert turn["legal_actions"] == [] and turn["choices"] == []
    assert turn["steps"] == {
        "side": "axis", "steps": [], "chosen": [], "text": "", "complete": False,
        "prompt": "the aim", "next": AIMS, "action": None, "problem": None,
    }  # fmt: skip
    # nobody else is offered axis's steps; a spectator's turn has no steps at all
    assert turn_of(logged_in(people["allied"]), battle.pk)["steps"]["side"] == "allied"
    assert "steps" not in turn_of(logged_in(people["outsider"]), battle.pk)


def test_each_partial_decision_gets_its_legal_next_steps(people):
    battle = _create(people)
    axis = logged_in(people["axis"])
    after_aim = turn_of(axis, battle.pk, "?steps=3")["steps"]
    assert after_aim["chosen"] == [{"step": "3", "label": "aim 3 (bold)"}]
    assert after_aim["prompt"] == "the height flown" and after_aim["complete"] is False
    assert [n["step"] for n in after_aim["next"]] == ["H", "L"]
    whole = turn_of(axis, battle.pk, "?steps=3,H")["steps"]
    assert whole["complete"] is True and whole["text"] == "3H"
    assert whole["next"] == [{"step": "B", "label": "a long burst (once a duel)"}]
    assert whole["action"] == {
        "type": "plot",
        "side": "axis",
        "aim": 3,
        "height": "H",
        "burst": False,
    }
    typed = turn_of(axis, battle.pk, "?text=3h%20b")["steps"]
    assert typed["steps"] == ["3", "H", "B"] and typed["text"] == "3HB" and typed["next"] == []
    assert typed["action"]["burst"] is True
    steady = turn_of(axis, battle.pk, "?steps=2,L")["steps"]
    assert steady["complete"] is True and steady["next"] == []  # no burst after a steady aim


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("?steps=3,X", "steps[1]", "step 2 'X' is not legal after '3': H, L"),
        ("?steps=2,H,B", "steps[2]", "step 3 'B' is not legal after '2H'"),
        ("?steps=4", "steps[0]", "step 1 '4' is not legal: 1, 2, 3"),
        ("?text=2HB", "text", "character 3 'B' of '2HB' fits no step here"),
        ("?steps=3,,H", "steps", "steps are up to 40 steps"),
        ("?steps=3&text=3H", "text", "give steps or text, not both"),
        ("?steps=3&side=allied", "side", "side is one of the sides whose decision you make now"),
    ],
)
def test_an_illegal_partial_is_refused_naming_the_step(people, query, field, words):
    battle = _create(people)
    response = logged_in(people["axis"]).get(f"/api/battles/{battle.pk}/turn/{query}")
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field and words in response.json()["detail"]


def test_only_the_seat_deciding_builds_steps(people):
    battle = _create(people)
    refused = logged_in(people["outsider"]).get(f"/api/battles/{battle.pk}/turn/?steps=3")
    assert refused.status_code == 400 and refused.json()["field"] == "steps"
    assert refused.json()["code"] == "state"
    axis = logged_in(people["axis"])
    version = turn_of(axis, battle.pk)["version"]
    assert _post(axis, battle.pk, version=version, steps=["1", "L"]).status_code == 200
    again = axis.get(f"/api/battles/{battle.pk}/turn/?text=2H")  # axis has plotted: sealed
    assert again.status_code == 400 and again.json()["field"] == "text"
    assert "steps" not in turn_of(axis, battle.pk)


def _fly(people, key: str, plays) -> Battle:
    """A battle flown turn by turn: ``plays(version)`` -> the axis and allied bodies."""
    battle = _create(people, seed=11, key=key)
    axis, allied = logged_in(people["axis"]), logged_in(people["allied"])
    for turn_number in range(3):
        turn = turn_of(axis, battle.pk)
        if turn["status"] == "finished":
            break
        mine, theirs = plays(turn_number)
        for client, body in ((axis, mine), (allied, theirs)):
            answer = _post(client, battle.pk, version=turn["version"], **body)
            assert answer.status_code == 200, answer.content
    return Battle.objects.get(pk=battle.pk)


def test_a_decision_built_in_steps_or_typed_plays_exactly_the_whole_action(people):
    plots = [("3LB", "2h"), ("1H", "3L"), ("2L", "3HB")]

    def stepped(n):
        axis, allied = plots[n]
        return {"steps": list(axis)}, {"notation": allied}

    def whole(n):
        bodies = []
        for side, text in zip(("axis", "allied"), plots[n], strict=True):
            text = text.upper()
            action = {"type": "plot", "side": side, "aim": int(text[0]), "height": text[1]}
            bodies.append({"action": {**action, "burst": text.endswith("B")}})
        return bodies

    built, listed = _fly(people, "test:stepped:a", stepped), _fly(people, "test:stepped:b", whole)
    assert built.actions == listed.actions and built.log == listed.log
    assert built.version == listed.version and built.result == listed.result
    assert built.actions[0] == {
        "type": "plot",
        "side": "axis",
        "aim": 3,
        "height": "L",
        "burst": True,
    }
    assert built.actions[1] == {
        "type": "plot",
        "side": "allied",
        "aim": 2,
        "height": "H",
        "burst": False,
    }
    replayed = STEPPED_DUEL.replay(STEPPED_SCENARIO, 11, built.actions)
    assert replayed.log == built.log


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"steps": ["3"]}, "steps", "a plot is an aim (1, 2 or 3) then a height (H or L)"),
        ({"steps": ["3", "X"]}, "steps[1]", "step 2 'X' is not legal after '3'"),
        ({"steps": []}, "steps", "a plot is an aim"),
        ({"notation": "9Z"}, "notation", "character 1 '9' of '9Z' fits no step here"),
        ({"notation": "2H", "steps": ["2", "H"]}, "notation", "give one of action"),
        ({"notation": "2H", "action": {"type": "plot"}}, "notation", "give one of action"),
        ({"notation": "2H", "side": "allied"}, "side", "side is one of the sides"),
    ],
)
def test_a_built_decision_refused_names_the_field_and_stores_nothing(people, body, field, words):
    battle = _create(people)
    axis = logged_in(people["axis"])
    refused = _post(axis, battle.pk, version=turn_of(axis, battle.pk)["version"], **body)
    assert refused.status_code == 400, refused.content
    assert refused.json()["field"] == field and words in refused.json()["detail"]
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.actions == [] and stored.version == battle.version


def test_a_stale_version_is_refused_under_the_name_of_what_was_posted(people):
    battle = _create(people)
    axis = logged_in(people["axis"])
    refused = _post(axis, battle.pk, version=battle.version + 5, notation="2H")
    assert refused.status_code == 400 and refused.json()["code"] == "conflict"
    assert refused.json()["field"] == "version"
    anonymous = APIClient().post(
        f"/api/battles/{battle.pk}/turn/", {"version": 1, "steps": ["2", "H"]}, format="json"
    )
    assert anonymous.status_code in (401, 403)
    stranger = _post(
        logged_in(people["outsider"]), battle.pk, version=battle.version, steps=["2", "H"]
    )
    assert stranger.status_code == 403


def test_a_spent_burst_is_no_longer_offered(people):
    """The steps follow the state: after a long burst, a bold aim is whole with its height."""
    battle = next(
        b
        for seed in range(60)
        if not (b := _after(seed, "3LB", "1H")).is_over()  # a first turn with no hit
    )
    assert tactical.steps_check(battle, 0, ("3", "H"))[0].next == ()
    assert tactical.steps_check(battle, 1, ("3", "H"))[0].next == ("B",)
    with pytest.raises(STEPPED_DUEL.refusal, match="once a duel"):
        tactical.action_from_steps(battle, 0, ("3", "H", "B"))


def _after(seed: int, axis: str, allied: str) -> SteppedDuel:
    battle = STEPPED_DUEL.new_battle(STEPPED_SCENARIO, seed)
    for side, text in enumerate((axis, allied)):
        steps = tactical.steps_from_text(battle, side, text)
        battle.apply(tactical.action_from_steps(battle, side, steps))
    return battle


def test_the_play_page_builds_a_decision_by_clicking_and_plays_it(people):
    battle = _create(people)
    axis = logged_in(people["axis"])
    page = axis.get(f"/battles/{battle.pk}/play/").content.decode()
    assert "Build your decision (axis)" in page and "Nothing chosen yet." in page
    assert re.findall(r'name="steps" value="([^"]*)"', page) == ["1", "2", "3"]
    assert "Next: the aim" in page and 'name="action"' not in page
    page = axis.get(f"/battles/{battle.pk}/play/?steps=3,H").content.decode()
    assert 'Chosen: <strong class="steps-text">3H</strong>' in page
    assert '3: aim 3 (bold)</span> · <span class="step-chosen">H: fly high' in page
    assert "Whole as it is; you may still add: a long burst, or nothing more" in page
    assert ">Play 3H</button>" in page and 'value="3,H,B"' in page and ">Back one step<" in page
    board = axis.get(f"/battles/{battle.pk}/play/?part=board&steps=3,H").content.decode()
    assert ">Play 3H</button>" in board
    bad = axis.get(f"/battles/{battle.pk}/play/?steps=3,X").content.decode()
    assert "steps[1]: step 2 &#x27;X&#x27; is not legal after &#x27;3&#x27;: H, L" in bad
    assert "Nothing chosen yet." in bad
    played = axis.post(f"/battles/{battle.pk}/play/", {"version": battle.version, "steps": "3,H"})
    assert played.status_code == 302
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.actions == [
        {"type": "plot", "side": "axis", "aim": 3, "height": "H", "burst": False}
    ]
    typed = logged_in(people["allied"]).post(
        f"/battles/{battle.pk}/play/", {"version": battle.version, "notation": "2 l"}
    )
    assert typed.status_code == 302
    assert Battle.objects.get(pk=battle.pk).actions[1]["height"] == "L"


def test_the_play_page_refuses_unreadable_notation_naming_it(people):
    battle = _create(people)
    refused = logged_in(people["axis"]).post(
        f"/battles/{battle.pk}/play/", {"version": battle.version, "notation": "7Q"}
    )
    assert refused.status_code == 400
    assert (
        "notation: character 1 &#x27;7&#x27; of &#x27;7Q&#x27; fits no step here"
        in refused.content.decode()
    )
    assert Battle.objects.get(pk=battle.pk).actions == []


def test_the_schema_documents_the_steps(client):
    schema = client.get("/api/schema/?format=json").json()
    turn = schema["paths"]["/api/battles/{id}/turn/"]
    assert {"steps", "text", "side"} <= {p["name"] for p in turn["get"]["parameters"]}
    posted = turn["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][posted.rsplit("/", 1)[1]]["properties"]
    assert {"steps", "notation", "side", "action", "computer"} <= set(body)
    answer = schema["components"]["schemas"]["PlayTurnOutput"]
    assert "steps" in answer["properties"] and "steps" not in answer.get("required", [])
    steps = schema["components"]["schemas"]["StepsOutput"]["properties"]
    assert {"chosen", "next", "complete", "text", "prompt", "action", "problem"} <= set(steps)
    assert {"200", "400", "404"} <= set(turn["get"]["responses"])  # anyone may read the turn
    assert {"200", "400", "403", "404"} <= set(turn["post"]["responses"])

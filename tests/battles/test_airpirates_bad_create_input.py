"""Bad input to POST /api/battles/create/ for Air Pirates (issues 25, 26): every answer is a
400 naming the field, never a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db
CREATE = "/api/battles/create/"
POL = {"policies": {"axis": "random", "allied": "random"}}
FLIGHT = {"axis": [{"aircraft": "Bf 109E Wingman", "quality": "ace"}],
          "allied": [{"aircraft": "P-51 Mustang", "quality": "ace"}]}  # fmt: skip

BAD = [
    ({"scenario": "nonesuch"}, "scenario"),
    ({"scenario": 7}, "scenario"),
    ({"scenario": ["basic"]}, "scenario"),
    ({"scenario": "basic", "settings": dict(POL, rules="x")}, "settings"),
    ({"scenario": "basic", "settings": dict(POL, rules={"nonesuch": True})}, "settings"),
    ({"scenario": "basic", "settings": dict(POL, rules={"max_turns": "x"})}, "settings"),
    ({"scenario": "basic", "settings": dict(POL, max_turns="x")}, "settings"),
    ({"scenario": "basic", "settings": dict(POL, max_turns=-1)}, "settings"),
    ({"scenario": "basic", "settings": dict(POL, humans="x")}, "settings"),
    ({"scenario": "basic", "settings": dict(POL, seats={"axis": 5})}, "settings"),
    ({"scenario": "basic", "seed": "x"}, "seed"),
    ({"scenario": "basic", "settings": "x"}, "settings"),
    ({"scenario": "basic", "settings": {"policies": {"axis": "nonesuch"}}}, "settings"),
    ({"scenario": "basic", "settings": {"policies": "x"}}, "settings"),
    ({"scenario": "basic", "settings": {"seats": "x"}}, "settings"),
    ({"scenario": "basic", "settings": {"seats": {"axis": 5, "allied": 6}}}, "settings"),
    (
        {
            "scenario": "basic",
            "settings": {"seats": {"axis": {"pilot": "nope"}, "allied": {"pilot": "random"}}},
        },
        "settings",
    ),
    (
        {
            "scenario": "basic",
            "settings": {"seats": {"axis": {"user": "nobody-here"}, "allied": {"pilot": "random"}}},
        },
        "settings",
    ),
    (
        {
            "scenario": "basic",
            "settings": {
                "seats": {"axis": {"pilot": "random"}, "allied": {"pilot": "random"}},
                "deadline": "soon",
            },
        },
        "settings",
    ),
    ({"scenario": "built", "flights": "x"}, "flights"),
    ({"scenario": "built", "flights": []}, "flights"),
    ({"scenario": "built", "flights": {"axis": "x", "allied": []}}, "flights"),
    ({"scenario": "built", "flights": {"axis": [], "allied": []}}, "flights"),
    (
        {
            "scenario": "built",
            "flights": {
                "axis": [{"aircraft": "Nope", "quality": "ace"}],
                "allied": FLIGHT["allied"],
            },
        },
        "flights",
    ),
    (
        {
            "scenario": "built",
            "flights": {"axis": [{"aircraft": 5, "quality": "ace"}], "allied": FLIGHT["allied"]},
        },
        "flights",
    ),
    (
        {
            "scenario": "built",
            "flights": {
                "axis": [{"aircraft": "Bf 109E Wingman", "quality": "god"}],
                "allied": FLIGHT["allied"],
            },
        },
        "flights",
    ),
    ({"scenario": "built", "flights": {"axis": ["x"], "allied": FLIGHT["allied"]}}, "flights"),
    ({"scenario": "built", "flights": {"axis": [None], "allied": FLIGHT["allied"]}}, "flights"),
    (
        {"scenario": "built", "flights": {"nobody": FLIGHT["axis"], "allied": FLIGHT["allied"]}},
        "flights",
    ),
    (
        {
            "scenario": "built",
            "flights": FLIGHT,
            "settings": dict(POL, scenario_settings={"budget": "lots"}),
        },
        "settings",
    ),
    (
        {
            "scenario": "built",
            "flights": FLIGHT,
            "settings": dict(POL, scenario_settings={"budget": -5}),
        },
        "settings",
    ),
    (
        {
            "scenario": "built",
            "flights": FLIGHT,
            "settings": dict(POL, scenario_settings={"budget": 1.5}),
        },
        "settings",
    ),
    (
        {
            "scenario": "built",
            "flights": FLIGHT,
            "settings": dict(POL, scenario_settings={"budget": 10**40}),
        },
        "settings",
    ),
    (
        {"scenario": "built", "flights": FLIGHT, "settings": dict(POL, scenario_settings="x")},
        "settings",
    ),
    (
        {
            "scenario": "built",
            "flights": FLIGHT,
            "settings": dict(POL, scenario_settings={"nonesuch": 1}),
        },
        "settings",
    ),
    ({"scenario": "basic", "settings": dict(POL, scenario_settings={"budget": 5})}, "settings"),
]


@pytest.mark.parametrize(("extra", "field"), BAD)
def test_bad_air_pirates_input_is_a_400_naming_the_field(
    flyer, django_capture_on_commit_callbacks, extra, field
):
    body = {"system": "airpirates", "seed": 3, "settings": POL}
    body.update(extra)
    with django_capture_on_commit_callbacks(execute=True):
        answer = flyer.post(CREATE, body, content_type="application/json")
    assert answer.status_code == 400, (answer.status_code, answer.content[:300])
    assert str(answer.json().get("field", "")).startswith(field), answer.json()


@pytest.mark.parametrize(
    ("field", "value"),
    [("gun_factor", "x"), ("gun_factor", -3), ("gun_factor", 1.5), ("gun_factor", None),
     ("point_value", "lots"), ("bomber_class", "huge"), ("cannon_30mm_only", "maybe")],
)  # fmt: skip
def test_a_bad_air_pirates_card_value_is_refused_by_field(client, catalog, field, value):
    import json

    from roster.models import AircraftType

    staff = get_user_model().objects.create_superuser("cardstaff", password="pw-staff-123")
    client.force_login(staff)
    row = AircraftType.objects.filter(game_cards__has_key="airpirates").first()
    card = json.loads(json.dumps(row.game_cards["airpirates"]))
    card["values"][field] = value
    answer = client.patch(
        f"/api/roster/aircraft-types/{row.pk}/game-cards/",
        {"game_cards": {"airpirates": card}, "reason": "a bad edit"},
        content_type="application/json",
    )
    assert answer.status_code == 400, (answer.status_code, answer.content[:300])
    assert field in json.dumps(answer.json()), answer.json()


def test_every_air_pirates_card_field_cites_its_rule_as_a_citation():
    """A refusal names its rule; a field citing "002 '20i' BOMBER CLASSES" made a bad bomber
    class a 500 (RuleViolation refuses a rule that is not a citation)."""
    from angels.errors import is_citation
    from rules.airpirates import card

    rules = {f.name: f.rule for f in card.CONTROL_CARD_FIELDS}
    assert rules and {n: r for n, r in rules.items() if not is_citation(r)} == {}

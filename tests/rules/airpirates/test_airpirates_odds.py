"""A shot's odds before it is fired (002 6c-6e; rules.airpirates.odds): the chance to hit
counted against every pair of d10s, every modifier with its rule, and the modifiers the
shot then fires with. The battle's ``decision_odds`` is what ``rules.tactical.decision_odds``
asks."""

import pytest
from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates.actions import Fire, Hold, Mark, PassMarker


def brute_force(attack: int, defence: int) -> float:
    """6d-6e by hand: the firer's d10 plus its modifier against the target's, totals below
    1 counting as 1, a hit when the firer's is greater."""
    count = 0
    for a in range(1, 11):
        for d in range(1, 11):
            if max(1, a + attack) > max(1, d + defence):
                count += 1
    return count / 100


def tail_chase(**spit):
    """The Spitfire (allied, 2) two hexes behind a Bf 109E (axis, 1), both flying east."""
    b = battle(
        [unit("axis", BF109, speed=2), unit("allied", SPITFIRE, speed=4, **spit)],
        [((10, 8), 0), ((8, 8), 0)],
        marker="allied",
    )
    mark_all(b, {})
    move_all(b)
    return b


def test_the_tail_shot_gun_factor_deflection_and_defence():
    b = tail_chase()
    odds = b.decision_odds(1, Fire(2, 1))
    assert odds is not None
    assert odds["modifiers"] == [
        {"name": "gun factor", "value": 4, "rule": "002 6c1.1"},
        {"name": "deflection", "value": 1, "rule": "002 6c1.3"},
        {"name": "target's defence factor", "value": 3, "rule": "002 6c3.2"},
    ]
    assert odds["chance"] == brute_force(5, 3) == 0.64
    assert odds["text"] == "hits 64%"


@pytest.mark.parametrize("quality", ["green", "average", "experienced", "ace"])
def test_the_chance_is_the_count_of_all_d10_pairs(quality):
    b = tail_chase(quality=quality)
    odds = b.decision_odds(1, Fire(2, 1))
    assert odds is not None
    attack = sum(m["value"] for m in odds["modifiers"] if not m["name"].startswith("target"))
    defence = sum(m["value"] for m in odds["modifiers"] if m["name"].startswith("target"))
    assert odds["chance"] == brute_force(attack, defence)
    pilot = [m for m in odds["modifiers"] if m["name"] == "pilot"]
    expected = {"green": -1, "average": None, "experienced": 2, "ace": 4}[quality]
    assert [m["value"] for m in pilot] == ([] if expected is None else [expected])


def test_the_shot_then_fires_with_the_modifiers_it_showed():
    b = tail_chase(quality="ace")
    odds = b.decision_odds(1, Fire(2, 1))
    assert odds is not None
    b.apply(Fire(2, 1))
    fired = [e for e in b.log if e["event"] == "fired"][-1]
    shown = {m["rule"].removeprefix("002 ") + " " + m["name"].removeprefix("target's "):
             m["value"] for m in odds["modifiers"]}  # fmt: skip
    assert shown == {**fired["attack"], **fired["defence"]}


def test_a_green_pilot_against_an_ace_almost_never_hits():
    b = tail_chase(quality="green")
    b.unit(1).quality = "ace"
    odds = b.decision_odds(1, Fire(2, 1))
    assert odds is not None
    assert odds["chance"] == brute_force(4, 5) and odds["chance"] < 0.5


def test_no_odds_for_holding_passing_marking_or_a_refused_shot():
    b = tail_chase()
    assert b.decision_odds(1, Hold(2)) is None
    assert b.decision_odds(1, PassMarker()) is None
    assert b.decision_odds(1, Mark(2, "straight")) is None
    assert b.decision_odds(0, Fire(1, 2)) is None  # the Bf 109 has nobody in its fan


def test_a_rear_gunner_with_every_6c2_modifier():
    twin = unit("axis", "Bf 110C", speed=4, altitude=3, gunner_quality="ace")
    b = battle(
        [twin, unit("allied", "USMC F4F-4 Wildcat", speed=4, altitude=3)],
        [((10, 8), 0), ((8, 8), 0)],
        marker="axis",
    )
    mark_all(b, {})
    move_all(b)
    odds = b.decision_odds(0, Fire(1, 2, "rear"))
    assert odds is not None
    by_rule = {m["rule"]: m["value"] for m in odds["modifiers"]}
    assert by_rule["002 6c2.2.2"] == -2 and by_rule["002 6c2.2.6"] == 4
    attack = sum(m["value"] for m in odds["modifiers"] if not m["name"].startswith("target"))
    defence = sum(m["value"] for m in odds["modifiers"] if m["name"].startswith("target"))
    assert odds["chance"] == brute_force(attack, defence)

"""002 6a6 oblique forward (OF) guns: fired as the forward guns are (6a6.1), with their own
factor and ammunition, the forward guns "or" the OF guns in one Fire Phase, never at a
target one altitude below (6a6.2)."""

from airpirates_helpers import BF109, SPITFIRE, battle, mark_all, move_all, unit

from rules.airpirates.actions import Fire, action_from_json
from rules.airpirates.units import catalog_card
from rules.dice import ScriptedDice


def chase(oblique=2, ammunition=3, altitude=3):
    """A Spitfire Mk I (allied, 2) with OF guns two hexes behind a Bf 109E (axis, 1)."""
    target = unit("axis", BF109, speed=2, altitude=altitude)
    mine = unit("allied", SPITFIRE, speed=4, altitude=3)
    mine["card"] = dict(catalog_card(SPITFIRE), oblique_gun_factor=oblique,
                        oblique_ammunition=ammunition)  # fmt: skip
    b = battle([target, mine], [((10, 8), 0), ((8, 8), 0)], marker="allied")
    mark_all(b, {})
    move_all(b)
    assert b.phase == "fire"
    return b


def test_6a6_1_the_of_guns_fire_with_their_own_factor_and_ammunition():
    b = chase()
    assert Fire(2, 1, "oblique") in b.legal_actions()
    b.dice = ScriptedDice([1, 10])  # no hit
    b.apply(Fire(2, 1, "oblique"))
    fired = [e for e in b.log if e["event"] == "fired"][-1]
    assert fired["gun"] == "oblique" and fired["attack"]["6c1.1 gun factor"] == 2
    spitfire = b.unit(2)
    assert spitfire.oblique_ammunition_used == 1 and spitfire.ammunition_used == 0


def test_6a6_1_the_forward_guns_or_the_of_guns_in_one_fire_phase():
    b = chase()
    b.dice = ScriptedDice([1, 10])
    b.apply(Fire(2, 1))
    assert Fire(2, 1, "oblique") not in b.legal_actions()
    assert b.phase != "fire" or b.refusal(Fire(2, 1, "oblique")) is not None


def test_6a6_no_of_guns_no_of_fire():
    b = chase(oblique=0, ammunition=0)
    assert Fire(2, 1, "oblique") not in b.legal_actions()
    assert b._fire_refusal(b.unit(2), b.unit(1), "oblique")[0] == "002 '6a6.1'"


def test_6a6_2_never_at_a_target_one_altitude_below():
    b = chase(altitude=2)
    assert Fire(2, 1) in b.legal_actions()  # the forward guns may (6c1.2)
    assert Fire(2, 1, "oblique") not in b.legal_actions()
    error = b.refusal(Fire(2, 1, "oblique"))
    assert error is not None and error.rule == "002 '6a6.2'"


def test_6a6_the_of_guns_own_ammunition_runs_out():
    b = chase()
    b.unit(2).oblique_ammunition_used = 3
    error = b.refusal(Fire(2, 1, "oblique"))
    assert error is not None and error.rule == "002 '13a3'"
    assert Fire(2, 1) in b.legal_actions()


def test_an_of_shot_round_trips_as_json():
    action = Fire(2, 1, "oblique")
    assert action_from_json(action.to_json()) == action
    assert "oblique" in str(action)

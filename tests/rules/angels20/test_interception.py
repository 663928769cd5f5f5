"""A card-game interception flown by the engine (rules.angels20.interception): planes in
formation on a map large enough for them, and each card-game effect as its ruling reads
it (docs/rulings.md, "Engine engagements: ..."), each on and off."""

from __future__ import annotations

import pytest

from rules.angels20 import CATALOGUE, Rules, Scenario, new_battle
from rules.angels20.interception import OVERCAST_BANDS, Entrant, interception_scenario
from rules.angels20.pilots import make_policy, play_out
from rules.dice import Dice, ScriptedDice

SPIT = CATALOGUE["Spitfire Mk I Ace"]
HURRI = CATALOGUE["Hurricane Mk I"]
BOMBER = CATALOGUE["Medium bomber token"]
BF109 = CATALOGUE["Bf 109E Wingman"]
INITIATIVE = (3, 3, 4, 4)  # the first game turn's initiative dice, axis then allied


def _attackers(n=3, bombers=1, xm=()):
    out = []
    for i in range(n):
        bomber = i < bombers
        out.append(
            Entrant(f"allied-{i + 1}", "allied", BOMBER if bomber else HURRI, fighter=not bomber,
                    experience=xm[i] if i < len(xm) else 0)
        )  # fmt: skip
    return out


def _defenders(n=2):
    return [Entrant(f"axis-{i + 1}", "axis", BF109) for i in range(n)]


def _build(effects=None, n_att=3, n_def=2, **kw) -> Scenario:
    return interception_scenario(
        _attackers(n_att), _defenders(n_def), effects=effects or {}, rules=Rules(max_turns=8), **kw
    )


def _at(scenario: Scenario) -> dict[str, tuple[int, int, int, int, str]]:
    return {
        a.pilot_ref.removeprefix("plane:"): (a.col, a.row, a.altitude, a.facing, a.pilot_quality)
        for a in scenario.aircraft
    }


def _event(name, side, target=None, force="af"):
    return {"events": [{"name": name, "side": side, "target": target, "force": force}]}


# -- formation and map size ------------------------------------------------------------
def test_up_to_seven_a_side_are_placed_as_before_on_the_book_map():
    sc = _build(n_att=7, n_def=7)
    assert (sc.width, sc.height) == (16, 22)
    for i in range(7):
        assert _at(sc)[f"allied-{i + 1}"][:4] == (2 + 2 * i, 19, 3, 0)
        assert _at(sc)[f"axis-{i + 1}"][:4] == (2 + 2 * i, 2, 4, 3)
    assert sc.card_flak is None and "card_flak" not in sc.to_json()


@pytest.mark.parametrize("n,height", [(8, 26), (15, 30)])
def test_a_larger_mission_flies_in_ranks_on_a_deeper_map(n, height):
    sc = _build(n_att=n, n_def=n, effects={"flak_rolls": 1, "flak_af": 7})
    assert (sc.width, sc.height) == (16, height)
    at = _at(sc)
    # front ranks meet as on the book map; ranks two rows behind, staggered
    ranks = -(-n // 7)
    extra = 2 * (ranks - 1)
    assert at["allied-1"][:2] == (2, 19 + extra) and at["axis-1"][:2] == (2, 2 + extra)
    assert max(a.row for a in sc.aircraft) == height - 3  # the last rank as far from the edge
    rows = {
        side: sorted({a.row for a in sc.aircraft if a.side == side}) for side in ("allied", "axis")
    }
    assert len(rows["allied"]) == ranks and len(rows["axis"]) == ranks
    assert rows["allied"][0] - rows["axis"][-1] == 17
    assert at["allied-8"][:2] == (3, rows["allied"][1]) and at["axis-8"][:2] == (
        3,
        rows["axis"][-2],
    )
    assert all(0 <= a.col < 16 and 0 <= a.row < height for a in sc.aircraft)
    assert Scenario.from_json(sc.to_json()) == sc


@pytest.mark.parametrize("n", [8, 15])
def test_a_large_interception_flies_to_the_end_with_computer_pilots(n):
    sc = _build(n_att=n, n_def=n, effects={"flak_rolls": 1, "flak_af": 7})
    state = new_battle(sc, Dice(11))
    result = play_out(
        state, {"axis": make_policy("random", 1), "allied": make_policy("random", 2)}, check=True
    )
    assert state.is_over() and len(result["aircraft"]) == 2 * n


# -- flak: a d10 at AF 7 before the battle ------------------------------------------------
def test_flak_roll_of_seven_downs_the_attacker_with_fewest_markers_before_turn_one():
    sc = interception_scenario(
        _attackers(3, xm=(2, 0, 1)), _defenders(2), effects={"flak_rolls": 2, "flak_af": 7}
    )
    assert sc.card_flak.targets == (1, 2, 0)  # fewest experience markers first
    # flak 7: a hit; the pilot's survival d6; flak 6: a miss; then the first initiative
    state = new_battle(sc, ScriptedDice([7, 4, 6, *INITIATIVE]))
    flak = [e for e in state.log if e["e"] == "card_flak"]
    assert [(e["roll"], e["hit"], e["plane"]) for e in flak] == [(7, True, 1), (6, False, None)]
    assert state.planes[1].out and not state.planes[0].out and not state.planes[2].out
    destroyed = next(e for e in state.log if e["e"] == "destroyed")
    assert destroyed["how"] == "flak" and destroyed["turn"] == 0
    survival = next(e for e in state.log if e["e"] == "survival")
    assert survival["plane"] == 1  # its pilot rolls survival like any loss
    # off: no flak roll at all, nobody down
    quiet = new_battle(_build(), Dice(5))
    assert not [e for e in quiet.log if e["e"] in ("card_flak", "destroyed")]


def test_flak_misses_below_seven():
    sc = interception_scenario(
        _attackers(2), _defenders(1), effects={"flak_rolls": 1, "flak_af": 7}
    )
    state = new_battle(sc, ScriptedDice([6, *INITIATIVE]))
    assert not any(p.out for p in state.planes)


# -- event cards and night fighters, each on and off -------------------------------------
def _diff(effects, **kw):
    """Planes whose set-up differs from the set-up without the effect: {id: (before, after)}."""
    off, on = _at(_build(**kw)), _at(_build(effects, **kw))
    return {k: (off[k], on[k]) for k in off if off[k] != on[k]}


def test_defending_night_fighter_flies_one_pilot_quality_better():
    d = _diff({"defending_night_fighters": ["axis-2"], "night_fighters": ["axis-2"]})
    assert d == {"axis-2": ((4, 2, 4, 3, "average"), (4, 2, 4, 3, "veteran"))}


def test_nf_mark_gives_the_night_fighter_ability():
    sc = _build({"night_fighters": ["allied-1"]})
    assert "Night Fighter" in sc.aircraft[0].stats.abilities
    assert "Night Fighter" not in _build().aircraft[0].stats.abilities
    assert "Night Fighter" not in sc.aircraft[1].stats.abilities


def test_superior_tactics_makes_the_players_fighters_better_pilots():
    d = _diff(_event("Superior Tactics", "allied"))
    assert {k: v[1][4] for k, v in d.items()} == {"allied-2": "veteran", "allied-3": "veteran"}


def test_dogfight_brings_both_formations_three_rows_closer():
    d = _diff(_event("Dogfight", "axis"))
    assert {k: (v[0][1], v[1][1]) for k, v in d.items()} == {
        "allied-1": (19, 16), "allied-2": (19, 16), "allied-3": (19, 16),
        "axis-1": (2, 5), "axis-2": (2, 5),
    }  # fmt: skip


def test_scramble_brings_the_defenders_forward():
    d = _diff(_event("Scramble", "axis"))
    assert {k: (v[0][1], v[1][1]) for k, v in d.items()} == {"axis-1": (2, 5), "axis-2": (2, 5)}


def test_radar_towers_puts_the_defenders_one_band_higher():
    d = _diff(_event("Radar Towers", "axis"))
    assert {k: (v[0][2], v[1][2]) for k, v in d.items()} == {"axis-1": (4, 5), "axis-2": (4, 5)}


def test_chaff_puts_the_defenders_two_bands_lower():
    d = _diff(_event("Chaff", "allied"))
    assert {k: (v[0][2], v[1][2]) for k, v in d.items()} == {"axis-1": (4, 2), "axis-2": (4, 2)}


def test_attackers_fighter_escort_flies_ahead_of_the_bombers_level_with_the_interceptors():
    off, on = _build(), _build(_event("Fighter Escort", "allied"))
    assert (on.width, on.height) == (16, 24)  # two attacking ranks: escorts and bombers
    at = _at(on)
    assert at["allied-2"][:3] == (2, 19, 4) and at["allied-3"][:3] == (4, 19, 4)
    assert at["allied-1"][:3] == (3, 21, 3)  # the bomber behind
    assert _at(off)["allied-1"][:3] == (2, 19, 3)


def test_defenders_fighter_escort_sends_every_second_fighter_up_as_top_cover():
    d = _diff(_event("Fighter Escort", "axis"), n_def=4)
    assert {k: (v[0][2], v[1][2]) for k, v in d.items()} == {"axis-2": (4, 5), "axis-4": (4, 5)}


def test_out_of_the_sun_puts_the_fighter_two_bands_up():
    d = _diff(_event("Out of the Sun", "axis", "axis-1"))
    assert {k: (v[0][2], v[1][2]) for k, v in d.items()} == {"axis-1": (4, 6)}


def test_surprise_turns_the_defender_away_from_the_raid():
    d = _diff(_event("Surprise", "allied", "axis-2"))
    assert {k: (v[0][3], v[1][3]) for k, v in d.items()} == {"axis-2": (3, 0)}


def test_rockets_for_air_attack_add_a_die_at_range_one():
    on = _build(_event("Rockets", "allied", "allied-2"))
    assert on.aircraft[1].stats.attack == (HURRI.attack[0] + 1, *HURRI.attack[1:])
    assert _build().aircraft[1].stats.attack == HURRI.attack
    gf = _build(_event("Rockets", "allied", "allied-2", force="gf"))
    assert gf.aircraft[1].stats.attack == HURRI.attack


def test_overcast_gives_the_overcast_sky():
    on, off = _build(_event("Overcast", "axis")), _build()
    assert on.rules.clouds == OVERCAST_BANDS and not on.rules.random_clouds
    assert off.rules.clouds == () and on.rules.max_turns == off.rules.max_turns == 8
    state = new_battle(on, Dice(1))
    assert state.cloud_bands == OVERCAST_BANDS


def test_inclement_weather_rolls_the_cloud_chart_and_shortens_the_fight():
    on = _build(_event("Inclement Weather", "allied"))
    assert on.rules.random_clouds and on.rules.max_turns == 6
    # the chart's roll with fixed dice: a 1 is the first column
    state = new_battle(on, ScriptedDice([1, *INITIATIVE]))  # chart 1 (no flak here)
    assert state.cloud_bands == ("light", "solid", "heavy", "heavy", "light", "clear")
    state = new_battle(on, ScriptedDice([5, *INITIATIVE]))
    assert state.cloud_bands == ("clear", "light", "light", "clear", "clear", "clear")
    both = _build({"events": [*_event("Inclement Weather", "allied")["events"],
                              *_event("Overcast", "axis")["events"]]})  # fmt: skip
    assert both.rules.clouds == OVERCAST_BANDS and not both.rules.random_clouds
    assert both.rules.max_turns == 6


def test_dogfight_and_scramble_together_keep_the_fronts_apart():
    sc = _build({"events": [*_event("Dogfight", "axis")["events"],
                            *_event("Scramble", "axis")["events"]]})  # fmt: skip
    at = _at(sc)
    assert at["allied-1"][1] - at["axis-1"][1] >= 5

"""002 [20] BOMBER RULES (option ``bombers``) with fixed dice: bombers mark first (20a),
their damage and defence (20b), the big target bonus and 30 mm cannon (20c, 20d), the
skilled pilot's aimed attack (20e), defensive gunnery (20f), crippled bombers and the
Hollywood maneuver (20g), fires (20h) and the rebuilt bomber classes (20i)."""

import pytest
from airpirates_helpers import SPITFIRE, battle, mark_all, move_all, unit

from rules.aircraft_facts import Facts
from rules.airpirates import bombers as bb
from rules.airpirates.actions import Change, Fire, Hold, IllegalAction, Mark, action_from_json
from rules.airpirates.estimate import bomber_class
from rules.airpirates.scenarios import campaign_engagement
from rules.airpirates.state import AirPiratesBattle, replay
from rules.airpirates.system import AIRPIRATES, RandomPilot
from rules.airpirates.units import SIDES, Scenario, catalog_card
from rules.airpirates.words import log_sentence
from rules.dice import ScriptedDice

HE111 = "Heinkel He 111"  # estimated a Medium Bomber (20i4): dice front 20, side 12, rear 12
B17 = "Boeing B-17 Flying Fortress"  # an Early Fortress (20i6): rear D10
BEHIND, AHEAD = (8, 8), (12, 8)  # the fighter two hexes behind / ahead of a bomber at (10, 8)


def with_options(b, options=("bombers",)):
    b.scenario = Scenario.from_json({**b.scenario.to_json(), "options": list(options)})
    return b


def bomber_and_fighter(where=BEHIND, *, fighter=SPITFIRE, options=("bombers",), quality="average",
                       bomber=HE111, marker="allied", facing=0):  # fmt: skip
    """A bomber (unit 1, axis) at (10, 8) facing east and a fighter (unit 2, allied), both
    at speed 2 (nobody moves in impulse I) and altitude 3."""
    units = [
        unit("axis", bomber, speed=2, altitude=3),
        unit("allied", fighter, speed=2, altitude=3, quality=quality),
    ]
    b = battle(units, [((10, 8), 0), (where, facing)], marker=marker)
    return with_options(b, options)


def gunnery(b):
    return [e for e in b.log if e["event"] == "defensive fire"]


# -- 20i the bomber classes and the cards ------------------------------------------------
def test_20i_the_catalogs_bombers_have_classes_and_fighters_none():
    assert catalog_card("Boeing B-17 Flying Fortress")["bomber_class"] == "early_fortress"
    assert catalog_card("Junkers Ju 87 Stuka")["bomber_class"] == "light"
    assert catalog_card(HE111)["bomber_class"] == "medium"
    assert catalog_card("Bristol Blenheim")["bomber_class"] == "obsolescent"
    assert catalog_card(SPITFIRE)["bomber_class"] == "none"
    assert catalog_card("Messerschmitt Me 262")["cannon_30mm_only"] is True
    assert catalog_card(SPITFIRE)["cannon_30mm_only"] is False


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (Facts("a", role="dive bomber", engines=1), "light"),
        (Facts("b", role="reconnaissance", engines=1), "recon"),
        (Facts("c", role="light bomber", engines=2, engine_kind="jet"), "arado"),
        (Facts("d", role="heavy bomber", engines=4, year=1942), "early_fortress"),
        (Facts("e", role="heavy bomber", engines=4, year=1944), "late_fortress"),
        (Facts("f", role="heavy bomber", engines=4, loaded_weight_lb=120000), "superfortress"),
        (Facts("g", role="medium bomber", engines=2, max_speed_mph=255), "obsolescent"),
        (Facts("h", role="light bomber", engines=2, max_speed_mph=355), "fast_medium"),
        (Facts("i", role="medium bomber", engines=2, max_speed_mph=300, year=1941), "medium"),
        (Facts("j", role="medium bomber", engines=2, max_speed_mph=300, year=1943), "late_medium"),
        (Facts("k", role="fighter-bomber", engines=1), "none"),
    ],
)
def test_20i_the_class_formula(facts, expected):
    assert bomber_class(facts) == expected


def test_20i_ten_classes_and_the_dice_of_20f1_1():
    assert len(bb.CLASSES) == 10  # 20i1-20i10 (the text says eight and lists ten)
    assert {d for c in bb.CLASSES.values() for d in c.dice} <= set(bb.DICE)
    assert bb.DICE == (8, 10, 12, 20)


def test_a_card_stored_before_the_bomber_fields_flies_as_no_bomber():
    card = {k: v for k, v in catalog_card(HE111).items() if k not in bb_fields()}
    b = battle([unit("axis", HE111), unit("allied", SPITFIRE)], [((10, 8), 0), (BEHIND, 0)])
    b.units[0].card = card
    assert bb.bomber_class(b.units[0]) == "none"
    scenario = {"units": [{"side": "axis", "card": card}, {"side": "allied", "card": card}]}
    made = AirPiratesBattle(Scenario.from_json(scenario), 1)
    assert made.units[0].card["bomber_class"] == "none"


def bb_fields():
    return ("bomber_class", "cannon_30mm_only")


# -- 20a movement ------------------------------------------------------------------------
def test_20a_bombers_mark_before_all_other_aircraft():
    b = bomber_and_fighter()  # the allied fighter's side holds the sequence marker
    assert b.phase == "setup_mark" and b.current_side() == 0
    with pytest.raises(IllegalAction) as refused:
        b.apply(Mark(2, "straight"))
    assert refused.value.rule == "002 '20a'"
    b.apply(Mark(1, "straight"))
    assert b.current_side() == 1


def test_20a_without_the_option_the_sequence_marker_orders_them():
    b = bomber_and_fighter(options=())
    assert b.current_side() == 1  # the holder (allied) marks first (3a1)
    b.apply(Mark(2, "straight"))


def test_20i_a_medium_bomber_marks_no_roll_a_light_bomber_does():
    b = bomber_and_fighter()
    assert Mark(1, "roll_left") not in b.legal_actions()
    with pytest.raises(IllegalAction) as refused:
        b.apply(Mark(1, "roll_left"))
    assert "20i" in refused.value.rule
    light = bomber_and_fighter(bomber="Junkers Ju 87 Stuka")
    assert Mark(1, "roll_left") in light.legal_actions()  # (tight turns: 3e2 at speed 2)


# -- 20f defensive gunnery -----------------------------------------------------------------
def test_20f1_a_fighter_behind_a_medium_bomber_takes_a_hit_on_a_d12_1():
    b = bomber_and_fighter(BEHIND)
    b.dice = ScriptedDice([1, 5])  # the D12 shows 1: a hit; 13b2 location 5: wing
    mark_all(b, {})
    shot = gunnery(b)[0]
    assert (shot["die"], shot["roll"], shot["hits"], shot["parts"]) == (12, 1, 1, ["wing"])
    assert shot["rule"] == "002 '20f1'" and shot["phase"] == "fire" and shot["impulse"] == 1
    assert b.unit(2).damage["wing"] == 1


def test_20f1_only_a_1_hits_and_ahead_of_the_bomber_the_die_is_a_d20():
    b = bomber_and_fighter(AHEAD, facing=3)
    b.dice = ScriptedDice([2])
    mark_all(b, {})
    shot = gunnery(b)[0]
    assert (shot["die"], shot["hits"]) == (20, 0)
    assert sum(b.unit(2).damage.values()) == 0


def test_20f_the_bombers_roll_every_impulse_and_not_out_of_range():
    b = bomber_and_fighter((5, 8))  # five hexes behind: out of range
    mark_all(b, {})
    assert gunnery(b) == []
    assert bb.in_range(b.unit(1), b.unit(2)) is False


def test_20f1_the_most_advantageous_die_and_formation_hits():
    """Two Medium Bombers in range: the lowest die of the two, and a 1 gives two hits."""
    units = [
        unit("axis", HE111, speed=2, altitude=3),
        unit("axis", HE111, speed=2, altitude=3),
        unit("allied", SPITFIRE, speed=2, altitude=3),
    ]
    b = with_options(battle(units, [((10, 8), 0), ((10, 10), 3), ((9, 9), 0)], marker="allied"))
    shot = bb.gunnery(b, b.unit(3))
    assert shot["bombers"] == [1, 2] and shot["hits"] == 2
    dice = [bb.die_of(b.unit(i), b.unit(3)) for i in (1, 2)]
    assert shot["die"] == min(dice)


def test_20f1_1_a_jet_fighter_faces_the_next_higher_die_never_beyond_a_d20():
    b = bomber_and_fighter(BEHIND, fighter="Messerschmitt Me 262", bomber=B17)
    b.unit(1).side, b.unit(2).side = "allied", "axis"  # the jet attacks an Allied bomber
    shot = bb.gunnery(b, b.unit(2))
    assert (shot["die"], shot["jet"]) == (12, True)
    assert bb.higher(20) == 20 and bb.higher(8) == 10


def test_20g_a_crippled_bombers_gunnery_is_one_die_higher():
    b = bomber_and_fighter(BEHIND, bomber=B17)
    assert bb.gunnery(b, b.unit(2))["die"] == 10
    b.unit(1).bomber = {"crippled": True}
    assert bb.gunnery(b, b.unit(2))["die"] == 12


def test_20f_under_the_bomber_rules_a_bomber_fires_no_guns_of_its_own():
    b = bomber_and_fighter(BEHIND, options=())
    assert b.unit(1).card["rear_guns"] >= 1
    mark_all(b, {})
    on = bomber_and_fighter(BEHIND)
    on.dice = ScriptedDice([5])
    mark_all(on, {})
    assert [e for e in on.log if e["event"] == "fired"] == []
    assert bb.silenced(on, on.unit(1)) and not bb.silenced(b, b.unit(1))


# -- fire at a bomber (20b-20e) --------------------------------------------------------------
def fire_phase(where=BEHIND, **kwargs):
    """The fighter at speed 4 behind (or ahead of) the bomber completes a straight in
    impulse I... both start at speed 2; the fighter's speed is raised to 4 so it moves."""
    b = bomber_and_fighter(where, **kwargs)
    b.unit(2).speed = 4
    mark_all(b, {})
    move_all(b)
    return b


def test_20c_big_target_one_per_engine_and_20b_defence_not_reduced():
    b = fire_phase((7, 8))
    assert b.phase == "fire" and Fire(2, 1) in b.legal_actions()
    b.unit(1).damage["fuselage"] = 2
    b.dice = ScriptedDice([1, 10, 7])  # a miss; the bombers' die after: 7, no hit
    b.apply(Fire(2, 1))
    fired = [e for e in b.log if e["event"] == "fired"][0]
    assert fired["attack"]["20c big target"] == 2  # the He 111's two engines
    assert fired["defence"] == {"20b defence factor": 2}  # not 0 after two hits (13b1.3)


def test_20c_no_bonus_without_the_option():
    b = fire_phase((7, 8), options=())
    b.dice = ScriptedDice([1, 10])
    b.apply(Fire(2, 1))
    fired = [e for e in b.log if e["event"] == "fired"][0]
    assert "20c big target" not in fired["attack"]


def test_20c_20d_30mm_cannon_alone_no_bonus_and_two_boxes_a_hit():
    b = fire_phase((7, 8))
    b.unit(2).card = dict(b.unit(2).card, cannon_30mm_only=True)
    # 6 + 4 (guns) - 1 (two hexes behind) = 9 against 2 + 2 = 4: two hits (6e), both
    # fuselage (9s); the bombers' die then: a D20 (crippled), 9
    b.dice = ScriptedDice([6, 2, 9, 9, 9])
    b.apply(Fire(2, 1))
    fired = [e for e in b.log if e["event"] == "fired"][0]
    assert "20c big target" not in fired["attack"]
    assert fired["numbers"] == [9, 4] and fired["hits"] == 2
    assert b.unit(1).damage["fuselage"] == 4  # two boxes a hit
    assert [e["die"] for e in gunnery(b)] == [20]  # 4 of 5 fuselage boxes: crippled (20g)


def test_20e_an_experienced_pilot_from_directly_behind_chooses_engine_or_fuel():
    b = fire_phase((7, 8), quality="experienced")
    legal = b.legal_actions()
    assert Fire(2, 1, "aimed_engine") in legal and Fire(2, 1, "aimed_fuel") in legal
    assert Fire(2, 1, "aimed_crew") not in legal  # crew head-on only
    with pytest.raises(IllegalAction) as refused:
        b.apply(Fire(2, 1, "aimed_crew"))
    assert refused.value.rule == "002 '20e'"
    b.dice = ScriptedDice([9, 1, 9])  # hits; no location roll: the engine chosen; 9: no fire
    b.dice.extend([7])  # the bombers' D10 after
    b.apply(Fire(2, 1, "aimed_engine"))
    fired = [e for e in b.log if e["event"] == "fired"][0]
    assert "20c big target" not in fired["attack"]
    assert set(fired["parts"]) == {"engine"}
    assert Fire(2, 1) not in b.legal_actions()  # the forward guns have fired
    assert str(Fire(2, 1, "aimed_fuel")) == "unit 2 fires at unit 1's fuel"
    assert action_from_json(Fire(2, 1, "aimed_crew").to_json()) == Fire(2, 1, "aimed_crew")


def test_20e_an_unmodified_10_of_the_bomber_is_an_automatic_miss():
    b = fire_phase((7, 8), quality="ace")
    b.dice = ScriptedDice([10, 10, 7])  # ace +4, gun factor: would hit; the bomber's 10
    b.apply(Fire(2, 1, "aimed_fuel"))
    fired = [e for e in b.log if e["event"] == "fired"][0]
    assert fired["numbers"][0] > fired["numbers"][1] and fired["hits"] == 0


def test_20e_average_pilots_and_side_attacks_may_not_aim():
    b = fire_phase((7, 8))
    assert not [a for a in b.legal_actions() if isinstance(a, Fire) and a.gun in bb.AIMED]


# -- 20g crippled and the Hollywood maneuver ---------------------------------------------------
def crippled_bomber(**kwargs):
    b = bomber_and_fighter((3, 3), **kwargs)
    bomber = b.unit(1)
    bomber.damage["engine"] = 2  # 2 of 3 boxes: half or more (20g)
    bb.check_crippled(b, bomber, 2)
    return b, bomber


def test_20g_half_the_boxes_of_one_area_cripple_and_jettison():
    b, bomber = crippled_bomber()
    assert bomber.bomber == {"crippled": True, "by": 2, "must_dive": True, "jettisoned": True}
    entry = [e for e in b.log if e["event"] == "crippled"][0]
    assert entry["rule"] == "002 '20g'" and entry["jettisoned"] is True


def test_20g_a_crippled_bomber_may_not_climb_and_flies_one_speed_slower():
    b, bomber = crippled_bomber()
    allowed = bb.change_options(b, bomber, [(4, 3), (3, 4), (3, 3), (2, 4), (2, 5)])
    level, dive = bomber.card["level_speed"], bomber.card["dive_speed"]
    assert (4, 3) not in allowed
    assert all(s <= (dive - 1 if a < 3 else level - 1) for a, s in allowed)


def to_change(b):
    while b.phase != "change":
        mark_all(b, {})
        move_all(b)
        while b.phase == "fire":
            b.apply(Hold(b.pending(b.current_side())[0].id))
    return b


@pytest.mark.parametrize(
    ("roll", "event", "altitude"),
    [(2, "Hollywood maneuver held", 3), (1, "broke up", None)],
)
def test_20g1_the_hollywood_maneuver(roll, event, altitude):
    """Hits 2 engine (counting 4) and 1 wing: 5; +3 jettisoned: a 2 holds (5 >= 5)."""
    b, bomber = crippled_bomber()
    bomber.damage["wing"] = 1
    to_change(b)
    b.dice = ScriptedDice([roll])
    b.apply(Change(1, 3, 2))  # two engine hits: level speed 2 (13b3.2.1)
    entry = [e for e in b.log if e["event"] == event][0]
    assert entry["hits"] == 5 and entry["modifier"] == 3
    if altitude is None:
        assert bomber.eliminated and entry["rule"] == "002 '20g1.4'"
    else:
        assert bomber.altitude == altitude and not bomber.eliminated


def test_20g1_3_less_than_the_hits_loses_a_level_and_at_altitude_0_crashes():
    b, bomber = crippled_bomber()
    bomber.damage["fuselage"] = 3  # hits 4 + 3 = 7
    to_change(b)
    b.dice = ScriptedDice([3])  # 3 + 3 = 6 < 7
    b.apply(Change(1, 3, 2))
    assert bomber.altitude == 2 and [e for e in b.log if e["event"] == "lost a level"]
    low, low_bomber = crippled_bomber()
    low_bomber.damage["fuselage"] = 3
    to_change(low)
    low_bomber.altitude = 0
    low.dice = ScriptedDice([3])
    low.apply(Change(1, 0, 2))
    assert low_bomber.eliminated
    assert low.kills[-1] == {"attacker": 2, "target": 1, "turn": 1}


# -- 20h fires ---------------------------------------------------------------------------------
def test_20h_a_bomber_not_putting_out_a_fire_takes_another_hit_there():
    b = bomber_and_fighter((3, 3))
    bomber = b.unit(1)
    bomber.damage["fuel"] = 1
    bomber.fires.append({"part": "fuel", "turn": 1, "by": 2})
    to_change(b)
    b.dice = ScriptedDice([2])  # 2: not put out (9 or more)
    b.apply(Change(1, 3, 2))
    assert not bomber.eliminated and bomber.damage["fuel"] == 2
    assert [e for e in b.log if e["event"] == "fire burns on"][0]["rule"] == "002 '20h'"


def test_20h_the_fire_destroying_the_last_box_destroys_the_bomber():
    b = bomber_and_fighter((3, 3))
    bomber = b.unit(1)
    bomber.damage["fuel"] = bomber.card["fuel_boxes"] - 1
    bomber.fires.append({"part": "fuel", "turn": 1, "by": 2})
    bomber.bomber = {"crippled": True}
    to_change(b)
    b.dice = ScriptedDice([2])
    b.apply(Change(1, 3, 2))
    assert bomber.eliminated and b.kills[-1]["attacker"] == 2


def test_20h_without_the_option_a_fire_not_put_out_eliminates():
    b = bomber_and_fighter((3, 3), options=(), marker="axis")
    b.unit(1).fires.append({"part": "fuel", "turn": 1, "by": 2})
    to_change(b)
    b.dice = ScriptedDice([2])
    b.apply(Change(1, 3, 2))
    assert b.unit(1).eliminated


def test_20h1_bombers_count_two_levels_dived_light_bombers_three():
    b = bomber_and_fighter()
    assert bb.fire_dive(b, b.unit(1), 3) == 2
    light = bomber_and_fighter(bomber="Junkers Ju 87 Stuka")
    assert bb.fire_dive(light, light.unit(1), 3) == 3
    assert bb.fire_dive(b, b.unit(2), 3) == 3  # a fighter: 13b4 as written


# -- property: random bomber battles end and replay equal ----------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_random_bomber_battles_end_and_replay_equal(seed):
    scenario = {
        "name": "bombers", "options": ["bombers", "bailout", "points"],
        "units": [
            unit("axis", HE111, altitude=3), unit("axis", "Junkers Ju 87 Stuka", altitude=3),
            unit("allied", SPITFIRE, altitude=4, quality="experienced"),
            unit("allied", "Hurricane Mk I", altitude=4),
        ],
    }  # fmt: skip
    b = AirPiratesBattle(Scenario.from_json(scenario), seed)
    pilot = RandomPilot(seed)
    for _ in range(5000):
        if b.is_over():
            break
        legal = b.legal_actions()
        action = pilot.choose(b)
        assert action in legal and b.refusal(action) is None
        b.apply(action)
    assert b.is_over()
    again = replay(b.scenario, seed, b.actions)
    assert again.to_json() == b.to_json()
    assert AirPiratesBattle.from_json(b.to_json()).to_json() == b.to_json()


def test_20c_the_sm79_example_three_engines_give_plus_3():
    """20c: "when attacking an Italian SM-79 bomber which has 3 engines the attacking plane
    gets a +3 bonus" (002's SM.79, an Obsolescent Bomber by the estimate)."""
    b = bomber_and_fighter(BEHIND, bomber="SM.79")
    assert b.unit(1).card["bomber_class"] == "obsolescent"
    extra, _ = bb.modifiers(b, b.unit(2), b.unit(1), "forward", {})
    assert extra == {"20c big target": 3}


# -- the log in words and a campaign's engagement ----------------------------------------------
def test_the_bombers_events_in_words():
    b = bomber_and_fighter(BEHIND)
    b.dice = ScriptedDice([1, 5])
    mark_all(b, {})
    text = log_sentence(gunnery(b)[0])
    assert text == "Defensive gunnery of unit 1 at unit 2: d12 1: 1 hit (wing). [002 '20f1']"
    b, _ = crippled_bomber()
    crippled = [e for e in b.log if e["event"] == "crippled"][0]
    assert log_sentence(crippled) == "unit 1 is crippled: it jettisons its bomb load. [002 '20g']"


def entrant(side, aircraft, ref):
    return {"side": side, "aircraft": aircraft, "quality": "average", "pilot_ref": ref}


def test_a_campaign_engagement_with_bombers_flies_them_under_20():
    made = campaign_engagement(
        [entrant("axis", HE111, "plane:1"), entrant("axis", "Bf 109E Wingman", "plane:2")],
        [entrant("allied", "Hurricane Mk I", "plane:3")],
        name="raid", turns=8, territory={"allied": "friendly"},
    )  # fmt: skip
    assert made["options"] == ["bailout", "points", "bombers"]
    fighters_only = campaign_engagement(
        [entrant("axis", "Bf 109E Wingman", "plane:2")],
        [entrant("allied", "Hurricane Mk I", "plane:3")],
        name="sweep", turns=8, territory={},
    )  # fmt: skip
    assert "bombers" not in fighters_only["options"]


@pytest.mark.parametrize("seed", range(3))
def test_two_competent_pilots_fly_a_campaign_engagement_with_bombers_to_its_end(seed):
    made = campaign_engagement(
        [entrant("axis", HE111, "plane:1"), entrant("axis", "Bf 109E Wingman", "plane:2")],
        [entrant("allied", "Hurricane Mk I", "plane:3"), entrant("allied", SPITFIRE, "plane:4")],
        name="raid", turns=8, territory={"allied": "friendly"},
    )  # fmt: skip
    b = AIRPIRATES.new_battle(AIRPIRATES.scenario_json(made), seed)
    pilots = [AIRPIRATES.computer_pilot("competent", AIRPIRATES.pilot_seed(seed, s)) for s in SIDES]
    for _ in range(5000):
        if b.is_over():
            break
        b.apply(pilots[b.current_side()].choose(b))
    assert b.is_over()
    marks = [e for e in b.log if e["event"] == "marked" and e["phase"] == "setup_mark"]
    assert marks and marks[0]["unit"] == 1  # 20a: the He 111 marks first
    assert gunnery(b)  # 20f: the He 111's gunners rolled
    result = b.result()
    assert {a["pilot_ref"] for a in result["aircraft"]} == {f"plane:{i}" for i in range(1, 5)}


def test_20f1_a_formations_hits_are_capped_by_the_class():
    """Three Medium Bombers in range of one fighter: a 1 gives two hits, the class's most."""
    units = [unit("axis", HE111, speed=2, altitude=3) for _ in range(3)]
    units.append(unit("allied", SPITFIRE, speed=2, altitude=3))
    places = [((10, 8), 0), ((10, 10), 0), ((11, 9), 0), ((9, 9), 0)]
    b = with_options(battle(units, places, marker="allied"))
    shot = bb.gunnery(b, b.unit(4))
    assert shot["bombers"] == [1, 2, 3] and shot["hits"] == 2
    b.dice = ScriptedDice([1, 9, 9])  # the die's 1; two fuselage hits
    mark_all(b, {})
    assert gunnery(b)[0]["hits"] == 2 and b.unit(4).damage["fuselage"] == 2

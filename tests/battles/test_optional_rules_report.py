"""The battle report shows the optional rules a battle was flown with: the rules in
force, cloud bands and territory, the flak fields, balloons and placed clouds on the
hex map, aircraft in the clouds / illuminated / under direction, and every special
condition's dice in the log (000 "OPTIONAL RULES", "SPECIAL CONDITIONS")."""

import pytest
from django.utils.html import escape

from battles import scenarios, services
from battles.log_sentences import context_for, sentence, sentences
from battles.models import Battle
from battles.report import frames_from_log
from battles.selectors import battle_crews

pytestmark = pytest.mark.django_db

NIGHT_OVER_THE_TARGET = {
    "midair_collision": True,
    "clouds": ["clear", "solid", "heavy", "light", "clear", "clear"],
    "cloud_shapes": [{"hexes": [[4, 5], [4, 6]], "base": 2, "top": 3}],
    "flak_fields": [[8, 10, 3], [5, 12, 2]],
    "barrage_balloons": [[7, 11]],
    "night": "darkness",
    "fighter_direction": {"axis": 2, "allied": 1},
    "searchlights": {"axis": True, "allied": True},
}
SPECIAL = {"clouds", "clouds_check", "flak", "balloon", "collision", "illumination", "direction"}


def _map(page: str) -> str:
    return page.split('<svg id="map"')[1].split("</svg>")[0]


def _flown(rules, seed=3, **settings):
    battle = services.battle_create(
        scenario="dogfight",
        seed=seed,
        resolve=False,
        settings={"rules": rules, "policies": {"axis": "random", "allied": "random"}, **settings},
    )
    Battle.objects.filter(pk=battle.pk).update(status="pending")
    services.battle_run(battle_id=battle.pk)
    battle.refresh_from_db()
    assert battle.status == "finished", battle.error
    return battle


def test_the_report_shows_the_rules_map_features_and_special_dice(client, catalog):
    battle = _flown(NIGHT_OVER_THE_TARGET, territory={"axis": "enemy", "allied": "friendly"})
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert (
        "optional rules in force: <strong>midair collision, clouds, flak fields, barrage balloons, "
        "darkness, fighter direction, illumination</strong>" in page
    )
    assert "territory: axis enemy, allied friendly" in page
    assert "fighter direction capacity: axis 2, allied 1" in page
    assert "searchlights: axis, allied" in page
    assert "<td>solid</td><td>heavy</td><td>light</td>" in page  # the cloud bands, altitudes 1-6
    # the map: 16 x 22 hexes, 7 per flak field, 2 for the placed cloud, 1 for the balloon
    assert _map(page).count("<polygon") == 16 * 22 + 7 + 7 + 2 + 1
    assert ">flak A3</text>" in page and ">flak A2</text>" in page
    assert ">balloon A1</text>" in page and ">cloud A2-3</text>" in page
    # every special condition the engine logged is in the log with its dice
    special = [e for e in battle.log if e["e"] in SPECIAL]
    assert {e["e"] for e in special} >= {"clouds", "clouds_check", "flak", "illumination"}
    said = sentences(battle.log, context_for(battle.setup, battle_crews(battle)))
    for event, text in zip(battle.log, said, strict=True):
        if event["e"] in SPECIAL:
            assert escape(text) in page, text


def test_a_battle_without_optional_rules_says_so(client, catalog):
    battle = _flown({}, seed=12)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "optional rules in force: none" in page
    axis, allied = battle.setup["territory"]  # the book's scenario's own
    assert f"territory: axis {axis}, allied {allied}" in page
    assert _map(page).count("<polygon") == 16 * 22 and 'class="flak"' not in page


def test_a_waiting_battle_already_shows_its_rules(client, catalog):
    battle = services.battle_create(
        scenario="dogfight",
        seed=1,
        resolve=False,
        settings={"rules": {"random_clouds": True, "night": "moonlight", "later_sixes": True}},
    )
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "<strong>clouds, moonlight, later-edition sixes</strong>" in page
    assert "rolled on the random cloud chart when the battle is flown" in page


def test_each_special_condition_reads_with_its_dice():
    ctx = {
        "planes": {
            0: "#0 Bf 110 (Ltn Vogel)",
            1: "#1 Hurricane (average pilot)",
            2: "#2 Spitfire (P/O Smith)",
            3: "#3 Do 17 (veteran pilot)",
        }
    }
    lines = {
        "Turn 1: cloud bands (rolled on the random cloud chart, d6 rolled 3): altitude 1 clear, altitude 2 heavy, altitude 3 light, altitude 4 clear, altitude 5 clear, altitude 6 clear.": {
            "e": "clouds", "bands": ["clear", "heavy", "light", "clear", "clear", "clear"], "roll": 3},
        "Turn 1: #2 Spitfire (P/O Smith) tries to enter a heavy cloud band: d6 rolled 4, needed 3+: in the clouds.": {
            "e": "clouds_check", "plane": 2, "band": "heavy", "roll": 4, "need": 3, "in_clouds": True},
        "Turn 1: #0 Bf 110 (Ltn Vogel) ends its move in a solid cloud band and is in the clouds.": {
            "e": "clouds_check", "plane": 0, "band": "solid", "roll": None, "need": None, "in_clouds": True},
        "Turn 1: #1 Hurricane (average pilot) flies through flak in hex (8, 10) at altitude 3: d6 rolled 5, not attacked (a 1 is needed).": {
            "e": "flak", "plane": 1, "hex": [8, 10], "alt": 3, "roll": 5, "attacked": False},
        "Turn 1: #1 Hurricane (average pilot) flies through flak in hex (8, 10) at altitude 3: d6 rolled 1, attacked with 3 dice needing 4+: d6 rolls 6, 4, 2 → 3 hits against armor 3 and vital armor 6: damaged.": {
            "e": "flak", "plane": 1, "hex": [8, 10], "alt": 3, "roll": 1, "attacked": True, "dice": 3,
            "target_number": 4, "rolls": [[6, 6, 2], [4, 4, 1], [2, 2, 0]], "hits": 3, "armor": 3,
            "vital_armor": 6, "outcome": "damage"},
        "Turn 1: #3 Do 17 (veteran pilot) meets a barrage balloon in hex (7, 11): d6 rolled 2, attacked: effect d6 rolled 6, destroyed.": {
            "e": "balloon", "plane": 3, "hex": [7, 11], "roll": 2, "attacked": True, "effect_roll": 6,
            "outcome": "destroyed"},
        "Turn 1, attack: aircraft share hex (5, 5) at altitude 2, midair collision check: #0 Bf 110 (Ltn Vogel) d6 rolled 1 (a possible collision), #3 Do 17 (veteran pilot) d6 rolled 2 (a possible collision): #0 Bf 110 (Ltn Vogel) and #3 Do 17 (veteran pilot) collide and are destroyed.": {
            "e": "collision", "hex": [5, 5], "alt": 2, "collided": [0, 3],
            "rolls": [{"plane": 0, "roll": 1, "possible": True}, {"plane": 3, "roll": 2, "possible": True}]},
        "Turn 1, attack: searchlights look for #2 Spitfire (P/O Smith): d6 rolled 3, needed 4+: not illuminated.": {
            "e": "illumination", "plane": 2, "roll": 3, "need": 4, "lit": False},
        "Turn 1, initiative: Allied fighter direction guides #2 Spitfire (P/O Smith), #3 Do 17 (veteran pilot).": {
            "e": "direction", "side": "allied", "planes": [2, 3]},
    }  # fmt: skip
    for line, event in lines.items():
        assert sentence({**event, "turn": 1}, ctx) == line


def test_frames_mark_aircraft_in_the_clouds_illuminated_and_directed(catalog):
    setup = scenarios.build_scenario(kind="dogfight", flights={}, settings={}, seed=1).to_json()
    log = [
        {"e": "direction", "side": "axis", "planes": [0], "turn": 1},
        {"e": "clouds_check", "plane": 1, "band": "solid", "roll": None, "need": None, "in_clouds": True, "turn": 1},
        {"e": "illumination", "plane": 2, "roll": 6, "need": 5, "lit": True, "turn": 1},
        {"e": "end_turn", "turn": 1},
        {"e": "direction", "side": "axis", "planes": [1], "turn": 2},
        {"e": "activate", "plane": 1, "hex": [3, 3], "facing": 0, "alt": 2, "speed": 2, "turn": 2},
    ]  # fmt: skip
    frames = frames_from_log(log, setup)
    marks = [
        {p["plane"]: (p["directed"], p["cloud"], p["lit"]) for p in f["aircraft"]} for f in frames
    ]
    assert marks[0][0] == (True, False, False) and marks[0][1] == (False, False, False)
    assert marks[1][1] == (False, True, False)  # in the clouds until it moves again
    assert marks[2][2] == (False, False, True)  # illuminated until the end of the game turn
    assert marks[3][2] == (False, False, False)
    assert marks[4][0][0] is False and marks[4][1] == (True, True, False)  # direction reassigned
    assert marks[5][1] == (True, False, False)  # moving again: out of the clouds

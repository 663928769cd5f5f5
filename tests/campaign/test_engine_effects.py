"""Engine engagements carry the card game's effects and fly any size of mission
(campaign.engagements.engagement_battle_ensure; rulings "Engine engagements: ...")."""

from __future__ import annotations

import pytest

from battles.models import Battle
from battles.scenarios import engine_quality
from campaign import engagements, services
from campaign.engagements import engagement_battle_ensure
from campaign.planes import sync_planes
from careers.models import PilotEvent
from demo.roster import demo_roster_create
from roster.models import Squadron
from rules.angels20 import Scenario
from rules.angels20.stats import PILOT_QUALITIES
from rules.cardgame import ALLIED, AXIS, Advance, Assign, GameState, PlayEvent, ScrambleFighter
from rules.cardgame.state import ASSIGN, AWAITING_RESULT, MISSION
from rules.dice import ScriptedDice

pytestmark = pytest.mark.django_db

CONVOY = "Attack Ground Convoy"  # G1: one plane with GF flies it
ALLIED_15 = (
    ["Lockheed P-38 Lightning"] * 2 + ["P-47 Thunderbolt"] * 2 + ["P-51 Mustang"] * 2
    + ["Supermarine Spitfire"] * 3 + ["Hawker Hurricane"] * 2 + ["Bell P-39 Airacobra",
    "Curtis P-40 Warhawk", "Bristol Beaufighter", "Hawker Typhoon"]
)  # fmt: skip
AXIS_15 = (
    ["Messerschmitt Bf 109"] * 7 + ["Focke Wulf FW 190"] * 4 + ["Messerschmitt Me 262"] * 2
    + ["Messerschmitt Bf 110"] * 2
)  # fmt: skip


@pytest.fixture
def campaign(catalog, users):
    demo_roster_create()
    return services.campaign_create(
        name="Big Week", created_by=users["organiser"], seed=12, resolution_mode="engine",
        squadrons=list(Squadron.objects.all()),
        auto_advance=False,  # the tests stack the decks of its first turns and advance by hand
    )  # fmt: skip


def _to_top(state: GameState, deck: str, name: str) -> None:
    pile, discard = state._piles(deck)
    for source in (pile, discard):
        for cid in source:
            if state.card_name(cid) == name:
                source.remove(cid)
                pile.insert(0, cid)
                return
    raise AssertionError(f"{name} not in {deck}")


def _waiting(campaign, attack, defend, *, hands=None, plays=()) -> GameState:
    """The campaign's game at its allied Mission phase, ``attack`` flying an Attack Ground
    Convoy, every ``defend`` fighter scrambled, ``plays`` = (side, card, plane index or
    None, option) played; then the windows close and the game waits for the engine."""
    state = GameState.from_json(campaign.state)
    state.active, state.turns_taken = ALLIED, {ALLIED: 1, AXIS: 1}
    planes = {}
    for side, names in ((ALLIED, attack), (AXIS, defend)):
        ids = []
        for name in names:
            _to_top(state, f"plane:{side}", name)
            ids += state._put_planes_in_play(side, 1, "test")
        planes[side] = ids
    _to_top(state, "mission", CONVOY)
    state._put_missions_in_play(1, "test")
    mission = next(m for m in state.missions_in_play if state.card_name(m) == CONVOY)
    for side, names in (hands or {}).items():
        for name in names:
            source = next(
                pile
                for pile in (state.event_deck, state.event_discard, *state.hands.values())
                if any(state.card_name(c) == name for c in pile)
            )
            cid = next(c for c in source if state.card_name(c) == name)
            source.remove(cid)
            state.hands[side].append(cid)
    state.phase, state.step, state.priority, state.passes = MISSION, ASSIGN, ALLIED, 0
    for pid in planes[ALLIED]:
        state.apply(Assign(ALLIED, pid, mission))
    state.apply(Advance(ALLIED))
    for pid in planes[AXIS]:
        state.apply(ScrambleFighter(AXIS, pid))
    for side, card, index, option in plays:
        if state.current_side() != side:
            state.apply(Advance(state.current_side()))
        cid = next(c for c in state.hands[side] if state.card_name(c) == card)
        target = "" if index is None else planes[index[0]][index[1]]
        state.apply(PlayEvent(side, cid, target, option))
    while state.step != AWAITING_RESULT:
        state.apply(Advance(state.current_side()))
    campaign.state = state.to_json()
    campaign.save(update_fields=["state"])
    sync_planes(campaign, state, actor="")
    return state


def _fly(campaign, state, capture) -> Battle:
    with capture(execute=True):
        battle = engagement_battle_ensure(campaign=campaign, state=state)
    battle.refresh_from_db()
    return battle


@pytest.mark.parametrize(
    "n", [15]
)  # (8 and 15 a side fly in tests/rules/angels20/test_interception.py)
def test_a_mission_of_any_size_is_flown_to_the_end(n, campaign, django_capture_on_commit_callbacks):
    state = _waiting(campaign, ALLIED_15[:n], AXIS_15[:n])
    battle = _fly(campaign, state, django_capture_on_commit_callbacks)
    assert battle.status == "finished", battle.error
    scenario = Scenario.from_json(battle.setup)
    assert (scenario.width, scenario.height) == (16, 22 + 2 * 2 * (-(-n // 7) - 1))
    assert len(battle.result["aircraft"]) == 2 * n
    # the result went back into the game, which moved on
    campaign.refresh_from_db()
    after = GameState.from_json(campaign.state)
    assert after.step != AWAITING_RESULT and after.engagements[-1]["mode"] == "engine"


def test_the_cards_in_play_change_the_engines_set_up(
    campaign, users, client, django_capture_on_commit_callbacks
):
    hands = {AXIS: ["Radar Towers", "Heavy Flak"], ALLIED: ["Out of the Sun"]}
    plays = [(AXIS, "Radar Towers", None, ""), (AXIS, "Heavy Flak", None, ""),
             (ALLIED, "Out of the Sun", (ALLIED, 0), "")]  # fmt: skip
    names = (
        ["Supermarine Spitfire", "Hawker Hurricane"],
        ["Messerschmitt Bf 109", "Focke Wulf FW 190"],
    )
    state = _waiting(campaign, *names, hands=hands, plays=plays)
    battle = _fly(campaign, state, django_capture_on_commit_callbacks)
    setup = {a["pilot_ref"]: a for a in battle.setup["aircraft"]}
    spit, hurri, bf109, fw190 = (setup[f"plane:{p}"] for p in state.flown | state.scrambled)
    assert spit["altitude"] == 3 + 2  # Out of the Sun
    assert hurri["altitude"] == 3
    assert bf109["altitude"] == fw190["altitude"] == 4 + 1  # Radar Towers
    # the Fw 190 is NF: a defending night fighter flies one quality better, with the ability
    assert (
        "Night Fighter" in fw190["stats"]["abilities"]
        and "Night Fighter" in hurri["stats"]["abilities"]
    )
    fw_id = next(iter(state.scrambled.keys() - {bf109["pilot_ref"].removeprefix("plane:")}))
    row = campaign.planes.select_related("pilot").get(plane_id=fw_id)
    base = engine_quality(row.pilot) if row.pilot else "average"
    assert fw190["pilot"] == PILOT_QUALITIES[min(PILOT_QUALITIES.index(base) + 1, 3)]
    # flak: 1 + Heavy Flak, rolled before the first turn
    assert battle.setup["card_flak"]["rolls"] == 2
    assert len([e for e in battle.log if e["e"] == "card_flak"]) == 2
    # the report replays the battle, flak rolls included
    client.force_login(users["organiser"])
    page = client.get(f"/battles/{battle.pk}/")
    assert (
        page.status_code == 200
        and "flak over the target, roll 1: d10 rolled" in page.content.decode()
    )


def test_without_cards_the_set_up_is_the_old_one(campaign, django_capture_on_commit_callbacks):
    names = (["Supermarine Spitfire", "Hawker Hurricane"], ["Messerschmitt Bf 109"])
    state = _waiting(campaign, *names)
    battle = _fly(campaign, state, django_capture_on_commit_callbacks)
    placed = [(a["col"], a["row"], a["altitude"], a["facing"]) for a in battle.setup["aircraft"]]
    assert placed == [(2, 19, 3, 0), (4, 19, 3, 0), (2, 2, 4, 3)]
    assert (battle.setup["width"], battle.setup["height"]) == (16, 22)
    assert battle.setup["card_flak"] == {"rolls": 1, "af": 7, "targets": [0, 1]}


@pytest.mark.parametrize("die,lost", [(7, 1), (6, 0)])
def test_flak_still_fires_at_a_mission_nobody_intercepts(
    die, lost, campaign, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(engagements, "Dice", lambda seed: ScriptedDice([die]))
    state = _waiting(campaign, ["Supermarine Spitfire", "Lockheed P-38 Lightning"], [])
    with django_capture_on_commit_callbacks(execute=True):
        assert engagement_battle_ensure(campaign=campaign, state=state) is None
    campaign.refresh_from_db()
    after = GameState.from_json(campaign.state)
    last = after.engagements[-1]
    # the card game's own flak roll, so a card loss: the roster rolls the pilot's fate
    assert last["mode"] == "card" and len(last["losses"]) == lost
    assert [k["shooter_id"] for k in last["kills"]] == ["flak"] * lost
    assert last["dice"] == [["flak 1", 10, die]]
    shot_down = PilotEvent.objects.filter(campaign=campaign, kind="shot_down")
    assert shot_down.count() == lost
    if lost:
        plane = campaign.planes.get(plane_id=last["losses"][0])
        assert shot_down.get().pilot_id == plane.pilot_id and plane.left_turn is not None

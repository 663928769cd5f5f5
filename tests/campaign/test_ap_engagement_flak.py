"""A campaign flown under Air Pirates with Heavy Flak in play (issue 26; ruling "Air Pirates
engagements: the card game's effects"): the engagement's battle rolls the card game's flak
before it starts, its log shows each roll, the attacker it shoots down is credited to nobody,
and the loss reaches the pilot's career; Radar Towers lifts the defenders."""

from __future__ import annotations

import pytest

from campaign import services
from careers.models import PilotEvent
from demo.roster import demo_roster_create
from roster.models import Squadron
from rules.airpirates import interception as ic
from rules.cardgame import AXIS, GameState
from rules.cardgame.state import AWAITING_RESULT
from rules.dice import ScriptedDice
from tests.campaign.test_engine_effects import _fly, _waiting

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(catalog, users):
    demo_roster_create()
    return services.campaign_create(
        name="Channel Front", created_by=users["organiser"], seed=12, resolution_mode="engine",
        squadrons=list(Squadron.objects.all()), auto_advance=False, tactical_system="airpirates",
    )  # fmt: skip


def test_heavy_flak_shoots_down_an_attacker_before_the_battle_and_careers_see_it(
    campaign, users, client, monkeypatch, django_capture_on_commit_callbacks
):
    # the flak's dice fixed: the first roll (7) hits, the second (6) misses
    monkeypatch.setattr(ic, "flak_dice", lambda seed: ScriptedDice([7, 6]))
    hands = {AXIS: ["Heavy Flak", "Radar Towers"]}
    plays = [(AXIS, "Heavy Flak", None, ""), (AXIS, "Radar Towers", None, "")]
    names = (
        ["Supermarine Spitfire", "Hawker Hurricane"],
        ["Messerschmitt Bf 109", "Focke Wulf FW 190"],
    )
    state = _waiting(campaign, *names, hands=hands, plays=plays)
    # the flak takes the attacker with fewest experience markers, ties in mission order
    attackers = state.engagement_input["attackers"]
    order = [c["plane_id"] for c in sorted(attackers, key=lambda c: c["experience"])]
    battle = _fly(campaign, state, django_capture_on_commit_callbacks)
    assert battle.system == "airpirates" and battle.status == "finished", battle.error
    assert battle.apply_error == ""
    # the set-up: 1 + Heavy Flak rolls at AF 7; Radar Towers: the interceptors one level up
    assert battle.setup["card_flak"] == {"rolls": 2, "af": 7, "targets": [1, 2]}
    units = battle.setup["units"]
    assert [u["altitude"] for u in units] == [3, 3, 5, 5]
    # the log: both rolls before the first placing, the hit eliminating an attacker
    flak = [e for e in battle.log if e["event"] == "flak roll"]
    assert [(e["roll"], e["hit"]) for e in flak] == [(7, True), (6, False)]
    victim = flak[0]["unit"]
    assert units[victim - 1]["pilot_ref"] == f"plane:{order[0]}"
    first_place = next(i for i, e in enumerate(battle.log) if e["event"] == "placed")
    gone = next(i for i, e in enumerate(battle.log) if e["event"] == "eliminated")
    assert gone < first_place and battle.log[gone]["unit"] == victim
    bail = next(e for e in battle.log if e["event"] == "bail-out" and e["unit"] == victim)
    # the result: destroyed by nobody, its pilot's 13c1 bail-out, no kill for anyone
    lost = next(a for a in battle.result["aircraft"] if a["id"] == victim)
    assert lost["fate"] == "destroyed" and lost["destroyed_by"] is None
    assert lost["bailout"]["roll"] == bail["roll"]
    assert all(k["target"] != victim for k in battle.result["kills"])
    # careers: the loss is the victim's pilot's, with no one's kill for it
    campaign.refresh_from_db()
    after = GameState.from_json(campaign.state)
    assert after.step != AWAITING_RESULT
    assert order[0] in after.engagements[-1]["losses"]
    plane = campaign.planes.select_related("pilot").get(plane_id=order[0])
    events = PilotEvent.objects.filter(applied_result__source_key=f"battle:{battle.pk}")
    assert events.filter(kind="shot_down", pilot=plane.pilot).count() == 1
    assert events.filter(kind="kill").count() == len(battle.result["kills"])
    assert not events.filter(kind="kill", details__victim_pilot_id=plane.pilot_id).exists()
    # the report tells the flak in words
    client.force_login(users["organiser"])
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert f"Flak roll 1: d10 7 against AF 7: unit {victim} is shot down by the flak." in page

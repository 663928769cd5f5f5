"""engagement_apply: one transaction, exactly once, every consequence logged with its dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from angels.errors import RuleViolation
from careers.models import AppliedResult, PilotEvent
from careers.records import EngagementRecord, FlownRecord, KillRecord, record_from_engine_result
from careers.selectors import battle_report_url
from careers.services import award_define, engagement_apply
from roster.models import Airframe, PilotStatus
from rules.dice import ScriptedDice

from .conftest import refresh


def _loss(pilot, *, territory="allied", turn=3, **flown):
    return EngagementRecord(
        mode="engine", battle_ref="B-1", campaign_turn=turn, territory=territory,
        flown=(FlownRecord(pilot_id=pilot.pk, aircraft="Supermarine Spitfire", destroyed=True, **flown),),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("territory", "script", "outcome", "status", "until"),
    [
        ("allied", [6], "returned", PilotStatus.ACTIVE, None),  # 6+1 = 7
        (
            "allied",
            [3, 4],
            "wounded",
            PilotStatus.WOUNDED,
            3 + 2,
        ),  # 3+1 = 4 bare: wound d6 4 -> 2 turns
        ("allied", [1, 5, 2], "seriously_wounded", PilotStatus.WOUNDED, 3 + 5),  # fate 5, wound 2+3
        ("allied", [1, 2], "killed", PilotStatus.KILLED, None),  # fate 1-3
        ("axis", [6], "captured", PilotStatus.CAPTURED, None),  # survives over enemy ground
        ("neutral", [5, 2], "missing", PilotStatus.MISSING, None),  # rescue d6 2 fails
    ],
)
def test_angels20_survival_outcomes_reach_the_pilot(
    cast, territory, script, outcome, status, until
):
    bader = cast["Bader"]
    applied, created = engagement_apply(
        source_key=f"t:{outcome}", result=_loss(bader, territory=territory), campaign=cast["campaign"],
        dice=ScriptedDice(script),
    )  # fmt: skip
    refresh(bader)
    assert created and applied.summary[str(bader.pk)]["outcome"] == outcome
    assert bader.status == status and bader.wounded_until_turn == until
    roll = PilotEvent.objects.get(pilot=bader, kind="survival_roll")
    assert roll.details["outcome"] == outcome and [d[2] for d in roll.dice] == script
    assert roll.campaign_id == cast["campaign"].pk and roll.battle_ref == "B-1"
    assert PilotEvent.objects.filter(pilot=bader, kind="shot_down").count() == 1
    assert Airframe.objects.get(serial="S-Bader").state == "destroyed"


@pytest.mark.parametrize(
    ("cockpit", "script", "outcome"),
    [
        (0, [5], "returned"),
        (1, [4, 6], "wounded"),
        (2, [2, 1], "seriously_wounded"),
        (2, [3], "killed"),
    ],
)
def test_air_force_bailing_out_through_the_service(cast, cockpit, script, outcome):
    campaign = cast["campaign"]
    campaign.survival_rule = "air_force"
    bader = cast["Bader"]
    engagement_apply(source_key="af", result=_loss(bader, cockpit_hits=cockpit), campaign=campaign,
                     dice=ScriptedDice(script))  # fmt: skip
    assert PilotEvent.objects.get(pilot=bader, kind="survival_roll").details["outcome"] == outcome


@pytest.mark.parametrize(
    ("flown", "script", "outcome"),
    [
        ({"crew_hits": 2}, [], "killed"),
        ({"crew_hits": 1}, [8, 2], "wounded"),  # 8-3 = 5 bails out; wound d6 2 -> 1 turn
        ({"fires": 1}, [6], "killed"),  # 6-2 = 4
        ({"fires": 1, "bailed_out_early": True}, [5], "returned"),  # 5-2+2
    ],
)
def test_air_pirates_bail_out_through_the_service(cast, flown, script, outcome):
    bader = cast["Bader"]
    record = replace(_loss(bader, **flown), survival_rule="air_pirates")
    engagement_apply(source_key="ap", result=record, dice=ScriptedDice(script))
    refresh(bader)
    assert PilotEvent.objects.get(pilot=bader, kind="survival_roll").details["outcome"] == outcome


def test_applying_the_same_result_twice_changes_nothing(cast):
    bader, molders = cast["Bader"], cast["Mölders"]
    record = EngagementRecord(
        mode="engine", battle_ref="B-2", campaign_turn=2, territory="allied",
        flown=(FlownRecord(pilot_id=bader.pk, damage=2), FlownRecord(pilot_id=molders.pk, destroyed=True)),
        kills=(KillRecord(shooter_pilot_id=bader.pk, victim_pilot_id=molders.pk, victim_aircraft="Messerschmitt Bf 109", turn=4),),
    )  # fmt: skip
    first, created = engagement_apply(
        source_key="engine:9", result=record, campaign=cast["campaign"]
    )
    events = PilotEvent.objects.count()
    refresh(bader, molders)
    state = (bader.air_kills, bader.experience_markers, molders.status, molders.experience_markers)
    again, created_again = engagement_apply(
        source_key="engine:9", result=record, campaign=cast["campaign"]
    )
    refresh(bader, molders)
    assert created and not created_again and again.pk == first.pk
    assert PilotEvent.objects.count() == events and AppliedResult.objects.count() == 1
    assert (
        bader.air_kills,
        bader.experience_markers,
        molders.status,
        molders.experience_markers,
    ) == state
    assert state[:2] == (1, 1)
    kill = PilotEvent.objects.get(pilot=bader, kind="kill")
    assert kill.details["victim_aircraft"] == "Messerschmitt Bf 109" and kill.details["turn"] == 4
    assert kill.battle_ref == "B-2" and kill.campaign_turn == 2


def test_the_seed_comes_from_the_campaign_s_seed_and_the_source_key_so_rolls_replay(cast):
    from careers.services.progress import _seed_for
    from rules.dice import derive_seed

    campaign = cast["campaign"]
    key = f"card:{campaign.pk}:allied-1:3"
    applied, _ = engagement_apply(source_key=key, result=_loss(cast["Bader"]), campaign=campaign)
    # the campaign's database id is not part of it: the same campaign replays alike anywhere
    assert applied.seed == _seed_for(key, campaign) == derive_seed(campaign.seed, "card:allied-1:3")
    outside, _ = engagement_apply(source_key="replay:1", result=_loss(cast["Tuck"]))
    assert outside.seed == _seed_for("replay:1") == derive_seed(0, "replay:1")


def test_a_bad_record_names_field_and_rule_and_stores_nothing(cast):
    bad = EngagementRecord(mode="engine", battle_ref="B", flown=(FlownRecord(pilot_id=999999),))
    with pytest.raises(RuleViolation) as err:
        engagement_apply(source_key="bad", result=bad)
    assert err.value.field == "flown[0].pilot_id" and err.value.code == "exists"
    assert not AppliedResult.objects.exists()
    cast["Bader"].status = PilotStatus.KILLED
    cast["Bader"].save()
    with pytest.raises(RuleViolation) as err:
        engagement_apply(source_key="bad", result=_loss(cast["Bader"]))
    assert err.value.code == "state" and not AppliedResult.objects.exists()


def test_air_force_progression_novice_average_ace_as_the_roster_sees_it(cast):
    bader = cast["Bader"]
    bader.quality = bader.entry_quality = "novice"
    bader.save()
    victims = [cast["Mölders"], cast["Balthasar"]]
    qualities = []
    for n in range(6):
        record = EngagementRecord(
            mode="engine", battle_ref=f"P{n}", flown=(FlownRecord(pilot_id=bader.pk),),
            kills=(KillRecord(shooter_pilot_id=bader.pk, victim_aircraft="Messerschmitt Bf 109"),),
        )  # fmt: skip
        engagement_apply(source_key=f"p{n}", result=record, campaign=cast["campaign"])
        refresh(bader)
        qualities.append(bader.quality)
    assert victims  # the kills are of unrostered aircraft
    # 001 XIX: novice -> average after 1 kill, -> ace after 5 more.
    assert qualities == ["average", "average", "average", "average", "average", "ace"]
    assert bader.experience  # 5 missions: the Experience characteristic (001 XIX)
    kinds = list(PilotEvent.objects.filter(pilot=bader).values_list("kind", flat=True))
    assert kinds.count("quality") == 2 and kinds.count("ace") == 1 and "characteristic" in kinds


@pytest.mark.parametrize(
    ("scale", "entry", "missions", "kills", "quality"),
    [
        ("card_game", "poor", 1, 0, "poor"), ("card_game", "poor", 2, 0, "average"),
        ("card_game", "poor", 5, 0, "veteran"), ("card_game", "poor", 9, 0, "ace"),
        ("air_force", "average", 1, 4, "average"), ("air_force", "average", 1, 5, "ace"),
        ("air_pirates", "green", 1, 1, "inexperienced"), ("air_pirates", "green", 1, 2, "average"),
        ("air_pirates", "green", 1, 4, "experienced"), ("air_pirates", "average", 1, 5, "ace"),
        ("air_pirates", "green", 5, 0, "inexperienced"),
    ],
)  # fmt: skip
def test_each_rule_sets_thresholds_as_the_roster_sees_them(
    cast, scale, entry, missions, kills, quality
):
    pilot = cast["Tuck"]
    pilot.quality_scale, pilot.quality, pilot.entry_quality = scale, entry, entry
    pilot.experience_markers, pilot.air_kills = missions - 1, kills
    pilot.save()
    engagement_apply(source_key="thr", result=EngagementRecord(mode="table", battle_ref="T",
                     flown=(FlownRecord(pilot_id=pilot.pk),)), campaign=cast["campaign"])  # fmt: skip
    refresh(pilot)
    assert pilot.experience_markers == missions and pilot.quality == quality


def test_awards_are_granted_automatically_once_and_logged(cast):
    campaign = cast["campaign"]
    award_define(
        campaign=campaign, name="Ritterkreuz", nation="Germany", threshold_kind="kills", threshold=2
    )
    award_define(
        campaign=campaign,
        name="DFC",
        nation="United Kingdom",
        threshold_kind="missions",
        threshold=2,
    )
    molders, bader = cast["Mölders"], cast["Bader"]
    for n in range(3):
        record = EngagementRecord(
            mode="engine", battle_ref=f"A{n}", flown=(FlownRecord(pilot_id=molders.pk), FlownRecord(pilot_id=bader.pk)),
            kills=(KillRecord(shooter_pilot_id=molders.pk, victim_aircraft="Hawker Hurricane"),),
        )  # fmt: skip
        engagement_apply(source_key=f"a{n}", result=record, campaign=campaign)
    assert list(molders.awards.values_list("name", flat=True)) == ["Ritterkreuz"]
    assert list(bader.awards.values_list("name", flat=True)) == ["DFC"]
    assert PilotEvent.objects.filter(kind="award").count() == 2


def test_an_engine_result_converts_and_shows_on_the_pilots_pages_and_the_leaderboard(cast, client):
    bader, molders = cast["Bader"], cast["Mölders"]
    result = {
        "aircraft": [
            {"id": "a1", "name": "Supermarine Spitfire", "side": "allied", "pilot_ref": "p-bader", "fate": "intact", "damage": 1},
            {"id": "x1", "name": "Messerschmitt Bf 109", "side": "axis", "pilot_ref": "p-molders", "fate": "destroyed", "damage": 3},
            {"id": "x2", "name": "Bomber token", "side": "axis", "pilot_ref": None, "fate": "retreated"},
        ],
        "kills": [{"attacker": "a1", "attacker_pilot_ref": "p-bader", "target": "x1", "target_pilot_ref": "p-molders", "turn": 2}],
    }  # fmt: skip
    record = record_from_engine_result(result, battle_ref="Battle #7", pilot_ids={"p-bader": bader.pk, "p-molders": molders.pk},
                                       territory="allied", campaign_turn=5)  # fmt: skip
    assert EngagementRecord.from_json(record.to_json()) == record
    applied, _ = engagement_apply(
        source_key="battle:7", result=record, campaign=cast["campaign"], dice=ScriptedDice([1, 2])
    )
    refresh(bader, molders)
    assert bader.air_kills == 1 and molders.status == PilotStatus.KILLED
    assert (
        PilotEvent.objects.get(pilot=bader, kind="kill").details["victim_aircraft"]
        == "Messerschmitt Bf 109"
    )
    assert battle_report_url(applied) == "/battles/7/"
    page = client.get(f"/pilots/{bader.pk}/").content.decode()
    assert 'href="/battles/7/"' in page and "Battle #7" in page
    assert "Bader" in client.get(f"/aces/?campaign={cast['campaign'].pk}").content.decode()
    assert "Killed" in client.get(f"/pilots/{molders.pk}/").content.decode()


@pytest.mark.parametrize(
    ("scale", "quality", "engine"),
    [("air_force", "novice", "poor"), ("air_force", "ace", "ace"), ("air_pirates", "experienced", "veteran"),
     ("card_game", "veteran", "veteran")],
)  # fmt: skip
def test_the_engine_flies_the_pilot_with_the_quality_the_rule_set_maps(
    cast, scale, quality, engine
):
    from roster.selectors import pilot_for_engine

    pilot = cast["Lacey"]
    pilot.quality_scale, pilot.quality, pilot.vision = scale, quality, True
    profile = pilot_for_engine(pilot)
    assert profile["quality"] == engine and profile["characteristics"]["vision"]
    assert profile["pilot_ref"] == str(pilot.pk)

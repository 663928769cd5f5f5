"""Table mode: a battle entered by hand, claims confirmed or denied by the organiser."""

from __future__ import annotations

import pytest

from angels.errors import RuleViolation
from careers.models import Claim, PilotEvent
from careers.services import award_define, claim_confirm, claim_deny, table_battle_record
from roster.models import PilotStatus

from .conftest import refresh


def _battle(cast, **kw):
    bader, molders, balthasar = cast["Bader"], cast["Mölders"], cast["Balthasar"]
    data = dict(
        name="Over Dover", system="angels20", territory="allied", campaign=cast["campaign"], campaign_turn=2,
        flights=[{"pilot_id": bader.pk, "aircraft": "Supermarine Spitfire", "damage": 1},
                 {"pilot_id": cast["Tuck"].pk},
                 {"pilot_id": molders.pk, "aircraft": "Messerschmitt Bf 109"},
                 {"pilot_id": balthasar.pk, "retreated": True}],
        kills=[{"victim_pilot_id": molders.pk, "attacks": [[cast["Tuck"].pk, 2], [bader.pk, 3]]}],
        damages=[{"pilot_id": cast["Tuck"].pk, "victim_pilot_id": balthasar.pk, "turn": 1}],
        recorded_by="orga",
    )  # fmt: skip
    data.update(kw)
    return table_battle_record(**data)


def test_the_kill_is_claimed_for_the_last_to_fire_and_counts_only_when_confirmed(cast):
    battle = _battle(cast)
    bader, tuck, molders = cast["Bader"], cast["Tuck"], cast["Mölders"]
    refresh(bader, tuck, molders)
    states = {(c.pilot_id, c.state) for c in battle.claims.all()}
    assert states == {(bader.pk, "claimed"), (tuck.pk, "damaged")}
    assert bader.air_kills == 0 and bader.unconfirmed_kills == 1
    assert bader.experience_markers == 1
    assert PilotEvent.objects.filter(
        pilot=molders, kind="survival_roll"
    ).exists()  # shot down: survival rolled
    assert PilotEvent.objects.filter(pilot=bader, kind="damaged").exists()
    claim = battle.claims.get(pilot=bader)
    claim_confirm(claim_id=claim.pk, by="orga")
    refresh(bader)
    assert bader.air_kills == 1 and bader.unconfirmed_kills == 0
    kill = PilotEvent.objects.get(pilot=bader, kind="kill")
    assert (
        kill.details["victim_aircraft"] == "Messerschmitt Bf 109"
        and kill.battle_ref == "Table: Over Dover"
    )
    assert kill.campaign_turn == 2 and kill.details["turn"] == 3


def test_a_tie_for_last_attack_is_settled_by_a_recorded_die(cast):
    bader, tuck, molders = cast["Bader"], cast["Tuck"], cast["Mölders"]
    battle = _battle(
        cast,
        kills=[{"victim_pilot_id": molders.pk, "attacks": [[tuck.pk, 3], [bader.pk, 3]]}],
        damages=[],
    )
    claimed = battle.claims.get(state="claimed")
    shared = battle.claims.get(state="shared")
    assert {claimed.pilot_id, shared.pilot_id} == {bader.pk, tuck.pk}
    assert claimed.credit["rolls"] and all(r[1] == 6 for r in claimed.credit["rolls"])
    claim_confirm(claim_id=claimed.pk, by="orga")
    with pytest.raises(RuleViolation) as err:
        claim_confirm(claim_id=shared.pk, by="orga")
    assert err.value.code == "conflict"


def test_a_claim_denied_after_confirmation_removes_the_kill_the_ace_and_the_award(cast):
    campaign = cast["campaign"]
    award_define(
        campaign=campaign, name="DFC", nation="United Kingdom", threshold_kind="kills", threshold=5
    )
    bader = cast["Bader"]
    bader.air_kills = 4
    bader.save()
    battle = _battle(cast)
    claim = battle.claims.get(pilot=bader)
    claim_confirm(claim_id=claim.pk, by="orga")
    refresh(bader)
    assert bader.air_kills == 5 and bader.is_ace and bader.quality == "ace"
    assert list(bader.awards.values_list("name", flat=True)) == ["DFC"]
    claim_deny(claim_id=claim.pk, by="orga", reason="gun camera shows no hits")
    refresh(bader)
    claim.refresh_from_db()
    assert claim.state == "denied" and claim.was_confirmed
    assert bader.air_kills == 4 and not bader.is_ace and bader.quality == "average"
    assert not bader.awards.exists()
    kinds = set(PilotEvent.objects.filter(pilot=bader).values_list("kind", flat=True))
    assert {"kill_denied", "ace_lost", "award_revoked"} <= kinds
    denied = PilotEvent.objects.get(pilot=bader, kind="kill_denied")
    assert denied.details["reason"] == "gun camera shows no hits" and denied.recorded_by == "orga"


def test_a_denial_needs_a_reason_and_a_damaged_claim_is_not_a_kill(cast):
    battle = _battle(cast)
    damaged = battle.claims.get(state="damaged")
    with pytest.raises(RuleViolation) as err:
        claim_confirm(claim_id=damaged.pk, by="orga")
    assert (err.value.field, err.value.code) == ("state", "state")
    with pytest.raises(RuleViolation) as err:
        claim_deny(claim_id=damaged.pk, by="orga", reason=" ")
    assert (err.value.field, err.value.code) == ("reason", "required")


def test_crew_hits_only_where_the_system_has_them(cast):
    with pytest.raises(RuleViolation) as err:
        _battle(
            cast, flights=[{"pilot_id": cast["Bader"].pk, "crew_hits": 1}], kills=[], damages=[]
        )
    assert (err.value.field, err.value.code) == ("flights[0].crew_hits", "invalid")
    assert not Claim.objects.exists()


def test_air_pirates_crew_hits_and_fires_feed_the_survival_roll(cast):
    cast["campaign"].survival_rule = "air_pirates"
    molders = cast["Mölders"]
    battle = _battle(
        cast, system="air_pirates",
        flights=[{"pilot_id": cast["Bader"].pk}, {"pilot_id": molders.pk, "crew_hits": 2, "fires": 1}],
        kills=[{"victim_pilot_id": molders.pk, "attacks": [[cast["Bader"].pk, 1]]}], damages=[],
    )  # fmt: skip
    refresh(molders)
    assert molders.status == PilotStatus.KILLED  # two crew hits: no bailing out (13c1)
    assert battle.applied_result.summary[str(molders.pk)]["outcome"] == "killed"


def test_a_claim_against_ones_own_side_is_refused(cast):
    with pytest.raises(RuleViolation) as err:
        _battle(
            cast,
            kills=[{"victim_pilot_id": cast["Tuck"].pk, "attacks": [[cast["Bader"].pk, 1]]}],
            damages=[],
        )
    assert err.value.code == "invalid"

"""Every kind of career entry reads as a sentence (careers.entry_sentences).

The entries are the rows the services write (engagement results, table battles and
the organiser's claims, acts, the turn hook, enrolment), so a service that starts
writing a detail no sentence reads fails here ("Also recorded"), and a new
PilotEventKind without a sentence, or without an example here, fails too."""

from __future__ import annotations

import re
from html import unescape

import pytest

from campaign.enrolment import enrolment_add
from campaign.models import Campaign
from careers.entry_sentences import SENTENCES, entry_sentence, with_sentences
from careers.models import PilotEvent, PilotEventKind
from careers.records import EngagementRecord, FlownRecord
from careers.services import (
    award_define,
    claim_confirm,
    claim_deny,
    engagement_apply,
    pilot_enlist,
    pilot_log,
    pilot_retire,
    pilot_revive,
    pilot_transfer,
    pilots_return_to_duty,
    table_battle_record,
)
from demo.campaign import demo_campaign_play
from demo.roster import demo_careers_create, demo_roster_create
from roster import campaign_hooks
from roster.services import squadron_create

from .conftest import refresh


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", str(html)))


# one example of every kind, and the words its sentence must say
EXPECTED: dict[str, list[str]] = {
    "joined": ["Joined No. 19 Squadron as an average pilot."],
    "mission": ["Flew mission 1 in a Supermarine Spitfire (table battle)."],
    "battle": ["Fought a battle in a Supermarine Spitfire (battle flown by the computer pilots)."],
    "kill": ["Flying a Supermarine Spitfire, shot down Mölders's Messerschmitt Bf 109 in game turn 3; credited to the last "
             "pilot to fire (Air Force rules).", "Confirmed: seen going down by Tuck."],
    "ground_credit": ["Credited with 2 ground targets destroyed."],
    "bombing_success": ["Bombed the target successfully in a Bristol Blenheim."],
    "damaged": ["The Supermarine Spitfire took 1 point of damage."],
    "shot_down": ["Shot down in a Messerschmitt Bf 109; airframe S-Mölders lost."],
    "survival_roll": ["Survival roll (Angels 20 pilot survival): d6="],
    "wounded": ["Seriously wounded: out for 2 campaign turns, back on turn 4."],
    "captured": ["Captured by the enemy."],
    "killed": ["Killed in action."],
    "missing": ["Missing in action."],
    "returned": ["Returned to duty (due back on turn 4)."],
    "quality": ["Promoted from average to ace under the Air Force rules (1 mission, "
                "5 confirmed kills and 5 kill credits)."],
    "transfer": ["Transferred from No. 19 Squadron to No. 303 Squadron. Posted to the Polish squadron."],
    "retired": ["Retired (was on duty). End of his tour."],
    "revived": ["Brought back on duty by the organiser (was retired). Recalled for the summer."],
    "award": ["Awarded the DFC for 5 kills."],
    "award_revoked": ["The DFC was taken back. Kill denied."],
    "ace": ["Became an ace with 5 confirmed kills."],
    "ace_lost": ["Lost ace status: down to 4 confirmed kills."],
    "kill_denied": ["The confirmed kill of Mölders's Messerschmitt Bf 109 (flying a Supermarine Spitfire) was taken back: "
                    "4 confirmed kills now. Gun camera shows no hits."],
    "characteristic": ["Gained the Experience characteristic: five missions completed (Air Force rules)."],
    "note": ["Enrolled in campaign 'Careers 1940'."],
}  # fmt: skip


@pytest.fixture
def logged(cast):
    """One of each kind of entry, written by the services."""
    campaign, raf = cast["campaign"], cast["raf"]
    bader, molders, tuck, lacey = cast["Bader"], cast["Mölders"], cast["Tuck"], cast["Lacey"]
    award_define(
        campaign=campaign, name="DFC", nation="United Kingdom", threshold_kind="kills", threshold=5
    )
    bader.air_kills = 4  # ace, the DFC and a promotion with his next kill
    bader.save()
    battle = table_battle_record(
        name="Over Dover", system="angels20", territory="allied", campaign=campaign, campaign_turn=2,
        flights=[{"pilot_id": bader.pk, "aircraft": "Supermarine Spitfire", "damage": 1},
                 {"pilot_id": molders.pk, "aircraft": "Messerschmitt Bf 109"}],
        kills=[{"victim_pilot_id": molders.pk, "attacks": [[bader.pk, 3]]}],
        recorded_by="orga",
    )  # fmt: skip
    claim = battle.claims.get(pilot=bader)
    claim_confirm(claim_id=claim.pk, by="orga", reason="seen going down by Tuck")
    claim_deny(claim_id=claim.pk, by="orga", reason="gun camera shows no hits")
    # fates decided elsewhere (the record's own survival outcome), strafing, bombing
    fates = {"seriously_wounded": tuck, "captured": cast["Balthasar"], "missing": lacey}
    flown = [
        FlownRecord(pilot_id=p.pk, destroyed=True, survival={"outcome": o, "wounded_turns": 2})
        for o, p in fates.items()
    ]
    killed = pilot_enlist(squadron=cast["jg"], name="Wick", quality_scale="air_force")
    flown.append(FlownRecord(pilot_id=killed.pk, destroyed=True, survival={"outcome": "killed"}))
    bomber = pilot_enlist(squadron=raf, name="Gibson", quality_scale="air_force")
    bomber.experience_markers = 4  # his fifth mission gives him Air Force Experience
    bomber.save()
    flown.append(
        FlownRecord(
            pilot_id=bomber.pk, aircraft="Bristol Blenheim", bombing_success=True, ground_targets=2
        )
    )
    engagement_apply(
        source_key="fates",
        result=EngagementRecord(mode="table", battle_ref="T", campaign_turn=2, flown=tuple(flown)),
        campaign=campaign,
    )
    refresh(tuck)
    tuck.enrolled_in = campaign
    tuck.save()
    pilots_return_to_duty(campaign_turn=4, campaign=campaign)
    polish = squadron_create(name="No. 303 Squadron", nation="Poland", side="allied")
    pilot_transfer(
        pilot_id=bomber.pk, squadron=polish, by="orga", reason="posted to the Polish squadron"
    )
    pilot_retire(pilot_id=bomber.pk, by="orga", reason="end of his tour")
    pilot_revive(pilot_id=bomber.pk, by="orga", reason="recalled for the summer")
    free = pilot_enlist(squadron=polish, name="Urbanowicz", quality_scale="air_force")
    enrolment_add(campaign=campaign, pilots=[free.pk], actor="orga")
    # no service writes "battle" entries (a kind kept for hand-written logs): the log's own writer
    pilot_log(
        pilot=bader, kind=PilotEventKind.BATTLE, campaign=campaign,
        details={"aircraft": "Supermarine Spitfire", "mode": "engine"},
    )  # fmt: skip
    return cast


def _first(kind: str) -> PilotEvent:
    return PilotEvent.objects.filter(kind=kind).select_related("campaign").order_by("id").first()


def test_every_kind_has_a_sentence_and_an_example():
    assert set(SENTENCES) == set(PilotEventKind.values)
    assert set(EXPECTED) == set(PilotEventKind.values)


def test_each_kind_of_entry_the_services_write_reads_as_a_sentence(logged):
    wrong = {}
    for kind, words in EXPECTED.items():
        event = _first(kind)
        assert event is not None, f"no service wrote a {kind} entry"
        text = _text(entry_sentence(event))
        missing = [w for w in words if w not in text]
        if missing or "Also recorded" in text or "_" in text:
            wrong[kind] = text
    assert wrong == {}


def test_every_entry_the_services_wrote_uses_every_detail(logged):
    """No real row falls back to listing keys: each builder reads what its services write."""
    for event in with_sentences(PilotEvent.objects.all()):
        text = _text(event.sentence)
        assert "Also recorded" not in text, (event.kind, event.details)
        said = [s for s in re.split(r"(?<=\.) ", text) if s]
        assert len(said) == len(set(said)), text  # nothing said twice


def test_an_outcome_the_record_brought_says_where_it_was_decided(logged):
    event = PilotEvent.objects.get(pilot=logged["Tuck"], kind="survival_roll")
    assert _text(entry_sentence(event)) == (
        "Survival decided in the table battle, over neutral territory: seriously wounded."
    )


def test_a_kill_links_its_victim_and_a_tie_names_the_dice(cast):
    bader, tuck, molders = cast["Bader"], cast["Tuck"], cast["Mölders"]
    battle = table_battle_record(
        name="Over Dover", system="angels20", territory="allied", campaign=cast["campaign"], campaign_turn=2,
        flights=[{"pilot_id": bader.pk}, {"pilot_id": tuck.pk}, {"pilot_id": molders.pk}],
        kills=[{"victim_pilot_id": molders.pk, "attacks": [[tuck.pk, 3], [bader.pk, 3]]}],
        recorded_by="orga", confirm=True,
    )  # fmt: skip
    kill = PilotEvent.objects.get(kind="kill")
    html = str(entry_sentence(kill))
    assert f'<a href="/pilots/{molders.pk}/">Mölders</a>' in html
    assert "a tie settled by the dice" in html and "d6 " in html
    assert battle.claims.filter(state="confirmed").count() == 1


def test_a_card_game_plane_is_named_by_who_flew_it(cast, monkeypatch):
    bader, molders = cast["Bader"], cast["Mölders"]
    event = pilot_log(
        pilot=bader, kind=PilotEventKind.KILL, campaign=cast["campaign"], campaign_turn=3,
        details={"campaign": "Careers 1940", "plane": "allied-4", "victim": "axis-2",
                 "victim_aircraft": "Messerschmitt Bf 109", "credit_rule": "card:roll-order"},
    )  # fmt: skip
    asked = []

    def crews(ref, planes):
        asked.append((ref, planes))
        return {"axis-2": {"pilot_id": molders.pk, "pilot": "Mölders", "aircraft": "Bf 109E"}}

    monkeypatch.setattr(campaign_hooks, "_installed", campaign_hooks.with_answer(plane_crews=crews))
    [event] = with_sentences([event])
    assert asked == [(cast["campaign"].pk, {"axis-2"})]
    assert _text(event.sentence).startswith(
        "Flying plane allied-4, shot down Mölders's Bf 109E (plane axis-2); credited in the card game's roll order"
    )
    assert f'href="/pilots/{molders.pk}/"' in event.sentence


def test_details_no_sentence_reads_are_still_shown_in_words(cast):
    event = pilot_log(
        pilot=cast["Bader"], kind=PilotEventKind.AWARD,
        details={"award": "DFC", "threshold_kind": "kills", "threshold": 5, "citation_text": "for valour", "bar": True},
    )  # fmt: skip
    text = _text(entry_sentence(event))
    assert (
        text == "Awarded the DFC for 5 kills. Also recorded: citation text: for valour; bar: yes."
    )


def test_a_kind_without_a_sentence_shows_its_name_and_every_detail(cast):
    event = PilotEvent(pilot=cast["Bader"], kind="medal_parade", details={"place": "Biggin Hill"})
    assert _text(entry_sentence(event)) == "Medal parade. Also recorded: place: Biggin Hill."


def test_words_are_escaped(cast):
    event = pilot_log(
        pilot=cast["Bader"], kind=PilotEventKind.NOTE, details={"text": "<b>bold</b> & co"}
    )
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co." in str(entry_sentence(event))


def test_the_demo_campaigns_log_reads_as_sentences(catalog, django_user_model):
    """The card game's entries (carried missions and kills, planes assigned, losses) and
    the demo's table battles: every one a sentence, every detail read, card-game planes
    named by who flew them."""
    organiser = django_user_model.objects.create_user("demo-organiser", is_staff=True)
    demo_roster_create()
    careers = demo_careers_create(organiser=organiser)
    campaign = Campaign.objects.get(name=careers.campaign)
    assert demo_campaign_play(campaign=campaign, organiser=organiser, until_turn=6) > 0
    events = with_sentences(PilotEvent.objects.select_related("campaign"))
    assert {e.kind for e in events} >= {"kill", "mission", "note", "shot_down", "survival_roll"}
    for event in events:
        text = _text(event.sentence)
        assert "Also recorded" not in text and "_" not in text, (event.kind, event.details, text)
        said = [s for s in re.split(r"(?<=\.) ", text) if s]
        assert len(said) == len(set(said)), text
    card_kills = [e for e in events if e.kind == "kill" and "plane" in e.details]
    assert card_kills, "the demo's card game carried no kill"
    for kill in card_kills:
        assert kill.sentence.startswith(f"Flying plane {kill.details['plane']}, shot down ")
    named = [k for k in card_kills if 'href="/pilots/' in k.sentence]
    assert named, "no card-game victim named by the pilot who flew it"

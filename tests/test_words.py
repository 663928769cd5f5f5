"""Every page speaks in the words of the game and of the club (issue 24 §7).

The demo's pages are walked as its organiser (and as the two people of a battle flown
in the browser) and their visible text (tags stripped; scripts, styles, form values and
hidden inputs left out, as a reader never sees them) must hold none of the program's
own words: a rulebook code inside a sentence ("(003 Mission phase)": a citation is
small print, "rulebook 003, Mission phase"), a mission card's id ("m29"), a raw status
code ("in_play"), a version number, "battle #5 (in_play)", a code word such as
"card:roll-order". The quality's reason stands beside it where it surprises; the
API docs lead back to the site. The Copy button is clicked in a browser in
tests/browser/test_copy_button.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from battles import services as battle_services
from battles.models import Battle, BattleStatus
from campaign.models import Campaign
from careers.models import PilotEvent
from careers.services import pilot_enlist, pilot_log
from roster.models import Pilot, Squadron
from tests.battles.seating import seats_accepted

pytestmark = pytest.mark.django_db
PASSWORD = "Words-of-the-game-1"

INTERNAL_WORDS = {
    # the rulebooks are files 000-003; "No. 303 Squadron" and "Bf 109" are names, not codes
    "a rulebook code in a sentence": re.compile(r"\b00\d [A-Z']"),
    "a mission card's id": re.compile(r"\bm\d+\b"),
    # "Claims pending" and "the running totals" are English; a status code is a word
    # of its own in brackets, or one with an underscore
    "a raw status code": re.compile(
        r"\b(?:in_play|finished_not_applied)\b|\((?:pending|running|finished|failed|draft)\)"
    ),
    "a version number": re.compile(r"\bversion \d+"),
    "an id and its status": re.compile(r"#\d+ \("),
    "a code word": re.compile(r"\b[a-z]+:[a-z_]+\b"),
}


class _VisibleText(HTMLParser):
    """The words a reader sees: text outside scripts, styles and templates (form
    values and hidden inputs are attributes, so they are left out)."""

    HIDDEN = frozenset({"script", "style", "template", "textarea"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def internal_words(where: str, html: str) -> list[str]:
    """Each internal word on the page, with the words around it."""
    text = visible_text(html)
    found = []
    for what, pattern in INTERNAL_WORDS.items():
        for m in pattern.finditer(text):
            found.append(f"{where}: {what}: …{text[max(0, m.start() - 50) : m.end() + 50]}…")
    return found


def test_the_patterns_catch_what_the_club_found():
    """The walk below is only as good as these patterns: each of the club's findings
    is caught, and each way the pages say it now passes."""
    found = [
        "Assign planes (003 Mission phase)",
        "at most 100 points (000 'BUILDING FLIGHTS')",
        "you acted on version 76",
        "battle #5 (in_play)",
        "Engagements: 5 m29 card",
        "credited by 001 XIX (the last aircraft to fire)",
        "credited in the card game's roll order (card:roll-order)",
    ]
    for text in found:
        assert internal_words("x", f"<p>{text}</p>"), text
    fine = [
        "A plane flies one mission a turn (rulebook 003, Mission phase).",
        "the campaign has moved on (2 changes since you loaded the page)",
        "Battle 5 (being flown)",
        "Engagements: 5 Attack Refinery card-game dice",
        "credited to the last pilot to fire (Air Force rules)",
        "No. 303 Squadron, Messerschmitt Bf 109, Claims pending, the running totals",
        '<input type="hidden" name="version" value="76"><script>x = "m29"</script>',
    ]
    for text in fine:
        assert not internal_words("x", f"<p>{text}</p>"), text


def _web_battle(organiser) -> Battle:
    """A battle flown in the browser, in play: its seats accepted by two club members."""
    make = get_user_model().objects.create_user
    make("hans", password=PASSWORD)
    make("tom", password=PASSWORD)
    seats = {"axis": {"user": "hans"}, "allied": {"user": "tom"}}
    battle = battle_services.battle_create(
        scenario="dogfight", seed=21, settings={"seats": seats}, requested_by=organiser
    )
    return seats_accepted(battle)


def _pages(campaign: Campaign) -> list[str]:
    side = campaign.current_side or "allied"
    pages = [
        "/",
        "/campaigns/",
        f"/campaigns/{campaign.pk}/",
        f"/campaigns/{campaign.pk}/?umpire={side}",  # the side's hand and decisions
        f"/campaigns/{campaign.pk}/print/",
        f"/statistics/{campaign.pk}/",
        "/battles/",
        "/battles/new/",
        "/table-battles/new/",
        "/pilots/",
        "/squadrons/",
        "/aces/",
        "/accounts/invitations/",
        f"/accounts/campaigns/{campaign.pk}/invitations/",
        "/notifications/",
        f"/history/campaign/campaign/{campaign.pk}/",
    ]
    pages += [f"/battles/{pk}/" for pk in Battle.objects.values_list("pk", flat=True)]
    pages += [f"/pilots/{pk}/" for pk in Pilot.objects.values_list("pk", flat=True)]
    pages += [f"/squadrons/{pk}/" for pk in Squadron.objects.values_list("pk", flat=True)]
    return pages


def test_every_page_of_the_demo_speaks_the_words_of_the_game(client):
    call_command("demo", password=PASSWORD)
    organiser = get_user_model().objects.get(username="organiser")
    campaign = Campaign.objects.get()
    battle = _web_battle(organiser)
    assert battle.status == BattleStatus.IN_PLAY
    # what the walk must meet for it to mean something: missions, engine battles, credits
    assert (
        campaign.state["engagements"]
        and Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:").exists()
    )
    assert PilotEvent.objects.filter(details__credit_rule__startswith="001 XIX").exists()
    assert PilotEvent.objects.filter(battle_ref__startswith=campaign.name).exists()

    # the campaign's engine battle as if it were being flown now: named in words
    engine = Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:").first()
    Battle.objects.filter(pk=engine.pk).update(status=BattleStatus.IN_PLAY)

    client.force_login(organiser)
    page = visible_text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    engagements = page[page.index("Engagements Turn Mission") :]
    assert re.search(rf"Battle {engine.pk} \(being flown\)", engagements)
    assert "card-game dice" in engagements and "Attack " in engagements  # a mission card's name
    found: list[str] = []
    for path in _pages(campaign):
        response = client.get(path)
        assert response.status_code == 200, path
        found += internal_words(path, response.content.decode())
    # an invitation made: its link, once, with its Copy button
    response = client.post(
        f"/accounts/campaigns/{campaign.pk}/invitations/",
        {"role": "commander", "side": "axis", "email": "", "days": 7},
    )
    assert response.status_code == 200
    made = response.content.decode()
    assert 'id="invitation-link"' in made and 'data-copy="invitation-link"' in made
    assert "accounts/copy.js" in made
    found += internal_words("the invitation made", made)
    # a stale page's decision: refused in words, not version numbers
    side = campaign.current_side
    response = client.post(
        f"/campaigns/{campaign.pk}/",
        {"version": campaign.version - 2, "group": "advance", "umpire": side,
         "umpire_reason": "testing a stale page"},
    )  # fmt: skip
    assert response.status_code == 400
    refused = response.content.decode()
    assert "moved on (2 changes since you loaded the page)" in refused
    found += internal_words("a stale decision refused", refused)
    # the battle flown in the browser, by one of its people and by the organiser
    for user in ("hans", "organiser"):
        client.force_login(get_user_model().objects.get(username=user))
        response = client.get(f"/battles/{battle.pk}/play/")
        assert response.status_code == 200
        found += internal_words(f"/battles/{battle.pk}/play/ as {user}", response.content.decode())
    assert not found, "\n".join(found)


def test_the_quality_shows_why_a_pilot_with_more_kills_ranks_lower(client, admin_user):
    """A card-game pilot's quality comes from his experience markers (missions flown),
    not his kills: a 10-kill Veteran beside a 9-kill Ace, and both pages say why."""
    squadron = Squadron.objects.create(name="No. 303 Squadron", nation="Poland", side="allied")
    veteran = pilot_enlist(squadron=squadron, name="Zdzisław Henneberg", quality="veteran")
    ace = pilot_enlist(squadron=squadron, name="Witold Urbanowicz", quality="ace")
    for pilot, kills, markers in ((veteran, 10, 6), (ace, 9, 9)):
        for n in range(kills):
            pilot_log(pilot=pilot, kind="kill", campaign_turn=n + 1, details={"victim": "a Bf 109"})
        Pilot.objects.filter(pk=pilot.pk).update(air_kills=kills, experience_markers=markers)
    client.force_login(admin_user)
    page = visible_text(client.get(f"/pilots/{veteran.pk}/").content.decode())
    assert "Veteran (card game scale) · by experience markers, not kills: 6 XM (ace at 9)" in page
    aces = visible_text(client.get("/aces/").content.decode())
    assert (
        "Zdzisław Henneberg ★ No. 303 Squadron — Veteran (card game scale) "
        "by experience markers, not kills: 6 XM (ace at 9)" in aces
    )
    assert "Ace (card game scale) by experience markers, not kills: 9 XM" in aces
    assert "a pilot with more kills may have a lower quality" in aces


def test_the_api_docs_lead_back_to_the_site(client):
    for docs in ("/api/docs/", "/api/redoc/"):
        response = client.get(docs)
        assert response.status_code == 200
        html = response.content.decode()
        assert re.search(r'<a href="/" id="back-to-site">← Angels</a>', html), docs
        # the policy is the site's: scripts from files only, no inline script
        csp = response["Content-Security-Policy"]
        assert "script-src 'self';" in csp
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>\s*\S", html), "an inline script"

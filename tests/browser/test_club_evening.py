"""A club's evening, whole, in three browsers (issue 24 "Done when"): the organiser signs
up and creates a campaign on the campaigns page; it waits, gathering its commanders;
two players sign up through copied invitation links; the organiser chooses who flies (the
squadrons and which of their pilots enlist on the creation form, one more pilot by name
on the enrolment page) and starts the campaign; the two commanders play its turns on the
campaign page; one battle is flown in the browser by both against each other, one
against the computer pilot; each reads the reports, the pilots' pages, the aces and the
statistics; the organiser exports the campaign and imports it as a copy.

At each step the test asserts what a person would notice and none of the issue's
surprises: no hand shown to an organiser who commands no side; nothing played before the
start; no code words; no name twice in a squadron; a confirmation before a hand-over or
an undo. At the end the squadron, statistics and aces figures of each campaign (the
original and its copy) agree with a recount of the career entries."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest
from django.db.models import Q

from battles.models import Battle, BattleStatus
from battles.play import battle_state
from campaign import services
from campaign.models import Campaign, CampaignMember, CampaignStatus
from careers.models import PilotEvent, PilotEventKind
from demo.roster import demo_roster_create
from roster.models import Pilot, PilotStatus
from rules.angels20.stats import SIDES as ENGINE_SIDES

from .conftest import page_width, screenshot
from .evening_steps import SURPRISES, assert_plain, decide_once, fly, invitation_link, sign_up

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "Tally-ho-over-Kent-1940"
SEED = 6  # the campaign's dice (the creation form draws one; the test fixes it)
NAME = "Kent, summer 1940"
SQUADRONS = ("No. 92 Squadron RAF", "56th Fighter Group", "JG 26 Schlageter", "KG 53 Legion Condor")
LEFT_BEHIND = "Don Kingaby"  # a pilot of No. 92 the organiser leaves out at creation
CHOSEN = "Helmut Wick"  # an ace of JG 2, a squadron not taking part: chosen by name
PLAYERS = {"axis": "hans", "allied": "tom"}
MAX_DECISIONS = 90
OWN_CHOICES = 2


def _campaign_battles(campaign):
    return Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")


def test_a_club_evening_from_the_first_sign_up_to_the_copy(
    browser, live_server, catalog, monkeypatch, tmp_path, mailoutbox
):
    demo_roster_create()  # the library: squadrons and pilots kept by staff
    monkeypatch.setattr(services, "secrets", SimpleNamespace(randbits=lambda bits: SEED))
    base = live_server.url
    contexts = {
        who: browser.new_context(viewport={"width": 1280, "height": 900})
        for who in ("organiser", *PLAYERS.values())
    }
    contexts["organiser"].grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    try:
        pages = {who: context.new_page() for who, context in contexts.items()}
        open_items = _evening(pages, base, tmp_path)
    finally:
        for context in contexts.values():
            context.close()
    _mails_read_well(mailoutbox)
    if open_items:  # the steps of the evening still wrong, checked last so all else runs
        pytest.xfail("issue 24 still open: " + "; ".join(open_items))


def _evening(pages, base, tmp_path):
    orga = pages["organiser"]
    players = {side: pages[name] for side, name in PLAYERS.items()}
    open_items: list[str] = []  # issue 24's surprises still met (the test xfails on them)

    # -- the organiser signs up and creates the campaign on the campaigns page
    orga.goto(f"{base}/accounts/signup/")
    sign_up(orga, "olga", PASSWORD)
    orga.goto(f"{base}/campaigns/")
    orga.fill("#start input[name=name]", NAME)
    orga.select_option("#start select[name=resolution_mode]", "web")
    for box in orga.locator("#start input[name=squadrons]").all():
        label = box.locator("xpath=..").inner_text()
        box.set_checked(any(label.strip().startswith(name) for name in SQUADRONS))
    # which of a squadron's pilots enlist: one of No. 92's stays behind
    pick = orga.locator("#start .pick", has=orga.locator("b", has_text=SQUADRONS[0]))
    pick.locator("summary").click()
    pick.locator("li", has_text=LEFT_BEHIND).locator("input[name=pilots]").uncheck()
    with orga.expect_navigation():
        orga.click("text=Create — you will be its organiser")
    campaign = Campaign.objects.get(name=NAME)
    enlisted = Pilot.objects.filter(enrolled_in=campaign)
    assert set(enlisted.values_list("squadron__name", flat=True)) == set(SQUADRONS)
    assert not enlisted.filter(name=LEFT_BEHIND).exists()
    url = f"{base}/campaigns/{campaign.pk}/"
    assert orga.url == url
    now = orga.inner_text("#now")
    assert "Gathering commanders" in now and "nothing is played" in now
    dealt = orga.inner_text("#log")  # 003 "SETUP" is dealt; no phase of turn 1 is played
    assert "The campaign begins" in dealt and "production phase" not in dealt.lower()
    assert orga.locator("#hand, #decisions").count() == 0
    assert_plain("the new campaign", orga)
    assert campaign.status == CampaignStatus.GATHERING and campaign.actions.count() == 0

    # -- two invitations, each link copied with the Copy button
    links = {side: invitation_link(orga, base, campaign.pk, side) for side in PLAYERS}

    # -- the players open the links and sign up: they land in the campaign, which waits
    for side, page in players.items():
        page.goto(links[side])
        assert f"commander of the {side.capitalize()} side" in page.inner_text("main")
        with page.expect_navigation():
            page.click("text=Sign up and join")
        sign_up(page, PLAYERS[side], PASSWORD)
        assert page.url == url
        assert f"commander of the {side.capitalize()} side" in page.inner_text("main")
        assert "The campaign has not started yet" in page.inner_text("#now")
        assert page.locator("#decisions, form.decision").count() == 0, page.inner_text("main")
        assert_plain(f"{side}'s waiting campaign", page)
    members = CampaignMember.objects.filter(campaign=campaign, role="commander")
    assert {(m.user.username, m.side) for m in members} == {(n, s) for s, n in PLAYERS.items()}

    # -- and enrols one more pilot by name on the enrolment page
    orga.goto(url)
    with orga.expect_navigation():
        orga.click("#enrol-link")
    row = orga.locator("tr", has=orga.locator("td", has_text=CHOSEN))
    row.locator("input[name=pilots]").check()
    with orga.expect_navigation():
        orga.click("main form button:text('Enrol')")
    serving = orga.locator("h2:has-text('Serving in this campaign') + table").inner_text()
    assert CHOSEN in serving
    assert_plain("the enrolment page", orga)
    wick = Pilot.objects.get(name=CHOSEN)
    assert wick.enrolled_in_id == campaign.pk
    campaign.refresh_from_db()
    assert campaign.actions.count() == 0 and campaign.status == CampaignStatus.GATHERING
    orga.goto(url)
    assert orga.inner_text("#log") == dealt, "the campaign moved before it was started"

    # -- the organiser starts it; the organiser sees no hand and decides nothing
    orga.goto(url)
    with orga.expect_navigation():
        orga.click("#now button:text('Start the campaign')")
    assert "The campaign has started" in orga.inner_text(".messages")
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ACTIVE
    _organiser_sees_no_hand(orga)
    _home_says_your_turn(players, base, campaign)

    # -- the commanders play on the campaign page; two battles flown in the browser
    rng = random.Random(SEED)
    flown: list[Battle] = []
    decisions = 0
    last = "axis"
    undo_checked = False
    while True:
        campaign.refresh_from_db()
        assert campaign.status == CampaignStatus.ACTIVE, "the campaign ended early"
        if len(flown) >= 2 and campaign.turn >= 3:
            break
        battle = _campaign_battles(campaign).filter(status=BattleStatus.IN_PLAY).first()
        if battle is not None:
            _battle_waits(players, url, battle)
            against_computer = len(flown) == 1
            fly(battle, players, own_choices=OWN_CHOICES, rng=rng,
                handed_first="allied" if against_computer else None)  # fmt: skip
            battle.refresh_from_db()
            assert battle.status == BattleStatus.FINISHED and battle.applied_at is not None
            flown.append(battle)
            continue
        acted = None
        # the commander who just decided is on the campaign page already (its redirect)
        for side in sorted(players, key=lambda s: s != last):
            page = players[side]
            if side != last or page.url != url:
                page.goto(url)
            acted = decide_once(page)
            if acted:
                decisions += 1
                last = side
                break
        assert acted, f"nobody is asked anything: turn {campaign.turn}, {campaign.phase}"
        assert decisions < MAX_DECISIONS, "two turns took too many decisions"
        if decisions == 3 and not undo_checked:
            _undo_asks_first(orga, url, campaign)
            undo_checked = True
        if decisions % 10 == 0:
            _organiser_sees_no_hand(orga, url)
    for side, page in players.items():
        page.goto(url)
        assert_plain(f"{side}'s campaign page", page)
        for battle in flown:
            assert page.locator(f"#web-battles a[href='/battles/{battle.pk}/']").count() == 1
        _said_once_and_named(page)
    two_qualities = _one_quality(players["axis"], base, url, Pilot.objects.get(name=CHOSEN))
    if two_qualities:
        open_items.append(
            "§1 a pilot chosen into a campaign keeps his library quality on his page but "
            f"flies as a new pilot in the campaign's planes ({two_qualities})"
        )
    _holiday_without_a_date(players["allied"])
    _look_at_the_campaign_page(players["allied"], orga, url)

    # -- each reads the reports, the pilots' pages, the aces and the statistics
    for page in players.values():
        for battle in flown:
            page.goto(f"{base}/battles/{battle.pk}/")
            assert "winner" in page.inner_text("main")
            assert_plain(f"the report of battle {battle.pk}", page)
    open_items += _pilots_pages(players["axis"], base, campaign, flown)
    _figures_agree(players["allied"], base, campaign)

    # -- the organiser exports the campaign and imports it as a copy
    orga.goto(url)
    with orga.expect_download() as download:
        orga.click("#export")
    path = tmp_path / "evening.json"
    download.value.save_as(path)
    orga.goto(f"{base}/campaigns/#import")
    orga.set_input_files("#import input[name=file]", str(path))
    assert orga.is_checked("#import input[value=copy]")
    with orga.expect_navigation():
        orga.click("#import button[type=submit]")
    preview = orga.inner_text("main")
    assert f"a campaign named {NAME} becomes {NAME} (copy)" in preview
    for name in SQUADRONS:
        assert f"a squadron named {name} becomes {name} (copy)" in preview
    assert_plain("the import preview", orga)
    with orga.expect_navigation():
        orga.click(f"text=Confirm: create {NAME} (copy)")
    copy = Campaign.objects.get(name=f"{NAME} (copy)")
    assert orga.url == f"{base}/campaigns/{copy.pk}/"
    _figures_agree(orga, base, copy)
    _same_figures(orga, base, campaign, copy)
    return open_items


def _organiser_sees_no_hand(orga, url: str | None = None) -> None:
    """Issue 24 §3: the organiser who commands no side sees no hand and no decision;
    acting for a side is an explicit umpire's choice."""
    if url:
        orga.goto(url)
    assert orga.locator("#hand, #decisions, form.decision").count() == 0
    assert "must act now" not in orga.inner_text("#now")
    assert "As organiser you see what a spectator sees" in orga.inner_text("#now")
    assert_plain("the organiser's campaign page", orga)


def _undo_asks_first(orga, url: str, campaign) -> None:
    """Undo shows what it would take back and waits for Confirm; Cancel leaves it."""
    before = campaign.actions.filter(undone=False).count()
    orga.goto(url)
    with orga.expect_navigation():
        orga.click("#undo-link")
    assert "Undo the last action?" in orga.inner_text("#confirm-undo")
    assert_plain("the undo confirmation", orga)
    with orga.expect_navigation():
        orga.click("#confirm-undo a:text('Cancel')")
    assert orga.url == url
    assert campaign.actions.filter(undone=False).count() == before


def _said_once_and_named(page) -> None:
    """What just happened says each thing once; a mission's planes are named, also those
    shot down (no bare "axis-5")."""
    recent = [li.inner_text() for li in page.locator("#now ul.recent li").all()]
    assert len(recent) == len(set(recent)), recent
    assert "was resolved by" not in page.inner_text("#now")
    for li in page.locator(".mission li").all():
        text = li.inner_text().strip()
        assert not re.fullmatch(r"(?:axis|allied)-\d+", text), f"a plane by its id: {text}"


def _one_quality(page, base: str, url: str, pilot) -> str:
    """Issue 24 §1: a pilot has one quality in a campaign, the same on its page and in
    the campaign's planes. Returns how they differ ("" when they agree)."""
    page.goto(url)
    row = page.locator("tr", has=page.locator(f"a[href='/pilots/{pilot.pk}/']")).first
    rank = row.locator("td").nth(6).inner_text().split("(")[0].strip()
    page.goto(f"{base}/pilots/{pilot.pk}/")
    quality = page.locator("tr", has=page.locator("th:text('Quality')")).inner_text()
    quality = " ".join(quality.split())
    return (
        ""
        if rank.lower() in quality.lower()
        else f"{pilot.name}: {rank!r} in the planes, {quality!r}"
    )


def _home_says_your_turn(players, base: str, campaign) -> None:
    """Issue 24 §3: the first thing the side to act sees on its home page is that it
    must act, with a link to the campaign."""
    campaign.refresh_from_db()
    page = players[campaign.current_side]
    page.goto(f"{base}/")
    waiting = page.locator("#your-turn")
    assert NAME in waiting.inner_text() and "must act" in waiting.inner_text()
    assert waiting.locator(f"a[href='/campaigns/{campaign.pk}/']").count() >= 1
    assert_plain("the home page", page)


def _holiday_without_a_date(page) -> None:
    """Issue 24 §3: the holiday form sent with no date is refused in words; nobody who
    was never away is welcomed back."""
    with page.expect_navigation():
        page.click("#holiday button:text('Go on holiday')")
    text = page.inner_text("main")
    assert "Welcome back" not in text
    assert "Holiday not set" in text


def _mails_read_well(outbox) -> None:
    """Issue 24 §4: each mail's links are absolute and its words are the game's."""
    assert outbox, "nobody was told anything by mail"
    for mail in outbox:
        body = mail.body
        for link in re.findall(r"(?<![\w/])/(?:campaigns|battles|accounts|pilots)/\S*", body):
            raise AssertionError(f"a relative link in a mail: {link} ({mail.subject})")
        found = [
            what for what, pattern in SURPRISES.items() if pattern.search(f"{mail.subject} {body}")
        ]
        assert not found, (mail.subject, found, body)


def _battle_waits(players, url: str, battle) -> None:
    """The campaign page tells the side to act that its battle waits, and only it."""
    first = ENGINE_SIDES[battle_state(battle).current_side()]
    for side, page in players.items():
        page.goto(url)
        text = page.inner_text("#web-battles")
        assert ("Your battle waits" in text) == (side == first), (side, text)
        assert_plain(f"{side}'s campaign page, a battle waiting", page)


def _look_at_the_campaign_page(player, orga, url: str) -> None:
    for who, page in (("commander", player), ("organiser", orga)):
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(url)
            assert page_width(page) <= width, f"the {who}'s page scrolls sideways at {width}"
            screenshot(page, f"club-evening-{who}-{width}")
        page.set_viewport_size({"width": 1280, "height": 900})


def _pilots_pages(page, base: str, campaign, flown) -> list[str]:
    """Each pilot who flew a battle: his page links to its report; a pilot shot down
    counts the mission he flew (issue 24 §2: "Missions 0"); no squadron of the campaign
    holds one name twice. Returns the pilots whose missions read 0."""
    keys = [f"battle:{b.pk}" for b in flown]
    events = PilotEvent.objects.filter(applied_result__source_key__in=keys).select_related(
        "applied_result"
    )
    pilots = {e.pilot_id: e.applied_result.source_key.split(":")[1] for e in events}
    assert pilots, "the battles changed no pilot's record"
    shot_down = {e.pilot_id for e in events if e.kind == PilotEventKind.SHOT_DOWN}
    no_missions = []
    for pilot_id, battle_pk in sorted(pilots.items()):
        if pilot_id not in shot_down and len(pilots) > 6 and pilot_id % 2:
            continue  # (every pilot shot down, and about half the others)
        page.goto(f"{base}/pilots/{pilot_id}/")
        assert page.locator(f"main a[href='/battles/{battle_pk}/']").count() >= 1
        assert_plain(f"pilot {pilot_id}'s page", page)
        missions = page.locator("tr", has=page.locator("th:text-is('Missions')")).locator("td")
        if pilot_id in shot_down and missions.inner_text().strip() == "0":
            no_missions.append(page.locator("h1").inner_text().strip())
    serving = Pilot.objects.filter(enrolled_in=campaign)
    for squadron_id in set(serving.values_list("squadron_id", flat=True)):
        names = list(serving.filter(squadron_id=squadron_id).values_list("name", flat=True))
        assert len(names) == len(set(names)), f"a name twice in a squadron: {sorted(names)}"
    if no_missions:
        return [f"§2 a pilot shot down reads 'Missions 0' on his page ({', '.join(no_missions)})"]
    return []


def _recount(campaign):
    """Kills (less confirmed claims denied) and losses per side and per aircraft flown
    (the entry's, else the squadron's type: issue 24 §2), from the entries."""
    entries = PilotEvent.objects.filter(Q(campaign=campaign) | Q(details__campaign=campaign.name))
    sides = {"allied": {"kills": 0, "losses": 0}, "axis": {"kills": 0, "losses": 0}}
    aircraft: dict[str, dict[str, int]] = {}
    for e in entries.select_related("pilot__squadron__aircraft_type"):
        details = e.details or {}
        if e.kind == PilotEventKind.KILL:
            figure, n = "kills", 1
        elif e.kind == PilotEventKind.KILL_DENIED and details.get("was") == "confirmed":
            figure, n = "kills", -1
        elif e.kind == PilotEventKind.SHOT_DOWN:
            figure, n = "losses", 1
        else:
            continue
        sides[e.pilot.squadron.side][figure] += n
        flown = details.get("aircraft") or str(e.pilot.squadron.aircraft_type or "—")
        aircraft.setdefault(flown, {"kills": 0, "losses": 0})[figure] += n
    return sides, aircraft


def _pilot_kills(pilot) -> int:
    entries = PilotEvent.objects.filter(pilot=pilot)
    kills = entries.filter(kind=PilotEventKind.KILL).count()
    denied = entries.filter(kind=PilotEventKind.KILL_DENIED, details__was="confirmed").count()
    return kills - denied


def _figure(locator) -> int:
    return int(locator.inner_text().strip())


def _figures_agree(page, base: str, campaign) -> None:
    """The statistics, aces and squadron pages of ``campaign`` against a recount."""
    page.goto(f"{base}/statistics/{campaign.pk}/")
    assert_plain(f"the statistics of {campaign.name}", page)
    sides, aircraft = _recount(campaign)
    assert sum(f["kills"] + f["losses"] for f in sides.values()) > 0, "nothing to count"
    for side, figures in sides.items():
        row = page.locator(f"tr[data-side='{side}']")
        shown = {k: _figure(row.locator(f"[data-figure={k}]")) for k in figures}
        assert shown == figures, (campaign.name, side, shown, figures)
    table = page.locator("table", has=page.locator("th:text-is('Aircraft')"))
    by_type = {}
    for row in table.locator("tbody tr").all():
        cells = [c.inner_text().strip() for c in row.locator("td").all()]
        by_type[cells[0]] = {"kills": int(cells[1]), "losses": int(cells[2])}
    assert by_type == aircraft, (campaign.name, by_type, aircraft)

    serving = Pilot.objects.filter(enrolled_in=campaign).select_related("squadron")
    page.goto(f"{base}/aces/?campaign={campaign.pk}")
    assert_plain(f"the aces of {campaign.name}", page)
    rows = page.locator("tr[data-pilot]")
    listed = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        listed[int(row.get_attribute("data-pilot"))] = _figure(
            row.locator("[data-figure=confirmed_kills]")
        )
    with_kills = {p.pk: _pilot_kills(p) for p in serving if _pilot_kills(p) > 0}
    assert with_kills, "no ace to list"
    assert listed == with_kills, (campaign.name, listed, with_kills)

    for squadron_id in sorted(set(serving.values_list("squadron_id", flat=True))):
        page.goto(f"{base}/squadrons/{squadron_id}/?campaign={campaign.pk}")
        assert_plain(f"squadron {squadron_id} in {campaign.name}", page)
        mine = serving.filter(squadron_id=squadron_id)
        on_strength = mine.filter(status__in=[PilotStatus.ACTIVE, PilotStatus.WOUNDED]).count()
        strength = _figure(page.locator("[data-figure=strength]"))
        assert strength == on_strength, (campaign.name, squadron_id, strength, on_strength)
        shown = {int(r.get_attribute("data-pilot")) for r in page.locator("tr[data-pilot]").all()}
        assert shown == set(mine.values_list("pk", flat=True)), (campaign.name, squadron_id)


def _same_figures(page, base: str, campaign, copy) -> None:
    """The copy's statistics read as the original's."""
    tables = []
    for c in (campaign, copy):
        page.goto(f"{base}/statistics/{c.pk}/")
        tables.append(page.locator("main table").first.inner_text())
    assert tables[0] == tables[1]

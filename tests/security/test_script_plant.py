"""User text is never code (issue 23): a script planted in every name a user may type
(campaign, squadron, pilot name and rank, username, aircraft type) is shown as text on
every page that shows it, and in a real browser neither the battle report nor the
campaign page runs it; the site's own scripts run under its Content-Security-Policy
without a single violation.

The plant in a pilot's name used to run on the public battle report: the report wrote
its frames and aircraft names into ``<script type="application/json">`` with ``|safe``,
so ``</script><script>alert(1)</script>`` closed the data block and opened a script."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.services import invitation_create
from battles import services as battle_services
from battles.models import Battle
from campaign import services as campaign_services
from careers.services import pilot_enlist
from demo.roster import demo_roster_create
from roster.models import AircraftType, Squadron
from roster.services import squadron_create

SCRIPT = "</script><script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
RAN = ("<script>alert(1)", "</script><script>", "<img src=x onerror")


@pytest.fixture
def planted(catalog):
    """Every user-named thing named with a plant: a campaign, its organiser and a
    commander, both squadrons, their aircraft type, a pilot (name and rank), and a
    finished battle and one in play flown by that pilot."""
    User = get_user_model()
    organiser = User.objects.create_user(SCRIPT, password="pw-orga-123", is_staff=True)
    commander = User.objects.create_user(IMG, password="pw-comm-123")
    demo_roster_create()
    squadrons = list(Squadron.objects.order_by("pk"))
    allied = next(s for s in squadrons if s.side == "allied")
    axis = next(s for s in squadrons if s.side == "axis")
    Squadron.objects.filter(pk=allied.pk).update(name=SCRIPT)
    Squadron.objects.filter(pk=axis.pk).update(name=IMG)
    AircraftType.objects.filter(pk=allied.aircraft_type_id).update(name=SCRIPT)
    AircraftType.objects.filter(pk=axis.aircraft_type_id).update(name=IMG)
    # the pilot flies battles of his own: his squadron is in no campaign
    reserve = squadron_create(
        name=f"{SCRIPT} reserve", nation="United Kingdom", side="allied",
        aircraft_type=AircraftType.objects.get(pk=allied.aircraft_type_id),
    )  # fmt: skip
    pilot = pilot_enlist(squadron=reserve, name=SCRIPT, rank=IMG, quality="ace")
    campaign = campaign_services.campaign_create(
        name=SCRIPT, created_by=organiser, seed=7, squadrons=squadrons
    )
    campaign_services.campaign_member_set(
        campaign=campaign, by=organiser, user=commander, role="commander", side="allied"
    )
    _, link = invitation_create(campaign=campaign, by=organiser, role="commander", side="axis")
    flights = {
        "allied": [
            {"aircraft_type": "Spitfire Mk I Ace", "pilot": pilot.pk},
            {"aircraft_type": "Hurricane Mk I"},
        ],
        "axis": [{"aircraft_type": "Bf 109E Ace"}, {"aircraft_type": "Bf 109E Wingman"}],
    }
    flown = battle_services.battle_create(
        scenario="standard", flights=flights, seed=3, resolve=False
    )
    Battle.objects.filter(pk=flown.pk).update(status="pending")
    battle_services.battle_run(battle_id=flown.pk)
    flown.refresh_from_db()
    assert flown.status == "finished", flown.error
    seats = {"allied": {"user": commander.pk}, "axis": {"pilot": "tactical"}}
    in_play = battle_services.battle_create(
        scenario="standard", flights=flights, settings={"seats": seats}, requested_by=organiser
    )
    return {
        "organiser": organiser, "commander": commander, "campaign": campaign, "pilot": pilot,
        "allied": allied, "axis": axis, "flown": flown, "in_play": in_play,
        "invitation": link.split("://", 1)[-1].split("/", 1)[-1],
    }  # fmt: skip


def _pages(p) -> list[str]:
    c, pilot, flown, in_play = p["campaign"].pk, p["pilot"].pk, p["flown"].pk, p["in_play"].pk
    return [
        "/", "/campaigns/", f"/campaigns/{c}/", f"/campaigns/{c}/print/",
        f"/campaigns/{c}/enrol/", f"/statistics/{c}/", "/aces/", f"/aces/?campaign={c}",
        "/pilots/", f"/pilots/{pilot}/", "/squadrons/", f"/squadrons/{p['allied'].pk}/",
        f"/squadrons/{p['pilot'].squadron_id}/",
        f"/squadrons/{p['allied'].pk}/print/", f"/squadrons/{p['axis'].pk}/",
        "/battles/", f"/battles/{flown}/", f"/battles/{in_play}/", f"/battles/{in_play}/play/",
        f"/battles/{in_play}/play/?part=board",
        f"/history/campaign/campaign/{c}/", f"/history/roster/pilot/{pilot}/",
        f"/history/roster/squadron/{p['allied'].pk}/", f"/accounts/campaigns/{c}/invitations/",
        "/" + p["invitation"], "/notifications/",
    ]  # fmt: skip


def _clean(body: str, page: str) -> None:
    for sign in RAN:
        assert sign not in body, f"{page} writes {sign!r} as markup"


@pytest.mark.django_db
def test_a_planted_script_is_text_on_every_page_that_shows_it(planted):
    readers = {"anonymous": Client()}
    for who in ("organiser", "commander"):
        readers[who] = Client()
        readers[who].force_login(planted[who])
    shown = 0
    for who, reader in readers.items():
        for page in _pages(planted):
            response = reader.get(page)
            assert response.status_code in (200, 302, 403, 404), (who, page, response.status_code)
            body = response.content.decode()
            _clean(body, f"{page} ({who})")
            shown += "&lt;/script&gt;&lt;script&gt;alert(1)" in body or "&lt;img src=x" in body
    assert shown >= 20, f"the plant was shown escaped on only {shown} pages"


@pytest.mark.django_db
def test_the_report_carries_the_names_as_json_text(planted):
    body = Client().get(f"/battles/{planted['flown'].pk}/").content.decode()
    assert 'id="frames" type="application/json"' in body
    assert "\\u003C/script\\u003E\\u003Cscript\\u003Ealert(1)" in body  # json_script's escaping
    _clean(body, "the report")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("page", ["report", "campaign", "play"])
def test_the_browser_runs_no_planted_script_and_the_sites_own_ones(open_page, planted, page):  # noqa: F811
    user = planted["commander"] if page != "report" else None
    path = {
        "report": f"/battles/{planted['flown'].pk}/",
        "campaign": f"/campaigns/{planted['campaign'].pk}/",
        "play": f"/battles/{planted['in_play'].pk}/play/",
    }[page]
    dialogs, violations = [], []
    opened = open_page("/accounts/login/", user=user, password="pw-comm-123")
    opened.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    opened.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    opened.goto(opened.url.split("/accounts/")[0] + path)
    opened.wait_for_load_state("networkidle")
    assert dialogs == [], "a planted script ran"
    assert violations == [], violations
    if page == "report":  # the report's own script drew the map and named the pilot
        assert opened.locator("#planes .plane").count() > 0
        names = opened.locator("#planes title").all_text_contents()
        assert any(SCRIPT in n for n in names), names
        opened.click("#controls button[data-go=last]")
        assert "event" in opened.inner_text("#where")

"""Security headers (issue 23): every page carries a Content-Security-Policy that lets
scripts come from this site only (never inline), with nosniff, a referrer policy and
no framing; a page or API answer that shows a hand of cards or a seat's view is never
kept by a shared cache or written to disk (``Cache-Control: private, no-store``) and
varies on the session cookie and the Authorization header."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from battles import services as battle_services
from campaign import services as campaign_services
from demo.roster import demo_roster_create
from roster.models import Squadron

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast(catalog, django_user_model):
    make = django_user_model.objects.create_user
    return {
        "organiser": make("orga", password="pw-orga-123", is_staff=True),
        "allied": make("churchill", password="pw-allied-123"),
        "axis": make("hans", password="pw-hans-123"),
    }


@pytest.fixture
def campaign(cast):
    demo_roster_create()
    campaign = campaign_services.campaign_create(
        name="Channel 1941", created_by=cast["organiser"], seed=7,
        squadrons=list(Squadron.objects.all()),
    )  # fmt: skip
    for side in ("allied", "axis"):
        campaign_services.campaign_member_set(
            campaign=campaign, by=cast["organiser"], user=cast[side], role="commander", side=side
        )
    return campaign


@pytest.fixture
def battle(cast):
    seats = {"axis": {"user": "hans"}, "allied": {"pilot": "tactical"}}
    return battle_services.battle_create(
        scenario="dogfight", settings={"seats": seats}, requested_by=cast["organiser"]
    )


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {
        name: sources
        for name, *sources in (part.split() for part in header.split(";") if part.strip())
    }


def _vary(response) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",")}


PUBLIC_PAGES = ("/", "/battles/", "/aces/", "/campaigns/", "/accounts/login/", "/api/docs/")


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_every_page_lets_scripts_come_from_this_site_only(client, catalog, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = _policy(response)
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval', no host
    assert "'unsafe-inline'" not in policy.get("default-src", [])
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] in ("same-origin", "strict-origin-when-cross-origin")
    assert response.headers["X-Frame-Options"] == "DENY"


def test_no_page_of_the_site_has_an_inline_script(client, campaign, battle, cast):
    """The CSP forbids inline script: a page with one would lose it in the browser."""
    pages = [
        f"/battles/{battle.pk}/",
        f"/battles/{battle.pk}/play/",
        f"/campaigns/{campaign.pk}/",
        f"/campaigns/{campaign.pk}/print/",
        "/api/docs/",
        "/api/redoc/",
    ]
    for user in (None, cast["axis"], cast["allied"]):
        reader = _signed_in(user) if user else client
        for page in pages:
            body = reader.get(page).content.decode()
            for tag in body.split("<script")[1:]:
                opening = tag.split(">", 1)[0]
                assert "src=" in opening or 'type="application/json"' in opening, (page, tag[:80])
            assert " onclick=" not in body and " onload=" not in body, page


def test_the_api_docs_start_up_script_is_a_file_of_its_own(client):
    page = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/?script=' in page
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script.headers["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


def _private(response) -> None:
    assert response.status_code == 200, response.content[:300]
    cache = {v.strip() for v in response.headers.get("Cache-Control", "").split(",")}
    assert {"private", "no-store"} <= cache, dict(response.headers)
    assert {"cookie", "authorization"} <= _vary(response)


def test_a_commanders_campaign_page_and_api_are_private(campaign, cast):
    commander = _signed_in(cast["allied"])
    _private(commander.get(f"/campaigns/{campaign.pk}/"))
    _private(commander.get(f"/api/campaigns/{campaign.pk}/"))
    token = Token.objects.create(user=cast["axis"])
    by_token = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    _private(by_token.get(f"/api/campaigns/{campaign.pk}/"))


def test_a_seats_play_page_and_turn_api_are_private(battle, cast):
    pilot = _signed_in(cast["axis"])
    _private(pilot.get(f"/battles/{battle.pk}/play/"))
    _private(pilot.get(f"/battles/{battle.pk}/play/?part=board"))
    _private(pilot.get(f"/api/battles/{battle.pk}/turn/"))
    token = Token.objects.create(user=cast["axis"])
    by_token = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    answer = by_token.get(f"/api/battles/{battle.pk}/turn/")
    _private(answer)
    assert answer.json()["battle"] == battle.pk


def test_an_anonymous_answer_still_varies_on_cookie_and_authorization(client, battle):
    """A shared cache may keep what everyone sees, but never hands a signed-in user's
    answer to a stranger: the key includes the cookie and the Authorization header."""
    for path in (f"/battles/{battle.pk}/play/", f"/api/battles/{battle.pk}/turn/"):
        response = client.get(path)
        assert response.status_code == 200
        assert {"cookie", "authorization"} <= _vary(response)
        assert "no-store" not in response.headers.get("Cache-Control", "")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "title"), [("/api/docs/", ".swagger-ui .info .title"), ("/api/redoc/", "h1")]
)
def test_the_api_docs_work_in_a_browser_under_the_policy(open_page, path, title):  # noqa: F811
    """Swagger UI and ReDoc run their scripts under the policy. (ReDoc's attribution
    logo, an image on cdn.redoc.ly, is refused by img-src: the docs load nothing from
    another host, as tests/test_api_docs.py requires.)"""
    violations: list[str] = []
    page = open_page("/accounts/login/")
    page.on(
        "console",
        lambda m: (
            violations.append(m.text)
            if "Security Policy" in m.text and "img-src" not in m.text
            else None
        ),
    )
    page.goto(page.url.split("/accounts/")[0] + path)
    page.wait_for_selector(f"{title}:has-text('Angels API')", timeout=20_000)
    assert violations == [], violations

"""No technical page and no 500 a stranger can provoke (issue 23, item 9): the product's own
error pages with DEBUG off, bin/demo serving with DEBUG off, a huge id a 404, a path
climbing out of /static/ a 404, a campaign name that would break its mails refused."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from wsgiref.util import setup_testing_defaults

import pytest
from django.contrib.staticfiles.management.commands.runserver import Command as Runserver
from django.core import mail
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from accounts.models import Invitation
from angels.error_pages import server_error
from campaign import services as campaign_services
from campaign.models import Campaign
from roster.models import AircraftType
from roster.services import squadron_create

ROOT = Path(__file__).resolve().parents[2]
HUGE = "99999999999999999999999"
JUST_OVER = str(2**63)  # one more than a 64-bit column holds


def test_an_unknown_page_is_the_products_404_not_the_url_list(db):
    response = Client().get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in page and 'href="/"' in page  # plain words, a link home
    assert "URLconf" not in page and "urlpatterns" not in page


def test_an_unknown_api_address_keeps_the_json_error_shape(db):
    response = Client().get("/api/no-such-endpoint/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_500_page_renders_without_request_context_or_database():
    # no db fixture: a query here would fail the test
    response = server_error(RequestFactory().get("/campaigns/1/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in page and 'href="/"' in page
    assert "Traceback" not in page


def test_a_500_under_api_is_the_json_error_shape():
    response = server_error(RequestFactory().get("/api/campaigns/1/"))
    assert response.status_code == 500
    assert b'"code": "server_error"' in response.content


def _demo_settings_debug(**env: str) -> str:
    """DEBUG as the settings module bin/demo chooses sees it, in a fresh process."""
    demo = (ROOT / "bin/demo").read_text()
    module = re.search(r"DJANGO_SETTINGS_MODULE:-([\w.]+)\}", demo)
    assert module, "bin/demo names no settings module"
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.update(DJANGO_SETTINGS_MODULE=module[1], **env)
    code = "from django.conf import settings; print(settings.DEBUG, settings.ALLOWED_HOSTS)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bin_demo_serves_with_debug_off_unless_asked():
    off = _demo_settings_debug()
    assert off.startswith("False") and "'127.0.0.1'" in off and "'localhost'" in off
    assert _demo_settings_debug(DJANGO_DEBUG="1").startswith("True")


def _demo_handler():
    """The WSGI handler `manage.py runserver` builds with bin/demo's options."""
    line = next(s for s in (ROOT / "bin/demo").read_text().splitlines() if "runserver" in s)
    args = [a for a in shlex.split(line.split("runserver", 1)[1]) if "$" not in a]
    command = Runserver()
    options = vars(command.create_parser("manage.py", "runserver").parse_args(args))
    return command.get_handler(**options)


@pytest.mark.parametrize("debug", [False, True])
def test_a_path_out_of_static_is_a_404(db, debug):
    with override_settings(DEBUG=debug):
        handler = _demo_handler()
        environ: dict = {}
        setup_testing_defaults(environ)
        # what the server hands on for /static/..%2f..%2fangels%2fsettings%2fbase.py
        environ["PATH_INFO"] = "/static/../../angels/settings/base.py"
        answered: list[str] = []
        body = b"".join(handler(environ, lambda status, headers: answered.append(status)))
    assert answered[0].startswith("404"), answered
    assert b"SECRET_KEY" not in body
    quoted = Client().get("/static/..%2f..%2fangels%2fsettings%2fbase.py")
    assert quoted.status_code == 404 and b"SECRET_KEY" not in quoted.content


@pytest.mark.parametrize(
    "address",
    [
        f"/api/roster/pilots/{HUGE}/events/",
        f"/api/roster/pilots/{JUST_OVER}/",
        f"/api/campaigns/{HUGE}/",
        f"/api/battles/{JUST_OVER}/",
        f"/pilots/{HUGE}/",
        f"/campaigns/{JUST_OVER}/",
        f"/battles/{HUGE}/play/",
        f"/notifications/campaigns/{HUGE}/",
    ],
)
def test_a_huge_id_in_an_address_is_a_404(admin_client, address):
    response = admin_client.get(address)
    assert response.status_code == 404
    if address.startswith("/api/"):
        assert response.json()["code"] == "not_found"


def test_no_url_pattern_takes_an_unbounded_int():
    modules = [*ROOT.glob("*/urls.py"), *ROOT.glob("*/api_urls.py"), *ROOT.glob("*/*_urls.py")]
    assert modules
    unbounded = [str(p.relative_to(ROOT)) for p in modules if "<int:" in p.read_text()]
    assert unbounded == [], "use <id:pk> (angels/converters.py)"


@pytest.fixture
def squadron(catalog):
    plane = AircraftType.objects.get(name="Supermarine Spitfire")
    return squadron_create(
        name="No. 19 Squadron", nation="United Kingdom", side="allied", aircraft_type=plane
    )


@pytest.mark.parametrize("name", ["Channel\r\nBcc: all@example.org", "Two\nlines", "Tab\tbed"])
def test_a_campaign_name_with_a_line_break_is_refused_on_page_and_api(
    django_user_model, squadron, name
):
    staff = django_user_model.objects.create_user("boss", password="pw-boss-1234", is_staff=True)
    api = APIClient()
    api.force_authenticate(staff)
    refused = api.post(
        "/api/campaigns/create/", {"name": name, "squadrons": [squadron.pk]}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["field"] == "name"
    assert "control characters" in refused.json()["detail"]
    page = Client()
    page.force_login(staff)
    form = page.post("/campaigns/new/", {"name": name, "squadrons": [squadron.pk]})
    assert form.status_code == 400 and "no line breaks" in form.content.decode()
    assert not Campaign.objects.exists()


@pytest.fixture
def broken_name_campaign(catalog, django_user_model):
    """A campaign whose name would break a mail header (stored before names were checked)."""
    organiser = django_user_model.objects.create_user("orga", password="pw-orga-1234")
    campaign = campaign_services.campaign_create(name="Channel", created_by=organiser, seed=3)
    Campaign.objects.filter(pk=campaign.pk).update(name="Channel\r\nBcc: all@example.org")
    return campaign, organiser


def test_an_invitation_whose_mail_cannot_be_built_stores_nothing(
    broken_name_campaign, django_capture_on_commit_callbacks
):
    campaign, organiser = broken_name_campaign
    api = APIClient()
    api.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        refused = api.post(
            f"/api/campaigns/{campaign.pk}/invitations/",
            {"role": "commander", "side": "axis", "email": "hans@example.org"},
            format="json",
        )
    assert refused.status_code == 400 and refused.json()["field"] == "email"
    assert "cannot be built" in refused.json()["detail"]
    page = Client()
    page.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        form = page.post(
            f"/accounts/campaigns/{campaign.pk}/invitations/",
            {"role": "commander", "side": "axis", "email": "hans@example.org", "days": 7},
        )
    assert form.status_code == 400 and "cannot be built" in form.content.decode()
    assert not Invitation.objects.exists() and not mail.outbox
    # without an e-mail there is no mail to build: the link is made and shown
    made = api.post(
        f"/api/campaigns/{campaign.pk}/invitations/",
        {"role": "commander", "side": "axis"},
        format="json",
    )
    assert made.status_code == 201 and Invitation.objects.count() == 1

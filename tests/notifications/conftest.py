"""A campaign with an organiser, a commander per side and a spectator, each with an
e-mail address, and a local webhook receiver that records what it is sent."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from campaign.models import Campaign, CampaignMember, Role
from roster.models import Squadron
from roster.services import pilot_create


@pytest.fixture
def people(db):
    User = get_user_model()
    return {
        name: User.objects.create_user(name, email=f"{name}@example.org", password=f"pw-{name}-123")
        for name in ("orga", "allied", "axis", "spectator", "stranger")
    }


@pytest.fixture
def campaign(people):
    """A campaign made by the ORM (no game set-up: these tests are about who is told),
    with a squadron and pilot per side enrolled in it."""
    campaign = Campaign.objects.create(name="Channel 1941", seed=7, created_by=people["orga"])
    CampaignMember.objects.create(campaign=campaign, user=people["orga"], role=Role.ORGANISER)
    for name, role, side in (("allied", Role.COMMANDER, "allied"), ("axis", Role.COMMANDER, "axis"),
                             ("spectator", Role.SPECTATOR, "")):  # fmt: skip
        CampaignMember.objects.create(campaign=campaign, user=people[name], role=role, side=side)
    for side, nation, pilot in (("allied", "British", "Bader"), ("axis", "German", "Galland")):
        squadron = Squadron.objects.create(name=f"{nation} squadron", nation=nation, side=side)
        campaign.squadrons.add(squadron)
        pilot_create(squadron=squadron, name=pilot)
    mail.outbox = []
    return campaign


class Receiver:
    """A local HTTP server standing in for Discord: records each POSTed JSON body and
    answers with ``status``."""

    def __init__(self, status: int = 204) -> None:
        self.status = status
        self.bodies: list[dict] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length", 0))
                receiver.bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def loopback_webhooks(settings):
    """The receivers listen on 127.0.0.1, which a webhook may not name outside tests."""
    settings.NOTIFICATIONS_WEBHOOK_ALLOW_LOOPBACK = True


@pytest.fixture
def receiver(loopback_webhooks):
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def failing_receiver(loopback_webhooks):
    r = Receiver(status=500)
    yield r
    r.close()

"""Every page and endpoint the README names exists (issue 16): each `/path` in backticks,
with the method written before it (GET when none), answers neither 404 nor 405."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import get_resolver

from battles import services as battle_services
from campaign import services as campaign_services
from demo.roster import demo_roster_create
from roster.models import Pilot, Squadron

README = Path(__file__).resolve().parent.parent / "README.md"
NAMED = re.compile(r"`(?:(GET|POST|PUT|PATCH|DELETE) )?(/[^`\s]*)`")


def readme_paths() -> list[tuple[str, str]]:
    """(method, path) for each path named; method "" when the README gives none."""
    found = {(m[1] or "", m[2]) for m in NAMED.finditer(README.read_text())}
    return sorted(found, key=lambda mp: (mp[1], mp[0]))


def test_readme_names_paths():
    paths = [p for _, p in readme_paths()]
    assert "/api/docs/" in paths and "/campaigns/" in paths and len(paths) >= 15, paths


@pytest.fixture
def objects(catalog, admin_user):
    demo_roster_create()
    campaign = campaign_services.campaign_create(
        name="README 1940", created_by=admin_user, seed=5, squadrons=list(Squadron.objects.all())
    )
    battle = battle_services.battle_create(
        scenario="dogfight", flights={}, settings={}, requested_by=admin_user, resolve=False
    )
    return {
        "battles": battle.pk,
        "pilots": Pilot.objects.first().pk,
        "squadrons": Squadron.objects.first().pk,
        "campaigns": campaign.pk,
        "statistics": campaign.pk,
    }


def _concrete(path: str, objects: dict[str, int]) -> str:
    """/pilots/<id>/ -> /pilots/12/: a placeholder takes the id of the object its parent names."""
    parts = path.strip("/").split("/")
    for i, part in enumerate(parts):
        if part.startswith("<"):
            parts[i] = str(objects[parts[i - 1]])
    return "/" + "/".join(parts) + ("/" if path.endswith("/") and parts != [""] else "")


def test_every_readme_path_answers(client, admin_user, objects):
    client.force_login(admin_user)
    missing = []
    for method, path in readme_paths():
        if path.endswith("…"):  # a family of endpoints: some route starts with it
            prefix = path.removesuffix("…").lstrip("/")
            if not any(str(p.pattern).startswith(prefix) for p in get_resolver().url_patterns):
                missing.append((method, path, "no route"))
            continue
        url = _concrete(path, objects)
        if method in ("", "GET"):
            response = client.get(url)
        else:
            send = getattr(client, method.lower())
            response = send(url, data="{}", content_type="application/json")
        # no method named: a write-only endpoint (405 to GET, saying what it allows) exists too
        exists_otherwise = method == "" and response.status_code == 405 and response.get("Allow")
        if response.status_code in (404, 405) and not exists_otherwise:
            missing.append((method, url, response.status_code))
    assert not missing, missing


@pytest.mark.django_db
def test_campaign_new_page_get_leads_to_the_form(client):
    user = get_user_model().objects.create_user("newcomer", password="pw-newcomer-1")
    client.force_login(user)
    response = client.get("/campaigns/new/", follow=True)
    assert response.status_code == 200
    assert b"Start a campaign" in response.content

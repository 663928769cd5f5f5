"""Export and import from the pages (issue 24 §5): the campaign page's Export downloads the
file the API gives; the campaigns list uploads one, the preview page lists what would be
created and each renamed item, Confirm creates it. A copy on the same server renames what
is taken here; a restore keeps the names and is refused naming each clash; a changed file
is refused at the preview and at Confirm with nothing stored."""

from __future__ import annotations

import hashlib
import io
import json
import re

import pytest
from django.apps import apps
from django.core import signing
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings

from campaign.exchange.document import TABLES
from campaign.exchange_views import SALT
from campaign.models import Campaign, ImportUpload, PersonToInvite
from roster.models import Airframe, Squadron

from .exchange_helpers import purge

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="token" value="([^"]+)"')


def _counts() -> dict[str, int]:
    counted = {t: apps.get_model(t).objects.count() for t in TABLES}
    counted["people to invite"] = PersonToInvite.objects.count()
    return counted


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _file(text: str | bytes, name: str = "campaign.json") -> io.BytesIO:
    upload = io.BytesIO(text.encode() if isinstance(text, str) else text)
    upload.name = name
    return upload


def _export(client: Client, campaign: Campaign) -> str:
    response = client.get(f"/campaigns/{campaign.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="campaign-{campaign.pk}.json"'
    return response.content.decode()


def _preview(client: Client, text: str | bytes, mode: str = "copy"):
    return client.post("/campaigns/import/", {"file": _file(text), "mode": mode})


def _token(response) -> str:
    match = TOKEN.search(response.content.decode())
    assert match, response.content.decode()[:2000]
    return match.group(1)


def test_the_campaign_page_offers_export_to_its_organiser_only(campaign, users):
    assert (
        'id="export"' in _as(users["organiser"]).get(f"/campaigns/{campaign.pk}/").content.decode()
    )
    page = _as(users["allied"]).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert 'id="export"' not in page
    assert "Import a campaign" in _as(users["allied"]).get("/campaigns/").content.decode()


def test_a_non_organiser_gets_403_on_export(campaign, users):
    for role in ("allied", "axis", "spectator"):
        assert _as(users[role]).get(f"/campaigns/{campaign.pk}/export/").status_code == 403
    anonymous = Client().get(f"/campaigns/{campaign.pk}/export/")
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]


def test_the_page_export_is_a_file_that_imports(campaign, users):
    organiser = _as(users["organiser"])
    text = _export(organiser, campaign)
    document = json.loads(text)
    api = organiser.get(f"/api/campaigns/{campaign.pk}/export/").json()
    assert document == api  # the same signed document as the API's
    purge(campaign)
    counts = _counts()
    preview = _preview(organiser, text, mode="restore")
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "The campaign Channel 1941" in page and "Nothing: every name is free here." in page
    assert _counts() == counts  # the preview stored nothing but the waiting file
    response = organiser.post("/campaigns/import/confirm/", {"token": _token(preview)})
    assert response.status_code == 302
    imported = Campaign.objects.get(name="Channel 1941")
    assert response["Location"] == f"/campaigns/{imported.pk}/"
    assert not ImportUpload.objects.exists()  # the kept file is gone once used
    page = organiser.get(response["Location"]).content.decode()
    assert "Imported campaign" in page


def test_a_copy_on_the_same_server_renames_what_is_taken_and_the_preview_lists_it(campaign, users):
    organiser = _as(users["organiser"])
    text = _export(organiser, campaign)
    squadrons = list(campaign.squadrons.order_by("name").values_list("name", flat=True))
    serials = json.loads(text)["tables"]["roster.airframe"]
    counts = _counts()
    preview = _preview(organiser, text)
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "Channel 1941 (copy)" in page
    assert (
        "a campaign named <del>Channel 1941</del> becomes <strong>Channel 1941 (copy)</strong>"
        in page
    )
    for name in squadrons:
        assert f"<del>{name}</del> becomes <strong>{name} (copy)</strong>" in page
    assert "churchill (commander of the Allied side)" in page
    assert _counts() == counts and ImportUpload.objects.count() == 1
    confirmed = organiser.post("/campaigns/import/confirm/", {"token": _token(preview)})
    assert confirmed.status_code == 302
    copy = Campaign.objects.get(name="Channel 1941 (copy)")
    assert sorted(copy.squadrons.values_list("name", flat=True)) == [
        f"{n} (copy)" for n in squadrons
    ]
    assert Campaign.objects.get(pk=campaign.pk).name == "Channel 1941"  # the original untouched
    assert Airframe.objects.filter(serial__endswith=" (copy)").count() == len(serials)
    assert list(copy.members.values_list("user__username", "role")) == [("orga", "organiser")]
    people = {(p.username, p.role, p.side) for p in copy.people_to_invite.all()}
    assert people == {
        ("churchill", "commander", "allied"),
        ("goering", "commander", "axis"),
        ("reporter", "spectator", ""),
    }
    # a second copy takes the next free suffix
    again = _preview(organiser, text)
    assert "becomes <strong>Channel 1941 (copy 2)</strong>" in again.content.decode()
    organiser.post("/campaigns/import/confirm/", {"token": _token(again)})
    assert Campaign.objects.filter(name="Channel 1941 (copy 2)").exists()


def test_a_restore_with_a_name_taken_here_is_refused_naming_each_clash(campaign, users):
    organiser = _as(users["organiser"])
    text = _export(organiser, campaign)
    counts = _counts()
    response = _preview(organiser, text, mode="restore")
    assert response.status_code == 400
    page = response.content.decode()
    assert "Not imported, nothing was stored" in page
    assert "a campaign named &#x27;Channel 1941&#x27;" in page
    for name in campaign.squadrons.values_list("name", flat=True):
        assert f"a squadron named &#x27;{name}&#x27;" in page
    assert _counts() == counts and not ImportUpload.objects.exists()


def test_a_changed_file_is_refused_at_the_preview_and_at_confirm_with_nothing_stored(
    campaign, users
):
    organiser = _as(users["organiser"])
    text = _export(organiser, campaign)
    counts = _counts()
    changed = json.loads(text)
    changed["tables"]["roster.pilot"][0]["name"] = "Someone else"
    refused = _preview(organiser, json.dumps(changed))
    assert refused.status_code == 400 and "the file is damaged" in refused.content.decode()
    assert _counts() == counts and not ImportUpload.objects.exists()
    # the file kept for Confirm changed after its preview (the row edited behind the page)
    preview = _preview(organiser, text)
    upload = ImportUpload.objects.get()
    upload.text = json.dumps(changed)
    upload.save()
    answer = organiser.post("/campaigns/import/confirm/", {"token": _token(preview)})
    assert answer.status_code == 400
    assert "the kept file changed after its preview" in answer.content.decode()
    assert not ImportUpload.objects.exists()
    # a token not signed by this server
    preview = _preview(organiser, text)
    forged = organiser.post("/campaigns/import/confirm/", {"token": _token(preview) + "x"})
    assert forged.status_code == 400
    assert "was not made by this server" in forged.content.decode()
    # and were the kept file and its signed hash both changed (the server's secret known),
    # the import checks the file itself again
    upload = ImportUpload.objects.get()
    upload.text = json.dumps(changed)
    upload.sha256 = hashlib.sha256(upload.text.encode()).hexdigest()
    upload.save()
    token = signing.dumps({"id": upload.pk, "sha": upload.sha256}, salt=SALT)
    answer = organiser.post("/campaigns/import/confirm/", {"token": token})
    assert answer.status_code == 400 and "the file is damaged" in answer.content.decode()
    assert _counts() == counts


def test_confirm_is_the_uploaders_own_and_once(campaign, users):
    organiser = _as(users["organiser"])
    text = _export(organiser, campaign)
    preview = _preview(organiser, text)
    token = _token(preview)
    counts = _counts()
    other = _as(users["allied"]).post("/campaigns/import/confirm/", {"token": token})
    assert other.status_code == 400 and "no file of yours waits" in other.content.decode()
    assert _counts() == counts
    assert organiser.post("/campaigns/import/confirm/", {"token": token}).status_code == 302
    twice = organiser.post("/campaigns/import/confirm/", {"token": token})
    assert (
        twice.status_code == 400 and Campaign.objects.filter(name__endswith="(copy)").count() == 1
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"\xff\xfe not text", "not UTF-8 text"),
        (b"{broken", "broken JSON"),
        (b"[" * 100_000, "broken JSON"),
        (b'{"kind": "something else"}', "not a campaign export"),
    ],
)
def test_a_file_that_is_no_export_is_a_400_naming_why(users, body, words):
    response = _preview(_as(users["organiser"]), body)
    assert response.status_code == 400 and words in response.content.decode()
    assert not ImportUpload.objects.exists()


def test_no_file_or_a_bad_mode_is_a_400(users):
    client = _as(users["organiser"])
    assert client.post("/campaigns/import/", {"mode": "copy"}).status_code == 400
    response = client.post("/campaigns/import/", {"file": _file("{}"), "mode": "merge"})
    assert response.status_code == 400 and "must be one of" in response.content.decode()


def test_the_file_people_wait_in_the_invitations_block_with_a_prefilled_invite(campaign, users):
    organiser = _as(users["organiser"])
    text = _export(organiser, campaign)
    organiser.post("/campaigns/import/confirm/", {"token": _token(_preview(organiser, text))})
    copy = Campaign.objects.get(name="Channel 1941 (copy)")
    page = organiser.get(f"/campaigns/{copy.pk}/").content.decode()
    assert "People of the imported file" in page
    person = copy.people_to_invite.get(username="goering")
    link = f"/accounts/campaigns/{copy.pk}/invitations/?role=commander&amp;side=axis&amp;person={person.pk}"
    assert link in page
    form = organiser.get(link.replace("&amp;", "&")).content.decode()
    assert re.search(r'<option value="axis" selected>', form)
    made = organiser.post(
        link.replace("&amp;", "&"), {"role": "commander", "side": "axis", "email": "", "days": 7}
    )
    assert made.status_code == 200
    assert not copy.people_to_invite.filter(username="goering").exists()
    assert "goering" not in _as(users["allied"]).get(f"/campaigns/{copy.pk}/").content.decode()
    assert "<button>Invite churchill</button>" in page  # he is a user of this server
    # given his part by username, he no longer waits to be invited
    organiser.post(
        f"/campaigns/{copy.pk}/invite/",
        {"username": "churchill", "role": "commander", "side": "allied"},
    )
    page = organiser.get(f"/campaigns/{copy.pk}/").content.decode()
    assert "churchill (commander of the Allied side)" not in page
    assert "reporter (spectator)" in page


def test_the_command_previews_and_imports_a_copy(campaign, users, tmp_path):
    path = tmp_path / "campaign.json"
    path.write_text(_export(_as(users["organiser"]), campaign), encoding="utf-8")
    counts = _counts()
    out = io.StringIO()
    call_command(
        "campaign_import", str(path), "--organiser", "orga", "--mode", "copy", "--preview",
        stdout=out,
    )  # fmt: skip
    assert "Would import campaign 'Channel 1941 (copy)'" in out.getvalue()
    assert "a campaign named 'Channel 1941' becomes 'Channel 1941 (copy)'" in out.getvalue()
    assert _counts() == counts
    call_command("campaign_import", str(path), "--organiser", "orga", "--mode", "copy", stdout=out)
    assert Squadron.objects.filter(name__endswith=" (copy)").count() == campaign.squadrons.count()
    with pytest.raises(CommandError, match="already on this server: a campaign named"):
        call_command("campaign_import", str(path), "--organiser", "orga", stdout=out)


@override_settings(ANGELS_CAMPAIGN_CREATORS="staff")
def test_where_only_staff_start_campaigns_only_staff_import(campaign, users, django_user_model):
    organiser = _as(users["organiser"])
    text = _export(organiser, campaign)
    assert 'id="import"' not in organiser.get("/campaigns/").content.decode()
    assert _preview(organiser, text).status_code == 403
    assert organiser.post("/campaigns/import/confirm/", {"token": "x"}).status_code == 403
    staff = _as(django_user_model.objects.create_user("exchange-staff", is_staff=True))
    assert 'id="import"' in staff.get("/campaigns/").content.decode()
    assert _preview(staff, text).status_code == 200

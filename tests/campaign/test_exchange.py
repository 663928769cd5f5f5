"""Export and import of a whole campaign (issue 16): a round trip through an empty
database gives the same pages and the same bytes; a damaged file, a newer format or
an inconsistent one is refused with nothing loaded."""

from __future__ import annotations

import difflib
import json
import random
import re

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from battles.models import Battle
from campaign import services
from campaign.exchange import ImportRefused, campaign_export, campaign_import, dumps, seal
from campaign.exchange.document import TABLES
from campaign.models import Campaign, CampaignAction
from careers.models import PilotEvent
from careers.services import table_battle_record
from demo.campaign import demo_campaign_play, stand_in_choice
from demo.roster import demo_careers_create, demo_roster_create
from roster.models import Pilot, Squadron
from rules.cardgame import GameState, action_to_json

from .exchange_helpers import pages, purge
from .test_engine_engagements import engine_war_until_a_battle

pytestmark = pytest.mark.django_db

ROW_TABLES = (*TABLES, "auth.user")


def _counts() -> dict[str, int]:
    counted = {t: apps.get_model(t).objects.count() for t in ROW_TABLES}
    for t in ("roster.pilot", "roster.squadron", "campaign.campaign"):
        counted[f"history:{t}"] = apps.get_model(t).history.count()
    return counted


@pytest.fixture
def viewer(django_user_model, client):
    staff = django_user_model.objects.create_user(
        "exchange-staff", is_staff=True, is_superuser=True
    )
    client.force_login(staff)
    return client


def _round_trip(campaign: Campaign, client) -> tuple[Campaign, dict, dict]:
    """Export, take the campaign and its roster out, its organiser imports it: the new
    campaign and both exports, less what an import does not bring (:func:`_own`)."""
    before_pages = pages(campaign, client)
    first = campaign_export(campaign)
    old_pk = campaign.pk
    organiser = campaign.created_by
    purge(campaign)
    report = campaign_import(json.loads(dumps(first)), by=organiser)
    imported = report.campaign
    assert imported.pk != old_pk
    second = campaign_export(imported)
    after_pages = pages(imported, client)
    assert set(before_pages) == set(after_pages)
    # the file's commanders and spectators are not members here (issue 23): invited anew
    before_pages = {k: _OTHER_MEMBERS.sub("", html) for k, html in before_pages.items()}
    # ... and offered to the importer as people to invite (issue 23), on the campaign page
    after_pages = {k: _PEOPLE_TO_INVITE.sub("", html) for k, html in after_pages.items()}
    differ = [name for name, html in before_pages.items() if after_pages[name] != html]
    shown = [
        line
        for name in differ[:4]
        for line in difflib.unified_diff(
            before_pages[name].splitlines(), after_pages[name].splitlines(), name, name, n=0
        )
    ]
    assert not differ, f"{len(differ)} of {len(before_pages)} pages differ:\n" + "\n".join(shown)
    return imported, _own(first, organiser.username), _own(second, organiser.username)


_PEOPLE_TO_INVITE = re.compile(r"<h3>People of the imported file</h3>.*?</ul>", re.S)
_OTHER_MEMBERS = re.compile(r"<li>[^<]* — (Commander|Spectator)[^<]*</li>")
_HISTORY_META = ("history_user", "history_date", "history_change_reason")


def _own(document: dict, organiser: str) -> dict:
    """A document less what an import does not bring over (issue 23): the other people
    (members, who acted, who flew), and when and by whom each history row was recorded
    (the import keeps those as text), and the import's own history row."""
    out = json.loads(dumps(document))
    out["users"] = [u for u in out["users"] if u["username"] == organiser]
    tables = out["tables"]
    tables["campaign.campaignmember"] = [
        {**m, "ref": 0} for m in tables["campaign.campaignmember"] if m["user"] == organiser
    ]
    for action in tables["campaign.campaignaction"]:
        action["actor"] = action["undone_by"] = None
    for battle in tables["battles.battle"]:
        battle["requested_by"] = None
    for table, rows in out["history"].items():
        out["history"][table] = [
            {k: v for k, v in row.items() if k not in _HISTORY_META}
            for row in rows
            if not str(row.get("history_change_reason") or "").startswith("imported from a file")
        ]
    out.pop("checksum")
    return out


def _play(campaign: Campaign, user, actions: int, capture, *, table_result: bool = False) -> None:
    rng = random.Random(campaign.seed)
    for _ in range(actions):
        campaign.refresh_from_db()
        if campaign.status == "finished":
            return
        state = GameState.from_json(campaign.state)
        legal = state.legal_actions()
        if legal:
            action = action_to_json(stand_in_choice(legal, rng))
        elif table_result and state.current_mission:
            # the table's result, entered by the umpire: nobody lost
            result = {"mode": "table", "mission_id": state.current_mission}
            action = {"type": "result", "side": "umpire", "result": json.dumps(result)}
        else:
            return
        with capture(execute=True):
            services.campaign_act(
                campaign_id=campaign.pk, user=user, version=campaign.version, action=action,
                umpire_reason="the test plays both sides",
            )  # fmt: skip


def test_the_demo_campaign_comes_back_the_same(catalog, viewer, django_user_model):
    organiser = django_user_model.objects.create_user("demo-organiser", is_staff=True)
    demo_roster_create()
    careers = demo_careers_create(organiser=organiser)
    campaign = Campaign.objects.get(name=careers.campaign)
    assert demo_campaign_play(campaign=campaign, organiser=organiser, until_turn=4) > 0
    campaign.refresh_from_db()
    imported, first, second = _round_trip(campaign, viewer)
    assert dumps(second) == dumps(first)
    tables = first["tables"]
    assert len(tables["roster.pilot"]) == Pilot.objects.filter(squadron__campaigns=imported).count()
    assert tables["careers.claim"] and tables["careers.tablebattle"]
    assert tables["careers.appliedresult"] and tables["careers.pilotevent"]
    assert (
        len(tables["campaign.campaignaction"])
        == CampaignAction.objects.filter(campaign=imported).count()
    )
    assert first["history"]["roster.pilot"], "the pilots' history travels with them"
    # the ids inside the document are its own refs, not the database's
    assert tables["campaign.campaign"][0]["ref"] == 1
    assert all(b["source_key"].startswith("campaign:1:") for b in tables["battles.battle"])


@pytest.mark.parametrize("mode", ["card", "table"])
def test_a_random_campaign_comes_back_the_same(
    mode, catalog, users, viewer, django_capture_on_commit_callbacks
):
    demo_roster_create()
    seed = random.Random(mode).randrange(1, 10_000)
    campaign = services.campaign_create(
        name=f"Random {mode} war", created_by=users["organiser"], seed=seed,
        resolution_mode=mode, squadrons=list(Squadron.objects.all()),
    )  # fmt: skip
    services.campaign_member_set(
        campaign=campaign, by=users["organiser"], user=users["allied"], role="commander",
        side="allied",
    )  # fmt: skip
    _play(campaign, users["organiser"], 150, django_capture_on_commit_callbacks, table_result=True)
    campaign.refresh_from_db()
    if mode == "table":
        allied = Pilot.objects.filter(enrolled_in=campaign, squadron__side="allied").first()
        axis = Pilot.objects.filter(enrolled_in=campaign, squadron__side="axis").first()
        assert allied and axis
        table_battle_record(
            name="Over the Channel", system="air_pirates", territory="neutral", campaign=campaign,
            flights=[{"pilot_id": allied.pk}, {"pilot_id": axis.pk}],
            kills=[{"victim_pilot_id": axis.pk, "attacks": [[allied.pk, 1]]}],
        )  # fmt: skip
    assert campaign.actions.count() > 20
    imported, first, second = _round_trip(campaign, viewer)
    assert dumps(second) == dumps(first)
    assert imported.resolution_mode == mode


def test_an_engine_campaign_comes_back_the_same(
    catalog, users, viewer, django_capture_on_commit_callbacks
):
    campaign = engine_war_until_a_battle(users["organiser"], django_capture_on_commit_callbacks)
    campaign.refresh_from_db()
    assert Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:").exists()
    imported, first, second = _round_trip(campaign, viewer)
    assert dumps(second) == dumps(first)
    battle = Battle.objects.get(source_key__startswith=f"campaign:{imported.pk}:")
    assert battle.settings["campaign"] == imported.pk
    kills = PilotEvent.objects.filter(
        campaign=imported, kind="kill", battle_ref=f"battle:{battle.pk}"
    )
    assert kills.count() == len(
        [e for e in first["tables"]["careers.pilotevent"] if e["kind"] == "kill"
         and e["battle_ref"] == "battle:1"]
    )  # fmt: skip


@pytest.fixture
def exported(campaign, users, django_capture_on_commit_callbacks):
    _play(campaign, users["organiser"], 40, django_capture_on_commit_callbacks)
    return campaign_export(campaign)


def _refused(document, match: str) -> None:
    before = _counts()
    by = apps.get_model("auth.user").objects.get(username="churchill")
    with pytest.raises(ImportRefused, match=match):
        campaign_import(document, by=by)
    assert _counts() == before


def test_a_newer_format_is_refused_and_nothing_is_loaded(exported, campaign):
    purge(campaign)
    _refused(seal({**exported, "format": 2}), "format 2, newer than this server reads")


def test_a_damaged_file_is_refused_and_nothing_is_loaded(exported, campaign):
    purge(campaign)
    changed = json.loads(dumps(exported))
    changed["tables"]["roster.pilot"][0]["air_kills"] = 99
    _refused(changed, "damaged: its checksum does not match")
    # inconsistent, though sealed: a pilot of a squadron the file does not hold
    dangling = json.loads(dumps(exported))
    dangling["tables"]["roster.pilot"][-1]["squadron"] = 999
    _refused(seal(dangling), r"names roster.squadron ref 999, which is not in the file")
    bad = json.loads(dumps(exported))
    bad["tables"]["roster.pilot"][-1]["status"] = "on leave"
    _refused(seal(bad), "status")
    for column, value, words in (
        ("created_by", ["orga"], "names user"),
        ("created_at", "2026-13-45T00:00:00", "not a date and time"),
        ("turn", "many", "turn"),
    ):
        odd = json.loads(dumps(exported))
        odd["tables"]["campaign.campaign"][0][column] = value
        _refused(seal(odd), words)
    # a late row breaking a database rule: the rows before it are not kept either
    late = json.loads(dumps(exported))
    late["tables"]["campaign.campaignaction"][-1]["sequence"] = late["tables"][
        "campaign.campaignaction"
    ][0]["sequence"]
    _refused(seal(late), "breaks a rule of this database")
    assert campaign_import(exported, by=campaign.created_by).campaign.name == "Channel 1941"


def test_a_name_already_here_is_refused(exported):
    _refused(exported, "already on this server: a campaign named 'Channel 1941'")


def test_the_commands_write_and_load_a_file(exported, campaign, tmp_path, capsys):
    path = tmp_path / "campaign.json"
    call_command("campaign_export", str(campaign.pk), "-o", str(path))
    text = path.read_text(encoding="utf-8")
    assert json.loads(text)["format"] == 1
    purge(campaign)
    broken = tmp_path / "broken.json"
    broken.write_text(text[: len(text) // 2], encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError, match="broken JSON"):
        call_command("campaign_import", str(broken), "--organiser", "orga")
    assert _counts() == before
    call_command("campaign_import", str(path), "--organiser", "orga")
    out = capsys.readouterr().out
    imported = Campaign.objects.get(name="Channel 1941")
    assert f"as #{imported.pk}" in out
    again = tmp_path / "again.json"
    call_command("campaign_export", str(imported.pk), "-o", str(again))
    mine = _own(json.loads(again.read_text(encoding="utf-8")), "orga")
    assert dumps(mine) == dumps(_own(json.loads(text), "orga"))


def test_the_files_people_are_named_to_invite_not_created(
    exported, campaign, users, django_user_model
):
    """Issue 23: an import creates no user and makes nobody a member but its importer."""
    purge(campaign)
    django_user_model.objects.filter(username="churchill").delete()
    report = campaign_import(exported, by=users["organiser"])
    assert not django_user_model.objects.filter(username="churchill").exists()
    assert any(p.startswith("churchill (commander") for p in report.people)
    assert list(report.campaign.members.values_list("user__username", "role")) == [
        (users["organiser"].username, "organiser")
    ]


def test_a_battles_seats_travel_by_username(
    catalog, users, django_user_model, django_capture_on_commit_callbacks
):
    """A battle flown by people is seated to users; the file names them, the import seats
    this server's users of those names (whatever their ids)."""
    campaign = engine_war_until_a_battle(users["organiser"], django_capture_on_commit_callbacks)
    battle = Battle.objects.get(source_key__startswith=f"campaign:{campaign.pk}:")
    battle.settings = {
        **battle.settings,
        "seats": {"axis": {"user": users["axis"].pk}, "allied": {"pilot": "tactical"}},
    }
    battle.save(update_fields=["settings"])
    document = json.loads(dumps(campaign_export(campaign)))
    (row,) = document["tables"]["battles.battle"]
    assert row["settings"]["seats"] == {
        "axis": {"user": "goering"},
        "allied": {"pilot": "tactical"},
    }
    assert "goering" in [u["username"] for u in document["users"]]
    purge(campaign)
    users["axis"].delete()
    django_user_model.objects.create_user("someone-else")  # ids move on
    report = campaign_import(document, by=users["organiser"])
    assert not django_user_model.objects.filter(username="goering").exists()
    imported = Battle.objects.get(source_key__startswith=f"campaign:{report.campaign.pk}:")
    # a finished battle is a record: who flew it is nobody here ("a former user" on its page)
    assert imported.settings["seats"]["axis"] == {"user": None}
    assert imported.seed == row["seed"]
    # a seat naming a user the file does not carry is refused, nothing loaded
    purge(report.campaign)
    row["settings"]["seats"]["axis"]["user"] = "nobody-here"
    _refused(seal(document), "a seat names user 'nobody-here'")

"""Nobody where they don't belong (issue 13): every write operation of the API and
every form post of the pages, tried by each kind of user, against two campaigns.

The cast: campaign A (organiser ``orga``, commanders of the side to act and of
the other side) with its own squadrons and pilots, campaign B (organiser
``orgb``) with its own, and a staff user. Each row of :data:`OPERATIONS` is one
write with the status each kind of user gets. A refusal (401/403, or the login
page for the anonymous) leaves every row of the database as it was; an
allowed write changes something.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import Invitation
from accounts.services import invitation_create
from battles import play
from battles import services as battle_services
from battles.models import Battle, BattleBatch, BattleStatus
from campaign import services as campaign_services
from campaign.exchange import campaign_export, dumps, seal
from campaign.models import Campaign, CampaignAction, CampaignMember
from careers.models import (
    AppliedResult,
    AwardDefinition,
    CareerSettings,
    Claim,
    PilotEvent,
    TableBattle,
)
from careers.services import pilot_enlist, table_battle_record
from roster.models import AircraftType, Pilot, PilotStatus, Squadron
from roster.services import squadron_create
from tests.battles.seating import seats_accepted
from tests.conftest import catalog_fill

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "commander", "other_commander", "organiser", "other_organiser", "staff")
STORED_LATER = (201, 202)  # a battle, batch or odds preview stored, flown in the background
LOGIN = "login"  # a page answers the anonymous with a redirect to the login page
STORED = (
    Battle, BattleBatch, Campaign, CampaignAction, CampaignMember, Pilot, Squadron, PilotEvent,
    AppliedResult, TableBattle, Claim, CareerSettings, AwardDefinition, Invitation,
)  # fmt: skip


def _snapshot() -> dict[str, list[dict[str, Any]]]:
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in STORED}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the file's tests, in a transaction rolled back after the last: each
    test runs in a savepoint inside it (and each role's try in one inside that), so every
    test starts from this same stored world."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _world()
        transaction.set_rollback(True)


def _world():
    catalog_fill()
    make = get_user_model().objects.create_user
    users = {
        "organiser": make("orga", password="pw-orga-123"),
        "commander": make("cmdr", password="pw-cmdr-123"),
        "other_commander": make("rival", password="pw-rival-123"),
        "other_organiser": make("orgb", password="pw-orgb-123"),
        "staff": make("admin", password="pw-admin-123", is_staff=True),
    }
    make("reporter", password="pw-reporter-1")  # a user to invite
    spit = AircraftType.objects.get(name="Supermarine Spitfire")
    me109 = AircraftType.objects.get(name="Messerschmitt Bf 109")
    sq = {
        key: squadron_create(name=name, nation=nation, side=side, aircraft_type=plane)
        for key, name, nation, side, plane in (
            ("raf_a", "No. 19 Squadron", "United Kingdom", "allied", spit),
            ("jg_a", "JG 51", "Germany", "axis", me109),
            ("raf_b", "No. 92 Squadron", "United Kingdom", "allied", spit),
            ("jg_b", "JG 26", "Germany", "axis", me109),
            ("raf_free", "No. 65 Squadron", "United Kingdom", "allied", spit),
        )
    }
    pilots = {
        key: pilot_enlist(squadron=sq[squadron], name=name, quality="average", quality_scale="air_force")
        for key, name, squadron in (
            ("a_allied", "Bader", "raf_a"), ("a_axis", "Mölders", "jg_a"),
            ("b_allied", "Tuck", "raf_b"), ("b_axis", "Galland", "jg_b"),
            ("a_lost", "Lacey", "raf_a"), ("a_axis2", "Balthasar", "jg_a"),
        )
    }  # fmt: skip
    Pilot.objects.filter(pk=pilots["a_lost"].pk).update(status=PilotStatus.KILLED)
    a = campaign_services.campaign_create(
        name="Campaign A", created_by=users["organiser"], seed=3, progression_rule="air_force",
        squadrons=[sq["raf_a"], sq["jg_a"]],
    )  # fmt: skip
    b = campaign_services.campaign_create(
        name="Campaign B", created_by=users["other_organiser"], seed=4,
        squadrons=[sq["raf_b"], sq["jg_b"]],
    )  # fmt: skip
    # a pilot of the free roster, in no campaign, for the organiser to enrol
    pilots["free"] = pilot_enlist(
        squadron=sq["raf_free"], name="Deere", quality="average", quality_scale="air_force"
    )
    current = a.current_side
    other = "axis" if current == "allied" else "allied"
    for role, side in (("commander", current), ("other_commander", other)):
        campaign_services.campaign_member_set(
            campaign=a, by=users["organiser"], user=users[role], role="commander", side=side
        )
    # an action the organiser may take back
    a = campaign_services.campaign_correct(
        campaign_id=a.pk, by=users["organiser"], reason="opening slip", pp={current: 11}
    )
    table = table_battle_record(
        name="Table 1", system="air_pirates", territory="neutral", campaign=a,
        flights=[{"pilot_id": pilots["a_allied"].pk}, {"pilot_id": pilots["a_axis"].pk}],
        kills=[{"victim_pilot_id": pilots["a_axis"].pk, "attacks": [[pilots["a_allied"].pk, 1]]}],
    )  # fmt: skip
    battles = {}
    for key, status in (("draft", BattleStatus.DRAFT), ("failed", BattleStatus.FAILED)):
        battle = battle_services.battle_create(scenario="dogfight", seed=5, resolve=False)
        Battle.objects.filter(pk=battle.pk).update(
            source_key=f"campaign:{a.pk}:turn1:{key}", settings={"campaign": a.pk}, status=status
        )
        battles[key] = battle.pk
    own = battle_services.battle_create(
        scenario="dogfight", seed=6, resolve=False, requested_by=users["commander"]
    )
    battles["own_draft"] = own.pk
    # issue 14: a battle the commander flies against the tactical computer pilot
    in_play = battle_services.battle_create(
        scenario="dogfight", seed=7, requested_by=users["staff"],
        settings={"seats": {"axis": {"user": users["commander"].pk}, "allied": {"pilot": "tactical"}}},
    )  # fmt: skip
    battles["in_play"] = seats_accepted(in_play).pk  # staff offered the seat (issue 23)
    invitation, link = invitation_create(campaign=a, by=users["organiser"], role="spectator")
    return {
        "invitation": invitation.pk, "token": link.rstrip("/").rsplit("/", 1)[1],
        "users": users, "a": Campaign.objects.get(pk=a.pk), "b": b, "sq": sq,
        "p": {k: v.pk for k, v in pilots.items()}, "claim": table.claims.get().pk,
        "battles": battles, "current": current,
    }  # fmt: skip


def _expect(allowed: int, who: tuple[str, ...], *, page: bool = False) -> dict[str, Any]:
    """``allowed`` for the roles in ``who``, 403 for the other signed-in roles."""
    out: dict[str, Any] = {role: (allowed if role in who else 403) for role in ROLES}
    out["anonymous"] = LOGIN if page else 401
    return out


SIGNED_IN = ROLES[1:]
WRITERS = ("organiser", "staff")  # career writes: staff or the campaign's organiser
PLAYERS = ("commander", "organiser")  # a game action of the side to act
NOBODY: tuple[str, ...] = ()


@dataclass(frozen=True)
class Op:
    name: str
    method: str
    url: Callable[[dict], str]
    data: Callable[[dict], dict] = field(default=lambda w: {})
    expected: dict[str, Any] = field(default_factory=dict)
    page: bool = False


def _engagement(w, campaign, *, flown, victim=None):
    kill: dict[str, Any] = {"shooter_pilot_id": w["p"][flown]}
    kill |= (
        {"victim_pilot_id": w["p"][victim]}
        if victim
        else {"victim_aircraft": "Messerschmitt Bf 109"}
    )
    return {"source_key": "matrix:1", "campaign": w[campaign].pk,
            "record": {"mode": "engine", "battle_ref": "M", "territory": "allied",
                       "flown": [{"pilot_id": w["p"][flown]}], "kills": [kill]}}  # fmt: skip


def _table(w, *pilots):
    return {"campaign": w["a"].pk, "name": "Matrix", "system": "air_pirates", "territory": "neutral",
            "flights": [{"pilot_id": w["p"][p]} for p in pilots]}  # fmt: skip


def _table_form(w, *pilots):
    data = {"campaign": w["a"].pk, "name": "Matrix", "system": "air_pirates", "territory": "neutral",
            "flight-TOTAL_FORMS": len(pilots), "flight-INITIAL_FORMS": 0,
            "shot-TOTAL_FORMS": 0, "shot-INITIAL_FORMS": 0}  # fmt: skip
    for i, p in enumerate(pilots):
        data[f"flight-{i}-pilot"] = w["p"][p]
    return data


def _turn(w):
    """The commander's first legal action in the battle he flies (issue 14)."""
    battle = Battle.objects.get(pk=w["battles"]["in_play"])
    view = play.turn_view(battle, w["users"]["commander"])
    return {"version": view["version"], "action": view["legal_actions"][0]}


def _copy_of_a(w):
    """Campaign A exported, its names (taken here) changed, to import (issue 16)."""
    document = json.loads(dumps(campaign_export(w["a"])))
    tables = document["tables"]
    tables["campaign.campaign"][0]["name"] += " (copy)"
    for row in tables["roster.squadron"]:
        row["name"] += " (copy)"
    for row in tables["roster.airframe"]:
        row["serial"] += "-copy"
    return seal(document)


def _act(w):
    """The side to act's Advance; the organiser acts as umpire, with a reason (issue 24)."""
    action = {"type": "advance", "side": w["current"]}
    return {"version": w["a"].version, "action": action, "umpire_reason": "the matrix"}


A = "/api/roster/campaigns/{}/"
OPERATIONS = [
    # careers API: the campaign's own pilots and squadrons only
    Op("engagement", "post", lambda w: "/api/roster/engagements/",
       lambda w: _engagement(w, "a", flown="a_allied"), _expect(201, WRITERS)),
    Op("engagement capturing another campaign's pilot", "post", lambda w: "/api/roster/engagements/",
       lambda w: _engagement(w, "a", flown="a_allied", victim="b_axis"), _expect(201, NOBODY)),
    Op("engagement naming her campaign for another's pilots", "post", lambda w: "/api/roster/engagements/",
       lambda w: _engagement(w, "b", flown="a_allied", victim="a_axis"), _expect(201, NOBODY)),
    Op("pilot add", "post", lambda w: "/api/roster/pilots/add/",
       lambda w: {"campaign": w["a"].pk, "squadron": w["sq"]["raf_a"].pk, "name": "Lock", "reason": "new"},
       _expect(201, WRITERS)),
    Op("pilot add to another campaign's squadron", "post", lambda w: "/api/roster/pilots/add/",
       lambda w: {"campaign": w["a"].pk, "squadron": w["sq"]["raf_b"].pk, "name": "Lock", "reason": "new"},
       _expect(201, NOBODY)),
    Op("table battle", "post", lambda w: "/api/roster/table-battles/",
       lambda w: _table(w, "a_allied", "a_axis2"), _expect(201, WRITERS)),
    Op("table battle with another campaign's pilot", "post", lambda w: "/api/roster/table-battles/",
       lambda w: _table(w, "a_axis2", "b_allied"), _expect(201, NOBODY)),
    Op("claim confirm", "post", lambda w: f"/api/roster/claims/{w['claim']}/confirm/",
       lambda w: {"reason": "seen"}, _expect(200, WRITERS)),
    Op("claim deny", "post", lambda w: f"/api/roster/claims/{w['claim']}/deny/",
       lambda w: {"reason": "unseen"}, _expect(200, WRITERS)),
    Op("pilot transfer", "post", lambda w: f"/api/roster/pilots/{w['p']['a_allied']}/transfer/",
       lambda w: {"squadron": w["sq"]["raf_b"].pk, "reason": "posted"}, _expect(200, ("staff",))),
    Op("pilot retire", "post", lambda w: f"/api/roster/pilots/{w['p']['a_allied']}/retire/",
       lambda w: {"reason": "tour over"}, _expect(200, ("staff",))),
    Op("pilot revive", "post", lambda w: f"/api/roster/pilots/{w['p']['a_lost']}/revive/",
       lambda w: {"reason": "found"}, _expect(200, ("staff",))),
    Op("career settings", "put", lambda w: A.format(w["a"].pk) + "career-settings/",
       lambda w: {"replacement_rate": 3}, _expect(200, WRITERS)),
    Op("award define", "post", lambda w: A.format(w["a"].pk) + "awards/",
       lambda w: {"name": "DFC", "nation": "United Kingdom", "threshold_kind": "kills", "threshold": 1},
       _expect(201, WRITERS)),
    Op("turn begin", "post", lambda w: A.format(w["a"].pk) + "turn-begin/",
       lambda w: {"campaign_turn": 2}, _expect(200, WRITERS)),
    # campaign API
    Op("campaign create", "post", lambda w: "/api/campaigns/create/",
       lambda w: {"name": "New war", "squadrons": [w["sq"]["raf_a"].pk]}, _expect(201, SIGNED_IN)),
    Op("campaign act", "post", lambda w: f"/api/campaigns/{w['a'].pk}/actions/", _act, _expect(200, PLAYERS)),
    Op("campaign invite", "post", lambda w: f"/api/campaigns/{w['a'].pk}/members/",
       lambda w: {"username": "reporter", "role": "spectator"}, _expect(201, ("organiser",))),
    Op("campaign correct", "post", lambda w: f"/api/campaigns/{w['a'].pk}/corrections/",
       lambda w: {"reason": "slip", "st": {"allied": 2}}, _expect(200, ("organiser",))),
    Op("campaign undo", "post", lambda w: f"/api/campaigns/{w['a'].pk}/undo/",
       expected=_expect(200, ("organiser",))),
    Op("campaign enrol", "post", lambda w: f"/api/campaigns/{w['a'].pk}/enrolment/",
       lambda w: {"pilots": [w["p"]["free"]]}, _expect(200, ("organiser",))),
    Op("campaign engine rules", "put", lambda w: f"/api/campaigns/{w['a'].pk}/engine-rules/",
       lambda w: {"engine_rules": {"midair_collision": True}}, _expect(200, ("organiser",))),
    # invitations (issue 15): the organiser makes and withdraws; any other signed-in user
    # may accept (the organiser is refused his own campaign's link)
    Op("invitation make", "post", lambda w: f"/api/campaigns/{w['a'].pk}/invitations/",
       lambda w: {"role": "spectator", "email": "new@example.org"}, _expect(201, ("organiser",))),
    Op("invitation withdraw", "delete",
       lambda w: f"/api/invitations/{w['invitation']}/",
       expected=_expect(200, ("organiser",))),
    Op("invitation accept", "post", lambda w: f"/api/invitations/{w['token']}/accept/",
       expected=_expect(200, ("commander", "other_commander", "other_organiser", "staff"))),
    Op("campaign import", "post", lambda w: "/api/campaigns/import/", _copy_of_a,
       _expect(201, SIGNED_IN)),
    # battles API
    Op("battle create", "post", lambda w: "/api/battles/create/",
       lambda w: {"scenario": "dogfight", "seed": 4}, _expect(202, SIGNED_IN)),
    Op("batch create", "post", lambda w: "/api/battles/batches/",
       lambda w: {"scenario": "dogfight", "runs": 2, "seed": 1}, _expect(202, SIGNED_IN)),
    Op("campaign battle resolve", "post", lambda w: f"/api/battles/{w['battles']['draft']}/resolve/",
       expected=_expect(200, WRITERS)),
    Op("campaign battle retry", "post", lambda w: f"/api/battles/{w['battles']['failed']}/retry/",
       expected=_expect(200, WRITERS)),
    Op("someone's own draft resolve", "post", lambda w: f"/api/battles/{w['battles']['own_draft']}/resolve/",
       expected=_expect(200, ("commander", "staff"))),
    Op("someone's own draft odds", "post", lambda w: f"/api/battles/{w['battles']['own_draft']}/odds/",
       expected=_expect(202, ("commander", "staff"))),
    Op("battle turn act", "post", lambda w: f"/api/battles/{w['battles']['in_play']}/turn/",
       _turn, _expect(200, ("commander",))),
    # pages: form posts
    Op("page: campaign new", "post", lambda w: "/campaigns/new/",
       lambda w: {"name": "New war", "squadrons": [w["sq"]["raf_a"].pk]}, _expect(302, SIGNED_IN, page=True), True),
    Op("page: campaign act", "post", lambda w: f"/campaigns/{w['a'].pk}/act/",
       lambda w: {**_act(w), "action": json.dumps(_act(w)["action"])},
       _expect(302, PLAYERS, page=True), True),
    Op("page: campaign invite", "post", lambda w: f"/campaigns/{w['a'].pk}/invite/",
       lambda w: {"username": "reporter", "role": "spectator"}, _expect(302, ("organiser",), page=True), True),
    Op("page: campaign undo", "post", lambda w: f"/campaigns/{w['a'].pk}/undo/",
       expected=_expect(302, ("organiser",), page=True), page=True),
    Op("page: campaign enrol", "post", lambda w: f"/campaigns/{w['a'].pk}/enrol/",
       lambda w: {"pilots": [w["p"]["free"]]}, _expect(302, ("organiser",), page=True), True),
    Op("page: campaign engine rules", "post", lambda w: f"/campaigns/{w['a'].pk}/engine-rules/",
       lambda w: {"midair_collision": "on"}, _expect(302, ("organiser",), page=True), True),
    Op("page: invitation make", "post", lambda w: f"/accounts/campaigns/{w['a'].pk}/invitations/",
       lambda w: {"role": "spectator", "days": 3}, _expect(200, ("organiser",), page=True), True),
    Op("page: invitation withdraw", "post", lambda w: f"/accounts/invitations/{w['invitation']}/revoke/",
       expected=_expect(302, ("organiser",), page=True), page=True),
    Op("page: invitation accept", "post", lambda w: f"/accounts/invitations/{w['token']}/",
       expected=_expect(302, ("commander", "other_commander", "other_organiser", "staff"), page=True),
       page=True),
    Op("page: table battle", "post", lambda w: "/table-battles/new/",
       lambda w: _table_form(w, "a_allied", "a_axis2"), _expect(302, WRITERS, page=True), True),
    Op("page: table battle with another campaign's pilot", "post", lambda w: "/table-battles/new/",
       lambda w: _table_form(w, "a_axis2", "b_allied"), _expect(302, NOBODY, page=True), True),
    Op("page: claim decide", "post", lambda w: f"/claims/{w['claim']}/decide/",
       lambda w: {"decision": "confirm", "reason": "seen"}, _expect(302, WRITERS, page=True), True),
    Op("page: battle new", "post", lambda w: "/battles/new/",
       lambda w: {"scenario": "dogfight", "axis_policy": "random", "allied_policy": "random", "resolve": "later"},
       _expect(302, SIGNED_IN, page=True), True),
    Op("page: campaign battle resolve", "post", lambda w: f"/battles/{w['battles']['draft']}/resolve/",
       expected=_expect(302, WRITERS, page=True), page=True),
    Op("page: campaign battle retry", "post", lambda w: f"/battles/{w['battles']['failed']}/retry/",
       expected=_expect(302, WRITERS, page=True), page=True),
    Op("page: someone's own draft resolve", "post", lambda w: f"/battles/{w['battles']['own_draft']}/resolve/",
       expected=_expect(302, ("commander", "staff"), page=True), page=True),
    Op("page: battle play", "post", lambda w: f"/battles/{w['battles']['in_play']}/play/",
       lambda w: {"version": _turn(w)["version"], "action": json.dumps(_turn(w)["action"])},
       _expect(302, ("commander",), page=True), True),
]  # fmt: skip


class _Rollback(Exception):
    """Raised to take back one user's try, so the next user meets the same world."""


def _client(op: Op, user) -> Client:
    client: Client = Client() if op.page else APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _try(op: Op, role: str, world: dict) -> tuple[Any, bool, list[str]]:
    """One user's try: (status or LOGIN, whether stored data changed, problems with the answer)."""
    before = _snapshot()
    kwargs = {"format": "json"} if not op.page else {}
    client = _client(op, world["users"].get(role))
    response = getattr(client, op.method)(op.url(world), op.data(world), **kwargs)
    status: Any = response.status_code
    if status == 302 and response["Location"].startswith("/accounts/login/"):
        status = LOGIN
    if status in STORED_LATER and op.expected[role] in STORED_LATER:
        status = op.expected[role]  # stored: created (201) or stored to be flown later (202)
    problems = []
    if status in (400, 401, 403, 404) and not op.page:
        body = response.json()
        if not (set(body) >= {"detail", "field", "rule", "code", "errors"} and body["detail"]):
            problems.append(f"{role}: not the API's error shape: {body}")
    if status not in (op.expected[role], LOGIN, 401, 403):
        problems.append(f"{role}: {response.content[:300]!r}")
    return status, _snapshot() != before, problems


@pytest.mark.parametrize("op", OPERATIONS, ids=[op.name for op in OPERATIONS])
def test_each_write_is_open_only_to_whom_it_belongs(world, op):
    statuses, changed, problems = {}, {}, []
    for role in ROLES:
        try:
            with transaction.atomic():
                statuses[role], changed[role], found = _try(op, role, world)
                problems += found
                raise _Rollback
        except _Rollback:
            pass
    assert statuses == op.expected, problems
    refused = {role: op.expected[role] in (LOGIN, 401, 403) for role in ROLES}
    # a refusal stores nothing; an allowed write stores something
    assert changed == {role: not refused[role] for role in ROLES}
    assert not problems

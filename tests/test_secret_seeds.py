"""Secrets stay secret: a campaign's engine battles are seeded with a server-secret
key, and a running campaign's battle seeds are its organiser's (and staff's) until
the campaign is finished; standalone battles show their seeds to everyone."""

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from battles import services as battle_services
from battles.models import Battle
from campaign import services
from campaign.engagements import engagement_seed
from campaign.models import Campaign, CampaignStatus
from demo.roster import demo_roster_create
from roster.models import Squadron
from rules.dice import derive_seed

pytestmark = pytest.mark.django_db

SEED = 123456789012  # distinctive, so a page that shows it is caught


@pytest.fixture
def users(db):
    User = get_user_model()
    return {
        "organiser": User.objects.create_user("orga", password="pw-orga-123"),
        "commander": User.objects.create_user("churchill", password="pw-allied-123"),
        "staff": User.objects.create_user("admin", password="pw-admin-123", is_staff=True),
    }


@pytest.fixture
def campaign(catalog, users):
    demo_roster_create()
    campaign = services.campaign_create(
        name="Channel 1941",
        created_by=users["organiser"],
        seed=7,
        squadrons=list(Squadron.objects.all()),
    )
    services.campaign_member_set(
        campaign=campaign,
        by=users["organiser"],
        user=users["commander"],
        role="commander",
        side="allied",
    )
    return campaign


@pytest.fixture
def campaign_battle(campaign):
    battle = battle_services.battle_create(scenario="dogfight", seed=SEED, resolve=False)
    Battle.objects.filter(pk=battle.pk).update(
        source_key=f"campaign:{campaign.pk}:turn1:m1", settings={"campaign": campaign.pk}
    )
    return Battle.objects.get(pk=battle.pk)


def _sees_seed(client, user, battle) -> dict[str, bool]:
    client.logout()
    if user is not None:
        client.force_login(user)
    listed = client.get("/api/battles/").json()["results"]
    return {
        "list": next(b for b in listed if b["id"] == battle.pk)["seed"] == SEED,
        "detail": client.get(f"/api/battles/{battle.pk}/").json()["seed"] == SEED,
        "log": client.get(f"/api/battles/{battle.pk}/log/").json()["seed"] == SEED,
        "page": str(SEED) in client.get(f"/battles/{battle.pk}/").content.decode(),
        "list page": str(SEED) in client.get("/battles/").content.decode(),
    }


ALL = {"list": True, "detail": True, "log": True, "page": True, "list page": True}
NONE = dict.fromkeys(ALL, False)


def test_the_engagement_seed_is_keyed_by_the_server_secret():
    key = "turn1:m1"
    with override_settings(SECRET_KEY="one secret"):
        first = engagement_seed(7, key)
        assert engagement_seed(7, key) == first  # deterministic
    with override_settings(SECRET_KEY="another secret"):
        second = engagement_seed(7, key)
    assert first != second
    assert first != derive_seed(7, f"engagement {key}")  # not the public-key derivation


def test_a_running_campaigns_battle_seed_is_the_organisers(client, users, campaign_battle):
    assert _sees_seed(client, None, campaign_battle) == NONE
    assert _sees_seed(client, users["commander"], campaign_battle) == NONE
    assert _sees_seed(client, users["organiser"], campaign_battle) == ALL
    assert _sees_seed(client, users["staff"], campaign_battle) == ALL
    # hidden, not changed: the row keeps its seed (replay reads it)
    assert Battle.objects.get(pk=campaign_battle.pk).seed == SEED


def test_a_finished_campaigns_battle_seeds_are_everyones(client, users, campaign, campaign_battle):
    Campaign.objects.filter(pk=campaign.pk).update(status=CampaignStatus.FINISHED, winner="allied")
    assert _sees_seed(client, None, campaign_battle) == ALL
    assert _sees_seed(client, users["commander"], campaign_battle) == ALL


def test_a_standalone_battles_seed_is_everyones(client, users, catalog):
    battle = battle_services.battle_create(scenario="dogfight", seed=SEED, resolve=False)
    assert _sees_seed(client, None, battle) == ALL
    assert _sees_seed(client, users["commander"], battle) == ALL


def test_an_odds_preview_seed_does_not_reveal_the_battle_seed(catalog):
    """The odds batch's seed is public (the batch API shows it); derived from the battle's
    seed with the server-secret key, it cannot be matched by trying battle seeds with the
    public derivation, and another server secret gives another seed."""
    battle = battle_services.battle_create(scenario="dogfight", seed=SEED, resolve=False)
    batch = battle_services.odds_preview(battle_id=battle.pk, runs=1)
    candidates = range(SEED - 2000, SEED + 2000)  # the true seed is among them
    assert all(derive_seed(s, "odds preview") != batch.seed for s in candidates)
    with override_settings(SECRET_KEY="another-secret-key-for-this-test"):
        other = battle_services.odds_preview(battle_id=battle.pk, runs=1)
    assert other.seed != batch.seed

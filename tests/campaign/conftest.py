import pytest
from django.contrib.auth import get_user_model

from campaign import services
from demo.roster import demo_roster_create
from roster.models import Squadron


@pytest.fixture
def users(db):
    User = get_user_model()
    return {
        "organiser": User.objects.create_user("orga", password="pw-orga-123"),
        "allied": User.objects.create_user("churchill", password="pw-allied-123"),
        "axis": User.objects.create_user("goering", password="pw-axis-123"),
        "spectator": User.objects.create_user("reporter", password="pw-spec-123"),
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
        user=users["allied"],
        role="commander",
        side="allied",
    )
    services.campaign_member_set(
        campaign=campaign, by=users["organiser"], user=users["axis"], role="commander", side="axis"
    )
    services.campaign_member_set(
        campaign=campaign, by=users["organiser"], user=users["spectator"], role="spectator"
    )
    return campaign

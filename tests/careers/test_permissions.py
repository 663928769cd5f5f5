"""Career writes are open to staff and to the organiser of the campaign concerned.

Careers never imports the campaign app: the campaign app's ``ready()`` installs
its organiser check in the one extension point ``roster.campaign_hooks``.
"""

import pytest
from rest_framework.test import APIClient

from campaign.services import campaign_create, is_organiser
from careers.models import TableBattle
from roster.campaign_hooks import current

pytestmark = pytest.mark.django_db


def _table(cast, campaign_id):
    return {
        "campaign": campaign_id, "name": "Organiser's battle", "system": "air_pirates",
        "territory": "neutral", "flights": [{"pilot_id": cast["Bader"].pk}, {"pilot_id": cast["Mölders"].pk}],
    }  # fmt: skip


def test_the_campaign_app_installs_its_organiser_check():
    assert current().is_organiser is is_organiser


def test_a_non_staff_organiser_records_for_his_campaign_only(cast, django_user_model):
    user = django_user_model.objects.create_user("umpire", password="pw-umpire-1")
    own = campaign_create(
        name="Umpire's war", created_by=user, seed=5, squadrons=[cast["raf"], cast["jg"]]
    )
    client = APIClient()
    client.force_authenticate(user)

    assert (
        client.post("/api/roster/table-battles/", _table(cast, own.pk), format="json").status_code
        == 201
    )
    other = _table(cast, cast["campaign"].pk)
    assert client.post("/api/roster/table-battles/", other, format="json").status_code == 403
    assert (
        client.post("/api/roster/table-battles/", _table(cast, None), format="json").status_code
        == 403
    )
    assert list(TableBattle.objects.values_list("campaign_id", flat=True)) == [own.pk]

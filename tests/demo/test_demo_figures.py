"""Issue 12, done when: every figure agrees across the pages for the demo data."""

import re

import pytest
from django.core.management import call_command

from careers import selectors
from careers.models import PilotEvent
from roster.models import Pilot, Squadron

from ..test_one_truth_property import _FIGURE, _block

pytestmark = pytest.mark.django_db


def test_the_demo_figures_agree_on_every_page(client):
    call_command("demo", password="x" * 12)
    home = client.get("/").content.decode()
    for squadron in Squadron.objects.all():
        marker = f'data-squadron="{squadron.pk}"'
        page = _block(client.get(f"/squadrons/{squadron.pk}/").content.decode(), marker)
        on_home = _block(home, marker)
        active = Pilot.objects.filter(squadron=squadron, status="active").count()
        assert on_home["active_pilots"] == page["active_pilots"] == str(active)
        assert on_home["strength"] == page["strength"]
    stats = client.get("/statistics/1/").content.decode()
    assert "∞" not in stats
    for pilot in selectors.pilots_with_figures(Pilot.objects.all()):
        entries = selectors.confirmed_kill_entries(
            PilotEvent.objects.filter(pilot=pilot).order_by("created_at", "id")
        )
        # "Confirmed air kills 10" above 6 kill rows: no more
        assert pilot.air_kills == pilot.confirmed_kills == len(entries), pilot
        if not entries:
            continue
        html = client.get(f"/pilots/{pilot.pk}/").content.decode()
        assert dict(_FIGURE.findall(html))["confirmed_kills"] == str(len(entries))
        assert html.count("data-kill=") == len(entries)
        kills = html.split("Confirmed kills</h2>")[1].split("</table>")[0]
        assert not re.search(r">(allied|axis)-\d+", kills), f"{pilot}: a victim left as a plane id"

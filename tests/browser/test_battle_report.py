"""The battle report in a real browser (issue 16, readable reports), at desktop (1280 px)
and phone (390 px) width: the step buttons move through the log, and the map and the
sentence change with them; the buttons carry words and aria-labels, no font glyphs."""

from __future__ import annotations

import json
import re

import pytest

from battles import services
from battles.models import Battle
from battles.report import hex_center

from .conftest import page_width, screenshot, wait_for_js

pytestmark = pytest.mark.django_db(transaction=True)


def _flown():
    battle = services.battle_create(
        scenario="dogfight",
        seed=3,
        resolve=False,
        settings={"rules": {"tailing": True, "flak_fields": [[8, 10, 3]]}},
    )
    Battle.objects.filter(pk=battle.pk).update(status="pending")
    services.battle_run(battle_id=battle.pk)
    battle.refresh_from_db()
    assert battle.status == "finished", battle.error
    return battle


def _shown(page) -> tuple[str, str, str]:
    return (
        page.inner_text("#event .text"),
        page.inner_html("#planes"),
        page.inner_text("#where"),
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_stepping_through_the_report_changes_the_map_and_the_sentence(open_page, catalog, width):
    battle = _flown()
    events = len(battle.log)
    page = open_page(f"/battles/{battle.pk}/", width)
    assert page_width(page) <= width, "the report scrolls sideways"
    labels = [
        page.get_attribute(f"#controls button[data-go={go}]", "aria-label")
        for go in ("first", "back", "next", "last", "play", "turn-back", "turn-next")
    ]
    assert labels == [
        "First event", "Previous event", "Next event", "Last event", "Play",
        "Previous turn", "Next turn",
    ]  # fmt: skip
    for text in page.locator("#controls button").all_inner_texts():
        assert re.fullmatch(r"[A-Za-z ]+", text.strip()), f"a glyph in the button {text!r}"
    # the legend names every aircraft with its pilot and explains the symbols
    assert page.locator("#legend ul.aircraft li").count() == len(battle.setup["aircraft"])
    legend = page.inner_text("#legend")
    assert "Spitfire Mk I Ace" in legend and "ace pilot" in legend
    assert "Flak field" in legend and "tailing" in legend

    first = _shown(page)
    assert first[0].startswith("Before the first turn: the battle begins")
    assert first[2] == f"turn 0 · event 1/{events}"
    # step forward until an aircraft has moved on the map
    sentences = {first[0]}
    for _ in range(40):
        page.click("#controls button[data-go=next]")
        now = _shown(page)
        sentences.add(now[0])
        if now[1] != first[1]:
            break
    assert now[1] != first[1], "the map never changed"
    # every aircraft drawn in the middle of its hex as the server places it (the page's hex
    # maths, battles/static/battles/hexmap.js, agree with battles/report.py)
    frames = json.loads(page.locator("#frames").text_content())
    at = int(now[2].split("event ")[1].split("/")[0]) - 1
    flying = [
        a for a in frames[at]["aircraft"] if a["fate"] not in ("destroyed", "retreated", "exited")
    ]
    drawn = page.locator("#planes > g").evaluate_all(
        "l => l.map(g => g.getAttribute('transform').match(/[-0-9.]+/g).map(Number))"
    )
    assert len(drawn) == len(flying) > 0
    for (x, y), a in zip(drawn, flying, strict=True):
        cx, cy = hex_center(a["col"], a["row"])
        assert abs(x - cx) < 0.01 and abs(y - cy) < 0.01, (a, x, y)
    assert len(sentences) > 2 and "=" not in "".join(sentences)
    assert any(re.match(r"Turn 1, movement: #\d .* moves at speed \d", s) for s in sentences)
    highlighted = page.locator("#log li[aria-current=step]")
    assert highlighted.count() == 1 and highlighted.inner_text().startswith(now[0])
    page.click("#controls button[data-go=back]")
    assert _shown(page)[0] != now[0]

    page.click("#controls button[data-go=last]")
    last = _shown(page)
    assert last[2].endswith(f"event {events}/{events}")
    assert "the battle is over" in last[0]
    screenshot(page, f"battle-report-{width}")

    page.click("#controls button[data-go=first]")
    assert _shown(page) == first
    page.click("#controls button[data-go=play]")
    assert page.get_attribute("#play", "aria-label") == "Pause"
    wait_for_js(page, "!document.getElementById('where').textContent.includes('event 1/')")
    page.click("#play")
    assert page.get_attribute("#play", "aria-label") == "Play"
    assert _shown(page)[2] != first[2]

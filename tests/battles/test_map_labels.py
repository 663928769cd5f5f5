"""The battle maps' aircraft labels: two aircraft in one hex show two markers and two labels
that do not print over each other (the report, stepped in a browser, and the play page's
server-drawn map), labels large enough to read on a 390 px phone; the play page's hand-over
buttons name an aircraft once, and its choices sit beside the map (no empty band)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from battles import play, services
from battles.board_drawing import play_markers
from battles.models import Battle
from battles.report import frames_from_log
from tests.browser_fixtures import _chromium, _no_browser

FLYING = ("destroyed", "retreated", "exited")
# A label's letters (its halo left out) in map units, and their height on the screen in px.
LABEL_BOX = """text => {
  const box = text.getBBox(), svg = text.ownerSVGElement;
  const moved = text.parentNode.transform.baseVal.consolidate();
  const [dx, dy] = moved ? [moved.matrix.e, moved.matrix.f] : [0, 0];
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return {x: dx + box.x, y: dy + box.y, width: box.width, height: box.height,
          screen: box.height * scale, text: text.textContent};
}"""


# The page measured by Chromium in a child process: Playwright's sync API runs one per
# thread, and the browser tests' session browser (tests/browser/conftest.py) may be open.
MEASURE = """
import json, sys
from playwright.sync_api import sync_playwright
ask = json.loads(sys.argv[1])
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=ask["chromium"], args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page(viewport={"width": ask["width"], "height": 900})
    if ask.get("user"):
        page.goto(ask["base"] + "/accounts/login/")
        page.fill("input[name=username]", ask["user"])
        page.fill("input[name=password]", ask["password"])
        page.click("main form [type=submit]")
        page.wait_for_load_state()
    page.goto(ask["base"] + ask["path"])
    if ask.get("click"):
        page.click(ask["click"])
    out = {"where": page.inner_text("#where") if page.locator("#where").count() else ""}
    out["labels"] = page.locator(ask["labels"]).evaluate_all("l => l.map(" + ask["box"] + ")")
    out["boxes"] = {k: page.locator(v).bounding_box() for k, v in ask.get("boxes", {}).items()}
    browser.close()
print(json.dumps(out))
"""


def _measure(live_server, path: str, width: int, labels: str, **ask) -> dict:
    chromium = _chromium()
    if chromium is None:
        _no_browser("no Chromium at /usr/bin/chromium")
    ask |= {"base": live_server.url, "path": path, "width": width, "labels": labels}
    ask |= {"chromium": chromium, "box": LABEL_BOX}
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, json.dumps(ask)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _flown(seed: int = 3) -> Battle:
    battle = services.battle_create(scenario="dogfight", seed=seed, resolve=False)
    Battle.objects.filter(pk=battle.pk).update(status="pending")
    services.battle_run(battle_id=battle.pk)
    battle.refresh_from_db()
    assert battle.status == "finished", battle.error
    return battle


def _shared_hex_frame(battle: Battle) -> tuple[int, list[int]]:
    """The first event at which two flying aircraft share a hex, and those aircraft."""
    for i, frame in enumerate(frames_from_log(battle.log, battle.setup)):
        where: dict[tuple[int, int], list[int]] = {}
        for a in frame["aircraft"]:
            if a["fate"] not in FLYING:
                where.setdefault((a["col"], a["row"]), []).append(a["plane"])
        for planes in where.values():
            if len(planes) > 1:
                return i, planes
    raise AssertionError("no two aircraft ever shared a hex")


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (0: apart)."""
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(w, 0) * max(h, 0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [1280, 390])
def test_aircraft_sharing_a_hex_on_the_report_have_readable_labels(live_server, catalog, width):
    battle = _flown()
    at, planes = _shared_hex_frame(battle)
    labels = ", ".join(f"#planes g.plane[data-plane='{p}'] text" for p in planes)
    markers = {str(p): f"#planes g.plane[data-plane='{p}'] polygon" for p in planes}
    shown = _measure(
        live_server,
        f"/battles/{battle.pk}/",
        width,
        labels,
        click=f"#log li[data-i='{at}']",
        boxes=markers,
    )
    assert shown["where"].endswith(f"event {at + 1}/{len(battle.log)}")
    boxes = shown["labels"]
    assert [re.findall(r"^#(\d+) A\d", b["text"]) for b in boxes] == [[str(p)] for p in planes]
    assert _overlap(boxes[0], boxes[1]) == 0, f"labels printed over each other: {boxes}"
    first, second = (shown["boxes"][str(p)] for p in planes)
    assert first["x"] != second["x"], "the two markers drawn on top of each other"
    # the label's letters at least 11 px tall on the screen, a phone's too
    assert min(b["screen"] for b in boxes) >= 11, boxes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [1280, 390])
def test_no_label_covers_another_at_the_start_of_the_report(live_server, catalog, width):
    """The Dogfight sets its aircraft in a line two hexes apart: on a phone's narrower map
    their labels would run into each other; each that would cover an earlier one moves."""
    battle = _flown()
    boxes = _measure(live_server, f"/battles/{battle.pk}/", width, "#planes g.plane text")["labels"]
    assert len(boxes) == len(battle.setup["aircraft"]) >= 4
    touching = [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1 :]
                if _overlap(a, b)]  # fmt: skip
    assert not touching, f"labels printed over each other: {touching}"


@pytest.fixture
def seated(catalog, django_user_model):
    user = django_user_model.objects.create_user("hans", password="pw-hans-123")
    seats = {"axis": {"user": "hans"}, "allied": {"user": "hans"}}
    battle = services.battle_create(scenario="dogfight", settings={"seats": seats})
    return battle, user


@pytest.mark.django_db
def test_the_play_page_names_an_aircraft_once_on_its_hand_over_button(client, seated):
    battle, user = seated
    client.force_login(user)
    page = client.get(f"/battles/{battle.pk}/play/").content.decode()
    assert "Hand #2 Spitfire Mk I Ace to the computer" in page
    assert "#2 #2" not in page and "#0 #0" not in page


@pytest.mark.django_db
def test_the_play_page_spreads_markers_and_labels_of_aircraft_sharing_a_hex(seated):
    battle, _ = seated
    board = play.battle_state(battle).describe_board(None)  # what the page draws (issue 25)
    board["pieces"][1]["hex"] = board["pieces"][0]["hex"]  # two aircraft in one hex
    marks = {m["id"]: m for m in play_markers(board)}
    assert marks[0]["x"] != marks[1]["x"] and marks[0]["lift"] != marks[1]["lift"]
    assert marks[2]["lift"] == 0  # alone in its hex: the usual place


@pytest.mark.django_db(transaction=True)
def test_the_play_page_choices_sit_beside_the_map(live_server, catalog, django_user_model):
    django_user_model.objects.create_user("hans", password="pw-hans-123")
    seats = {"axis": {"user": "hans"}, "allied": {"user": "hans"}}
    battle = services.battle_create(scenario="dogfight", settings={"seats": seats})
    shown = _measure(
        live_server,
        f"/battles/{battle.pk}/play/",
        1280,
        "#play-map text.plane-label",
        user="hans",
        password="pw-hans-123",
        boxes={"map": "#play-map", "choices": "#choices"},
    )
    board, choices = shown["boxes"]["map"], shown["boxes"]["choices"]
    assert choices["x"] - (board["x"] + board["width"]) < 40, (board, choices)
    assert shown["labels"] and min(b["screen"] for b in shown["labels"]) >= 11, shown["labels"]

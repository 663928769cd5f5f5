"""Steps of a club's evening in the browser (issue 24 "Done when"), for
tests/browser/test_club_evening.py: signing up, inviting with a copied link, deciding on
the campaign page as a commander would, flying a campaign battle on its play page, and
the words a page must never show. Each step works through the pages only; the test
reads the database to check what the pages said."""

from __future__ import annotations

import re

from battles.models import Battle, BattleStatus
from battles.play import battle_state
from rules.angels20.stats import SIDES as ENGINE_SIDES
from tests.test_words import INTERNAL_WORDS, visible_text

# tests/test_words.py's internal words, and issue 24's other surprises in words
SURPRISES = {
    **INTERNAL_WORDS,
    # "battle #5 (in_play)"; "destroyed by #9 (Hptm Josef Priller)" names a pilot
    "an id and its status": re.compile(r"#\d+ \([a-z_]+\)"),
    "a rulebook code and its heading in quotes": re.compile(r"\b00\d [\"']"),
    "a raw value": re.compile(r"\b(?:True|False)\b|: None\b"),
    "the organiser acting for a side unasked": re.compile(r"as organiser, for (?:axis|allied)"),
}
# the decisions a commander takes on the campaign page, in this order: what the game
# asks first (losses, training, discards), then scrambling and assigning every plane
# offered (so interceptions, and battles flown in the browser, come), then moving on.
# Taking planes off and playing cards are left alone.
POLICY = ("loss", "train", "discard", "scramble", "assign", "advance")
HOW_MANY = re.compile(r"\((\d+) (?:over|to choose)\)|give (\d+) plane")


def surprises(where: str, page) -> list[str]:
    """Every internal word or issue-24 surprise in the page's visible text."""
    text = visible_text(page.content())
    found = []
    for what, pattern in SURPRISES.items():
        for m in pattern.finditer(text):
            found.append(f"{where}: {what}: …{text[max(0, m.start() - 50) : m.end() + 50]}…")
    return found


def assert_plain(where: str, page) -> None:
    found = surprises(where, page)
    assert not found, "\n".join(found)


def sign_up(page, username: str, password: str, *, email: str = "") -> None:
    """Fill the sign-up form the page shows (from an invitation or the site's own)."""
    page.fill("input[name=username]", username)
    if email or not page.input_value("input[name=email]"):
        page.fill("input[name=email]", email or f"{username}@example.org")
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.click("main form [type=submit]")
    page.wait_for_load_state()


def invitation_link(page, base: str, campaign_pk: int, side: str) -> str:
    """The organiser makes a commander's invitation link on the invitations page and
    copies it with the Copy button; returns what the clipboard holds."""
    page.goto(f"{base}/campaigns/{campaign_pk}/")
    with page.expect_navigation():
        page.click("text=Invite by e-mail or make a link")
    page.select_option("select[name=role]", "commander")
    page.select_option("select[name=side]", side)
    with page.expect_navigation():
        page.click("main form [type=submit]")
    shown = page.inner_text("#invitation-link").strip()
    page.click("button[data-copy=invitation-link]")
    page.wait_for_selector("button[data-copy=invitation-link][data-copied=yes]")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == shown and "/accounts/invitations/" in copied
    return copied


def decide_once(page) -> str | None:
    """The commander takes the first decision of :data:`POLICY` the campaign page
    offers, as a person would (ticks and a button); returns its group key, or None
    when the page asks nothing of this commander."""
    forms = page.locator("#decisions form.decision")
    keys = [forms.nth(i).get_attribute("data-group") for i in range(forms.count())]
    for kind in POLICY:
        key = next((k for k in keys if k and k.split(":")[0] == kind), None)
        if key is None:
            continue
        form = page.locator(f'#decisions form[data-group="{key}"]')
        boxes = form.locator("input[type=checkbox][name=choice]")
        if kind in ("loss", "train", "discard"):
            m = HOW_MANY.search(form.locator("legend").inner_text())
            wanted = int(next(g for g in m.groups() if g)) if m else 1
        else:
            wanted = boxes.count()
        for i in range(min(wanted, boxes.count())):
            boxes.nth(i).check()
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        messages = (
            page.locator(".messages").inner_text() if page.locator(".messages").count() else ""
        )
        assert "Done:" in messages and "Not done" not in page.inner_text("main"), (key, messages)
        return key
    return None


def fly(battle: Battle, pages: dict, *, own_choices: int, handed_first: str | None, rng) -> None:
    """Both commanders on the battle's play page: ``handed_first`` (a side) hands its
    side to the computer pilot before any choice, confirming it on the next page; each
    person clicks ``own_choices`` choices, then hands the side over too (confirmed),
    and the computer pilot flies the rest."""
    clicks = {side: 0 for side in pages}
    for page in pages.values():
        page.goto(page.url.split("/campaigns/")[0] + f"/battles/{battle.pk}/play/")
    if handed_first:
        hand_over(pages[handed_first], handed_first)
        clicks[handed_first] = own_choices
    for _ in range(60):
        battle.refresh_from_db()
        if battle.status != BattleStatus.IN_PLAY:
            return
        side = ENGINE_SIDES[battle_state(battle).current_side()]
        page = pages[side]
        if page.get_attribute("#board", "data-version") != str(battle.version):
            page.reload()
        assert "Your choices" in page.inner_text("#board")
        if clicks[side] < own_choices:
            buttons = page.locator("#choices li button")
            with page.expect_navigation():
                buttons.nth(rng.randrange(buttons.count())).click()
            clicks[side] += 1
        else:
            hand_over(page, side)
    raise AssertionError("the battle did not end")


def hand_over(page, side: str) -> None:
    """Hand ``side`` to the computer pilot: a button, then a confirmation page."""
    with page.expect_navigation():
        page.click(f"#hand-over-seats button:text('Hand the {side} side')")
    assert page.locator("#confirm-hand-over").count() == 1  # issue 24: confirmed first
    assert "Hand the " + side + " side to the computer pilot?" in page.inner_text("h1")
    with page.expect_navigation():
        page.click("#confirm-hand-over button")

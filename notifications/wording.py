"""Notification text in sentences, never the product's codes (issue 24 §4).

The senders (the campaign clock, the engagements, the careers) describe an event
in one line that may carry stored codes: a phase ("mission:scramble"), a battle
reference ("battle:6"), a mission card's id ("m29"). A club reads these in its
mail, so :func:`event_words` puts each event in words before anyone is told:

- "your side must act": "Axis must act in turn 3 of Battle of Britain: the Mission
  phase, assigning planes." (from the campaign's row, which the sender has just
  saved; the deadline, when the sender gave one, is kept);
- a pilot lost: "P/O Smith (No. 19 Squadron) was captured in the battle for
  Convoy Bread (turn 3)." linked to that battle's report;
- any other text: the codes it still holds are replaced by their words
  (:func:`plain`).
"""

from __future__ import annotations

import re
from typing import Any

from angels.events import MUST_ACT, PILOT_LOST
from battles.models import Battle
from campaign.decisions import PHASE_NAMES
from campaign.log_sentences import side_word
from campaign.models import Campaign
from campaign.page import STEP_NAMES

PHASE_CODE = re.compile(rf"\b(?:{'|'.join(PHASE_NAMES)}):[a-z_]+\b")
BATTLE_CODE = re.compile(r"\bbattle:(\d+)\b")
MISSION_CODE = re.compile(r"\bm\d+\b")
DUE = re.compile(r", (due [^.]+)\.\s*$")
OUTCOMES = {"captured": "was captured", "killed": "was killed", "missing": "is missing"}


def phase_words(phase: str) -> str:
    """ "mission:assign" -> "the Mission phase, assigning planes"; "" -> ""."""
    name, _, step = (phase or "").partition(":")
    if not name:
        return ""
    words = f"the {PHASE_NAMES.get(name, name.capitalize())} phase"
    return f"{words}, {STEP_NAMES.get(step, step.replace('_', ' '))}" if step else words


def must_act_text(campaign: Campaign, side: str | None, sender_text: str) -> str:
    """ "Axis must act in turn 3 of Battle of Britain: the Mission phase, assigning planes." """
    what = phase_words(campaign.phase)
    due = DUE.search(sender_text)
    tail = f" ({due.group(1)})" if due else ""
    return (
        f"{side_word(side)} must act in turn {campaign.turn} of {campaign.name}"
        f"{': ' + what if what else ''}{tail}."
    )


class _Names:
    """Mission and battle names of one campaign, read when first needed."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self._setup: Any = None

    def mission(self, card_id: str) -> str:
        if self._setup is None:
            from campaign.services import game_state

            try:
                self._setup = game_state(self.campaign).setup
            except Exception:  # a campaign without a game (made by hand): no names
                self._setup = False
        if self._setup:
            try:
                return str(self._setup.card_name(card_id))
            except KeyError:
                pass
        return "a mission"

    def battle(self, pk: int) -> tuple[str, str]:
        """("the battle for Convoy Bread (turn 3)", "/battles/6/") for battle 6."""
        from campaign.engagements import battle_mission_name

        battle = Battle.objects.filter(pk=pk).first()
        if battle is None:
            return "a battle", ""
        name = battle_mission_name(self.campaign, battle)
        if MISSION_CODE.fullmatch(name):
            name = self.mission(name)
        if not name or name == battle.source_key.rsplit(":", 1)[-1]:
            return f"the battle of {battle.created_at:%d %B %Y}", f"/battles/{pk}/"
        return f"the battle for {name}", f"/battles/{pk}/"


def plain(campaign: Campaign, text: str, names: _Names | None = None) -> tuple[str, str]:
    """``text`` with its codes in words, and the link to the battle it names ("" if none)."""
    names = names or _Names(campaign)
    links: list[str] = []

    def battle(match: re.Match[str]) -> str:
        words, url = names.battle(int(match.group(1)))
        if url:
            links.append(url)
        return words

    text = BATTLE_CODE.sub(battle, text)
    text = MISSION_CODE.sub(lambda m: names.mission(m.group(0)), text)
    text = PHASE_CODE.sub(lambda m: phase_words(m.group(0)), text)
    return text, links[0] if links else ""


def pilot_lost_text(campaign: Campaign, key: str, text: str) -> tuple[str, str]:
    """ "P/O X (Sqn) was captured in the battle for Y." and the battle's link ("" if none).

    The sender's line is "<pilot> (<squadron>) is <outcome>: <battle reference>."; its key
    "pilot_lost:<campaign>:<pilot>:<outcome>"."""
    outcome = key.rsplit(":", 1)[-1]
    who, said, ref = text.rpartition(f" is {outcome}: ")
    if not said:
        return plain(campaign, text)
    ref = ref.strip().removesuffix(".")
    names = _Names(campaign)
    where, url = "", ""
    battle = BATTLE_CODE.fullmatch(ref)
    if battle:
        where, url = names.battle(int(battle.group(1)))
    elif ref.startswith(f"{campaign.name}: "):  # a card engagement: "<campaign>: <mission>"
        mission = ref.removeprefix(f"{campaign.name}: ")
        if MISSION_CODE.fullmatch(mission):
            mission = names.mission(mission)
        where = f"the engagement for {mission}"
    elif ref.startswith("Table: "):
        where = f"the table battle {ref.removeprefix('Table: ')}"
    elif ref:
        where, url = plain(campaign, ref, names)
    verb = OUTCOMES.get(outcome, f"is {outcome}")
    return f"{who} {verb}{' in ' + where if where else ''}.", url


def event_words(
    campaign: Campaign, *, kind: str, key: str, text: str, side: str | None, url: str
) -> tuple[str, str]:
    """The event's sentence and the link to show with it (the sender's, or the battle's)."""
    if kind == MUST_ACT and key.startswith("must_act:campaign:"):
        return must_act_text(campaign, side, text), url
    if kind == PILOT_LOST and key.startswith("pilot_lost:"):
        words, battle_url = pilot_lost_text(campaign, key, text)
        return words, battle_url or url
    words, battle_url = plain(campaign, text)
    return words, url or battle_url

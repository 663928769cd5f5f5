"""The one extension point through which ``campaign`` answers the apps below it.

The apps import one way (``rules <- roster <- battles | careers <- campaign``):
``careers`` and ``battles`` never import ``campaign``, yet both ask it questions
(who organises a campaign, which pilots are its own, which battles are its
engagements, who flew the card game's plane "allied-8"). They ask through one
typed :class:`CampaignHooks`, set once by ``CampaignConfig.ready()``
(:func:`install`), in ``roster`` because it is the floor both stand on. Until then
(and in a project without the campaign app) every answer is the closed one: no
organiser, no campaign pilot or squadron, no hidden seed, nobody named.

The card game's engagement modes are not here: the pure game carries its own
(``rules.cardgame.engagement.Resolution``), so no rule waits for Django to start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

#: (something, refs) -> {ref: {"name", "url", ...}}: the roster pilots behind refs
Namer = Callable[[Any, set[str]], dict[str, dict[str, Any]]]


def _no(*args: Any) -> bool:
    return False


def _none(*args: Any) -> None:
    return None


def _nobody(subject: Any, refs: set[str]) -> dict[str, dict[str, Any]]:
    return {}


@dataclass(frozen=True)
class CampaignHooks:
    """What the campaign app answers to ``careers`` and ``battles``."""

    # careers: (campaign, user) -> is this user an organiser of this campaign?
    is_organiser: Callable[[Any, Any], bool] = _no
    # careers: (user) -> queryset of the campaigns this user organises, or None
    organised_campaigns: Callable[[Any], Any] = _none
    # careers: (campaign) -> queryset of roster.Pilot, the campaign's own; None: no scope
    campaign_pilots: Callable[[Any], Any] | None = None
    # careers: (campaign) -> queryset of roster.Squadron, the campaign's own; None: no scope
    campaign_squadrons: Callable[[Any], Any] | None = None
    # careers: (campaign) -> {squadron id: pilots its planes in play lack}, or None when
    # the campaign flies no plane cards: what replacements fill (issue 24)
    pilot_needs: Callable[[Any], dict[int, int] | None] = _none
    # careers: (user, row) -> may this user (not staff) write this roster row? None: no one
    may_edit_row: Callable[[Any, Any], bool] | None = None
    # careers: (campaign, plane refs "allied-8") -> {ref: {"name", "url", ...}}
    plane_crews: Namer = _nobody
    # careers: (campaign, squadron id) -> the campaign's aircraft its pilots fly, as
    # [{"aircraft_type__name", "state" ("in play" / "lost"), "n"}]; None: the library's
    # airframes are the squadron's aircraft (issue 24: "airframes ... per campaign")
    campaign_aircraft: Callable[[Any, int], list[dict[str, Any]]] | None = None
    # battles: (battle) -> None, after a finished battle's result is committed; must be
    # safe to run again after it raised (its writes are rolled back)
    battle_finished: Callable[[Any], None] = _none
    # battles: (battle, user) -> must this battle's seed be kept from this user?
    battle_seed_hidden: Callable[[Any, Any], bool] = _no
    # battles: (battle, user) -> may this user manage this battle (its campaign's organiser)?
    battle_organised_by: Callable[[Any, Any], bool] = _no
    # battles: (battle, pilot refs "plane:allied-3") -> {ref: {"name", "url"}}
    battle_plane_pilots: Namer = _nobody


#: the closed answers, before the campaign app is ready (or without it)
CLOSED = CampaignHooks()

_installed: CampaignHooks = CLOSED


def install(hooks: CampaignHooks) -> None:
    """Set the answers (``CampaignConfig.ready()``; a test or a tool may change one
    with ``install(replace(current(), battle_finished=...))``)."""
    global _installed
    _installed = hooks


def current() -> CampaignHooks:
    return _installed


def with_answer(**answers: Any) -> CampaignHooks:
    """The installed hooks with some answers changed (``dataclasses.replace``)."""
    return replace(_installed, **answers)

"""Career reads: the leaderboard, a pilot's career, a squadron's page, a
campaign's statistics. Each runs a fixed number of queries whatever the
roster's size (tests/careers/test_queries.py pins them)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import (
    BooleanField,
    Count,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.urls import reverse

from roster.campaign_hooks import current
from roster.models import Airframe, Pilot, PilotStatus
from roster.selectors import squadron_figures, squadron_list
from rules.careers.progression import LEADERBOARD_ACE_KILLS

from .battle_words import battle_words
from .models import (
    AppliedResult,
    ClaimState,
    PilotAward,
    PilotEvent,
    PilotEventKind,
    campaign_model,
)
from .tallies import campaign_events as campaign_events  # the one definition, read by others
from .tallies import campaign_tallies
from .types import CampaignLike

# A card-game or engine plane id as the game names it: "allied-8", "axis-12".
PLANE_ID = re.compile(r"(allied|axis)-\d+")
STANDALONE = "standalone"

LEADERBOARD_STATUS: dict[str, tuple[str, ...]] = {
    "living": (PilotStatus.ACTIVE, PilotStatus.WOUNDED, PilotStatus.RETIRED),
    "captured": (PilotStatus.CAPTURED,),
    "killed": (PilotStatus.KILLED,),
    "missing": (PilotStatus.MISSING,),
}


# -- the figures: each computed here and only here (issue 12 "every figure agrees") --


def _event_count(kind: str, **filters: Any) -> Coalesce:
    rows = (
        PilotEvent.objects.filter(pilot=OuterRef("pk"), kind=kind, **filters)
        .order_by()
        .values("pilot")
        .annotate(n=Count("id"))
        .values("n")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), Value(0))


def confirmed_kills_expression() -> Any:
    """A pilot's confirmed kills: his kill entries, less the entries that take a
    confirmed kill back (a denied confirmed claim: ``kill_denied`` with
    ``was: confirmed``). For ``Pilot`` querysets; ``Pilot.air_kills`` must agree
    (tests/test_one_truth.py)."""
    return _event_count(PilotEventKind.KILL) - _event_count(
        PilotEventKind.KILL_DENIED, details__was=ClaimState.CONFIRMED
    )


def ace_expression() -> ExpressionWrapper:
    """A pilot is an ace with 5 or more confirmed kills (SPEC "Roster"): for
    querysets annotated with ``confirmed_kills``, counted or read from the tallies."""
    return ExpressionWrapper(Q(confirmed_kills__gte=LEADERBOARD_ACE_KILLS), BooleanField())


def pilots_with_figures(qs: QuerySet[Pilot]) -> QuerySet[Pilot]:
    """``confirmed_kills`` and ``ace`` (5 or more confirmed kills, SPEC "Roster") on each pilot."""
    return qs.annotate(confirmed_kills=confirmed_kills_expression()).annotate(ace=ace_expression())


def confirmed_kill_entries(events: Iterable[PilotEvent]) -> list[PilotEvent]:
    """The kill entries that count, of one pilot's events: each ``kill_denied``
    of a confirmed claim takes back the kill of the same claim (or the entry it
    names as ``kill_event``, else the latest). ``len()`` of it is
    :func:`confirmed_kills_expression`."""
    events = list(events)
    kills = [e for e in events if e.kind == PilotEventKind.KILL]
    for denied in events:
        if denied.kind != PilotEventKind.KILL_DENIED:
            continue
        if denied.details.get("was") != ClaimState.CONFIRMED or not kills:
            continue
        claim, named = denied.details.get("claim"), denied.details.get("kill_event")
        match = next(
            (k for k in kills if claim is not None and k.details.get("claim") == claim), None
        )
        match = match or next((k for k in kills if named is not None and k.pk == named), None)
        kills.remove(match or kills[-1])
    return kills


def kill_ratio(kills: int, losses: int) -> float | None:
    """Kills per loss; None (shown "—") when there is no loss to divide by."""
    return round(kills / losses, 2) if losses else None


def indefinite(word: str) -> str:
    """ "a Spitfire", "an Avro Anson": the word with its indefinite article."""
    return f"{'an' if word[:1].upper() in 'AEIOU' else 'a'} {word}"


def campaign_of(event: PilotEvent) -> str:
    """The campaign a career entry belongs to, by name, or ``standalone``."""
    if event.campaign_id is not None and event.campaign is not None:
        return event.campaign.name
    return str(event.details.get("campaign") or STANDALONE)


def name_victims(events: list[PilotEvent]) -> None:
    """Sets ``victim_label`` (and ``victim_pilot_id``) on each kill entry: the
    roster pilot shot down with his aircraft ("Sgt X (Spitfire I)"), else the
    aircraft type ("a Bf 109E"); a card-game plane id ("allied-8") is resolved to
    the pilot who flew it (``roster.campaign_hooks``: ``plane_crews``, (campaign pk or
    name, plane ids) -> {plane id: {"pilot_id", "pilot", "aircraft"}}). One query per
    campaign named."""
    wanted: dict[Any, set[str]] = {}
    for e in events:
        victim = str(e.details.get("victim") or "")
        if PLANE_ID.fullmatch(victim):
            wanted.setdefault(e.campaign_id or e.details.get("campaign"), set()).add(victim)
    crews: dict[tuple[Any, str], dict[str, Any]] = {}
    resolve = current().plane_crews
    for ref, planes in wanted.items():
        crews.update({(ref, k): v for k, v in resolve(ref, planes).items()})
    for e in events:
        d = e.details
        victim, aircraft = str(d.get("victim") or ""), str(d.get("victim_aircraft") or "")
        e.victim_pilot_id = d.get("victim_pilot_id")
        if PLANE_ID.fullmatch(victim):
            crew = crews.get((e.campaign_id or d.get("campaign"), victim), {})
            victim, e.victim_pilot_id = crew.get("pilot") or "", crew.get("pilot_id")
            aircraft = crew.get("aircraft") or aircraft
        if victim:
            e.victim_label = f"{victim} ({aircraft})" if aircraft else victim
        else:
            e.victim_label = indefinite(aircraft) if aircraft else "an unidentified aircraft"


class LeaderboardQuerySet(QuerySet[Pilot]):
    """The leaderboard's pilots; a slice from the top (a page, the API's limit and
    offset, ``[:10]``) reads only the pilots it may hold (issue 17: a page costs
    the same for 1,000 pilots as for 10,000). Three short queries instead of one
    that sorts every ranked pilot:

    1. the ids and confirmed kills of the first ``stop`` pilots by confirmed
       kills, walking the kept tallies' index from the top;
    2. the ids of the pilots that may end the slice, in the leaderboard's order
       (at most as many as the slice still needs): those tied with the last
       pilot of (1) (the order within a tie is decided by other columns), or,
       if fewer than ``stop`` pilots have a confirmed kill, those with none
       (claims only);
    3. the rows of the pilots of (1) above the tie and of (2), sorted, sliced.

    The rows are those of the whole ordering: every row before the slice's end
    has at least the last one's kills. The pilots are named by id in (3), so
    both databases' planners fetch them by primary key whatever the filters.
    An empty leaderboard is known after (2)."""

    def __getitem__(self, k: Any) -> Any:
        if not isinstance(k, slice) or not k.stop or self._result_cache is not None:
            return super().__getitem__(k)
        walk = (
            super()
            .filter(career_tally__confirmed_kills__gt=0)
            .order_by("-career_tally__confirmed_kills")
            .values_list("pk", "career_tally__confirmed_kills")
        )
        top = list(QuerySet.__getitem__(walk, slice(0, k.stop)))
        if len(top) == k.stop:
            last = top[-1][1]
            ids = [pk for pk, kills in top if kills > last]
            tail = super().filter(career_tally__confirmed_kills=last)
        else:  # every pilot with a confirmed kill is in the slice; then claims only
            ids = [pk for pk, _ in top]
            tail = super().filter(confirmed_kills=0)
        tail_ids = tail.values_list("pk", flat=True)
        ids += QuerySet.__getitem__(tail_ids, slice(0, k.stop - len(ids)))
        return QuerySet.__getitem__(self.filter(pk__in=ids), k)


def leaderboard(
    *, campaign: CampaignLike | None = None, side: str | None = None, nation: str | None = None,
    squadron_id: int | None = None, squadron_name: str | None = None, aircraft_type_id: int | None = None,
    status: str | None = None, aces_only: bool = False,
) -> QuerySet[Pilot]:  # fmt: skip
    """Pilots with a confirmed or claimed kill: most confirmed kills first, ties to
    fewer missions; ``claimed_kills`` = confirmed + claims awaiting a decision.
    Confirmed kills are read from the pilots' tallies (``PilotTally``, kept as
    entries are written: :func:`confirmed_kills_expression` counted once), so a
    page sorts 10,000 pilots by a column instead of counting every pilot's
    entries (issue 17); a slice from the top sorts only the pilots it may hold
    (:class:`LeaderboardQuerySet`). ``squadron_name``: squadrons with every word
    of it in their name (case-insensitive)."""
    qs = (
        LeaderboardQuerySet(Pilot)
        .select_related("squadron__aircraft_type")
        .annotate(confirmed_kills=Coalesce(F("career_tally__confirmed_kills"), Value(0)))
        .annotate(
            ace=ace_expression(),
            claimed_kills=F("confirmed_kills") + F("unconfirmed_kills"),
        )
        .filter(Q(confirmed_kills__gt=0) | Q(unconfirmed_kills__gt=0))
    )
    if campaign is not None:  # the pilots serving in it, not its squadrons' in every campaign
        qs = _campaign_pilots_only(qs, campaign)
    if side:
        qs = qs.filter(squadron__side=side)
    if nation:
        qs = qs.filter(nation__iexact=nation)
    if squadron_id:
        qs = qs.filter(squadron_id=squadron_id)
    for word in (squadron_name or "").split()[:8]:
        qs = qs.filter(squadron__name__icontains=word)
    if aircraft_type_id:
        qs = qs.filter(squadron__aircraft_type_id=aircraft_type_id)
    if status:
        qs = qs.filter(status__in=LEADERBOARD_STATUS.get(status, (status,)))
    if aces_only:
        qs = qs.filter(confirmed_kills__gte=LEADERBOARD_ACE_KILLS)
    return qs.order_by("-confirmed_kills", "experience_markers", "-unconfirmed_kills", "name", "id")


def _campaign_pilots_only(qs: LeaderboardQuerySet, campaign: CampaignLike) -> LeaderboardQuerySet:
    """``qs`` narrowed to the campaign's own pilots by the app's one definition
    (``campaign.access.campaign_pilots``, through ``roster.campaign_hooks``;
    careers never imports campaign): a pilot serving in another campaign is not this
    one's, though his squadron plays in both. A subquery each, no query of its own;
    with no definition installed, no pilot is (closed by default)."""
    scope = current().campaign_pilots
    if scope is None:
        return qs.none()
    return qs.filter(pk__in=scope(campaign).values("pk"))


@dataclass
class LeaderboardPage:
    """One page of the leaderboard, numbered from 1, with no count of the whole
    list: whether a next page exists is read from one row more than the page
    (counting every ranked pilot grew with the roster; issue 17). Iterates over
    its pilots; ``start_index`` is the rank of its first row."""

    pilots: list[Pilot]
    number: int
    per_page: int
    has_next: bool

    def __iter__(self) -> Iterator[Pilot]:
        return iter(self.pilots)

    def __len__(self) -> int:
        return len(self.pilots)

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def start_index(self) -> int:
        return (self.number - 1) * self.per_page + 1

    @property
    def end_index(self) -> int:
        return self.start_index + len(self.pilots) - 1

    @property
    def previous_page_number(self) -> int:
        return self.number - 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1


MAX_PAGE = 100_000  # deeper than any roster; keeps the offset a number every database holds


def leaderboard_page(*, number: int = 1, per_page: int = 50, **filters: Any) -> LeaderboardPage:
    """Page ``number`` of :func:`leaderboard` (``filters`` as its arguments): the
    rows of the whole ordering, read as a slice of one row more than the page
    (:class:`LeaderboardQuerySet`). A page past the end is empty. Three queries."""
    number = min(max(number, 1), MAX_PAGE)
    start = (number - 1) * per_page
    rows = list(leaderboard(**filters)[start : start + per_page + 1])
    return LeaderboardPage(
        pilots=rows[:per_page], number=number, per_page=per_page, has_next=len(rows) > per_page
    )


def ace_list(*, limit: int = 10) -> list[Pilot]:
    """The aces (5 or more confirmed kills), in leaderboard order."""
    return list(leaderboard(aces_only=True)[:limit])


def _kills_chart_points(kills: list[PilotEvent]) -> list[tuple[str, int]]:
    by_turn: dict[int, int] = {}
    for event in kills:
        by_turn[event.campaign_turn or 0] = by_turn.get(event.campaign_turn or 0, 0) + 1
    total, points = 0, []
    for turn in sorted(by_turn):
        total += by_turn[turn]
        points.append((f"turn {turn}", total))
    return points


def battle_report_url(applied: AppliedResult | None) -> str:
    """Where the battle an event came from is reported: a table battle's page, or
    the engine battle's report (source key ``battle:<pk>``, page ``/battles/<pk>/``)."""
    if applied is None:
        return ""
    if applied.mode == "table":
        battle = getattr(applied, "table_battle", None)
        return reverse("table-battle", args=[battle.pk]) if battle is not None else ""
    if applied.mode == "engine" and applied.source_key.startswith("battle:"):
        pk = applied.source_key.split(":", 1)[1]
        return f"/battles/{pk}/" if pk.isdigit() else ""
    return ""


def _campaign_links(events: list[PilotEvent]) -> None:
    """Sets ``campaign_name`` and ``campaign_url`` on each entry; the card game's
    carry-over entries name their campaign in ``details`` (one query for those)."""
    names = {e.details.get("campaign") for e in events if e.campaign_id is None} - {None, ""}
    ids = (
        dict(campaign_model()._default_manager.filter(name__in=names).values_list("name", "pk"))
        if names
        else {}
    )
    for e in events:
        e.campaign_name = campaign_of(e)
        pk = e.campaign_id or ids.get(e.campaign_name)
        e.campaign_url = reverse("campaign-detail", args=[pk]) if pk else ""
    battle_words(events)  # "m12" as the mission card's name, "battle:5" as "Battle 5"


def pilot_career(*, pilot_id: int) -> dict[str, Any]:
    """A pilot's page: the pilot with his figures (``confirmed_kills``, ``ace``),
    every career entry (oldest first, each naming its campaign or "standalone"
    and linking its battle: the engine battle's report, the table battle, or the
    campaign of a card-game engagement), the entries grouped by campaign, the
    confirmed kill entries with their victims named, damage, shoot-downs and
    survival rolls, awards and a kills-by-turn series. Three queries, one more
    when card-game entries name their campaign, one per campaign whose planes
    are victims."""
    pilot = pilots_with_figures(Pilot.objects.select_related("squadron__aircraft_type")).get(
        pk=pilot_id
    )
    events = list(
        PilotEvent.objects.filter(pilot_id=pilot_id)
        .select_related("applied_result__table_battle", "campaign")
        .order_by("created_at", "id")
    )
    _campaign_links(events)
    groups: dict[str, dict[str, Any]] = {}
    for event in events:
        event.report_url = battle_report_url(event.applied_result) or (
            event.campaign_url if event.battle_ref else ""
        )
        group = groups.setdefault(
            event.campaign_name,
            {"name": event.campaign_name, "url": event.campaign_url, "events": []},
        )
        group["events"].append(event)
    awards = list(PilotAward.objects.filter(pilot_id=pilot_id))
    by_kind: dict[str, list[PilotEvent]] = {}
    for event in events:
        by_kind.setdefault(event.kind, []).append(event)
    kills = confirmed_kill_entries(events)
    name_victims(kills)
    return {
        "pilot": pilot,
        "confirmed_kills": cast(Any, pilot).confirmed_kills,  # annotated by pilots_with_figures
        "ace": cast(Any, pilot).ace,
        "events": events,
        "campaigns": list(groups.values()),
        "kills": kills,
        "damage": by_kind.get(PilotEventKind.DAMAGED, []),
        "shot_down": by_kind.get(PilotEventKind.SHOT_DOWN, []),
        "survival_rolls": by_kind.get(PilotEventKind.SURVIVAL_ROLL, []),
        "denied": by_kind.get(PilotEventKind.KILL_DENIED, []),
        "awards": awards,
        "missions": pilot.experience_markers,
        "kills_by_turn": _kills_chart_points(kills),
    }


def _campaign_pilot_ids(campaign: CampaignLike) -> Any:
    """The campaign's own pilots, by the app's one definition (a subquery of ids)."""
    qs = Pilot.objects.all()
    scope = current().campaign_pilots
    if scope is None:
        return qs.none().values("pk")
    return qs.filter(pk__in=scope(campaign).values("pk")).values("pk")


def squadron_campaigns(*, squadron_id: int) -> list[Any]:
    """The campaigns a squadron's page may be seen in: those it plays in and those its
    pilots serve in, by name. One query."""
    return list(
        campaign_model()
        ._default_manager.filter(
            Q(squadrons__pk=squadron_id) | Q(enrolled_pilots__squadron_id=squadron_id)
        )
        .distinct()
        .only("id", "name")
        .order_by("name", "pk")
    )


def squadron_page(
    *, squadron_id: int, log_limit: int = 100, campaign: CampaignLike | None = None
) -> dict[str, Any]:
    """A squadron's page: roster, losses and replacements per campaign turn,
    aircraft on hand by type and state, the latest log entries. Five queries.

    With a ``campaign`` (issue 24), only that campaign's: its own pilots
    (``campaign.access.campaign_pilots``, through ``roster.campaign_hooks``) and
    the career entries it logged, so two campaigns sharing a library squadron
    each count their own. Without one, the library view: every pilot the
    squadron has, each with the campaign he serves in, and no chart of turns
    (the turns of two campaigns are not one clock)."""
    own = _campaign_pilot_ids(campaign) if campaign is not None else None
    if own is not None:  # of them, those who serve or served in it: a free pilot of its
        # squadrons whom the organiser did not enlist is in none of its figures (rulings,
        # "Replacements fill the campaign's planes")
        own = (
            Pilot.objects.filter(pk__in=own)
            .filter(Q(enrolled_in=cast(Any, campaign)) | Q(events__campaign=cast(Any, campaign)))
            .values("pk")
            .distinct()
        )
    squadron = (
        squadron_list(pilots=Pilot.objects.filter(pk__in=own)).get(pk=squadron_id)
        if own is not None
        else squadron_figures(squadron_id=squadron_id)
    )
    roll = Pilot.objects.filter(squadron_id=squadron_id).select_related("squadron", "enrolled_in")
    if own is not None:
        roll = roll.filter(pk__in=own)
    pilots = list(
        pilots_with_figures(roll).order_by("status", "-confirmed_kills", "name", "pk")
    )  # pk: namesakes in a stable order
    events = PilotEvent.objects.filter(pilot__squadron_id=squadron_id)
    if campaign is not None:
        events = events.filter(campaign_id=campaign.pk)
    per_turn: dict[int, dict[str, int]] = {}
    rows = (
        events
        .filter(Q(kind=PilotEventKind.SHOT_DOWN) | Q(kind=PilotEventKind.JOINED, details__replacement=True)
                | Q(kind__in=[PilotEventKind.KILLED, PilotEventKind.CAPTURED, PilotEventKind.MISSING]))
        .values("campaign_turn", "kind")
        .annotate(n=Count("id"))
    ) if campaign is not None else []  # fmt: skip
    for row in rows:
        turn = per_turn.setdefault(
            row["campaign_turn"] or 0, {"shot_down": 0, "replacements": 0, "lost_pilots": 0}
        )
        if row["kind"] == PilotEventKind.SHOT_DOWN:
            turn["shot_down"] += row["n"]
        elif row["kind"] == PilotEventKind.JOINED:
            turn["replacements"] += row["n"]
        else:
            turn["lost_pilots"] += row["n"]
    aircraft_of_campaign = current().campaign_aircraft
    if campaign is not None and aircraft_of_campaign is not None:
        # a campaign's aircraft are the planes its pilots fly there, not the library's
        aircraft = aircraft_of_campaign(campaign, squadron_id)
        flying = sum(a["n"] for a in aircraft if a["state"] == "in play")
        squadron.airframes_on_hand = squadron.serviceable_airframes = flying  # type: ignore[attr-defined]
    else:
        aircraft = list(
            Airframe.objects.filter(squadron_id=squadron_id)
            .values("aircraft_type__name", "state")
            .annotate(n=Count("id"))
            .order_by("aircraft_type__name", "state")
        )
    log = list(
        events.select_related("pilot", "campaign").order_by("-created_at", "-id")[:log_limit]
    )
    _campaign_links(log)
    strength = cast(Any, squadron).strength  # annotated by squadron_list
    where = f"in {campaign}" if campaign is not None else "in the library and every campaign"
    return {
        "squadron": squadron,
        "campaign": campaign,
        "pilots": pilots,
        "strength": strength,
        "strength_place": where,
        "strength_words": f"{strength} pilot{'s' if strength != 1 else ''} {where} "
        f"(target {squadron.target_strength})",
        "per_turn": [{"turn": t, **v} for t, v in sorted(per_turn.items())],
        "aircraft": aircraft,
        "log": log,
    }


def campaign_statistics(*, campaign: CampaignLike) -> dict[str, Any]:
    """Losses and kills per side per campaign turn, their totals and kill ratio
    per side, and kill ratios by aircraft type (kills by pilots of squadrons
    flying the type / those pilots' losses); kills are confirmed kill entries
    less the confirmed claims denied since, losses are shoot-down entries; a
    ratio with no loss to divide by is None. Read from the campaign's tallies
    (careers.tallies, kept as results apply, equal to its recount): one query
    whatever the campaign's size."""
    turns: dict[int, dict[str, int]] = {}
    types: dict[str, dict[str, int]] = {}
    battles = 0
    for (turn_no, side, name), figures in sorted(campaign_tallies(campaign).items()):
        if not side:
            battles += figures["battles"]
            continue
        turn = turns.setdefault(
            turn_no, {"allied_kills": 0, "axis_kills": 0, "allied_losses": 0, "axis_losses": 0}
        )
        t = types.setdefault(name, {"kills": 0, "losses": 0})
        for key in ("kills", "losses"):
            turn[f"{side}_{key}"] += figures[key]
            t[key] += figures[key]
    ratios = [
        {
            "aircraft": name,
            **v,
            "ratio": kill_ratio(v["kills"], v["losses"]),
        }
        for name, v in sorted(types.items(), key=lambda kv: (-kv[1]["kills"], kv[0]))
    ]
    sides = {}
    for side in ("allied", "axis"):
        kills = sum(t[f"{side}_kills"] for t in turns.values())
        losses = sum(t[f"{side}_losses"] for t in turns.values())
        sides[side] = {"kills": kills, "losses": losses, "ratio": kill_ratio(kills, losses)}
    return {
        "campaign": campaign,
        "sides": sides,
        "turns": [{"turn": t, **v} for t, v in sorted(turns.items())],
        "ratios": ratios,
        "battles": battles,
    }

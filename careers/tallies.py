"""Running totals for the statistics page and the leaderboard (issue 17: pages
flat in data size). ``CampaignTally`` rows (a campaign's kills, losses and
battles) and ``PilotTally`` rows (a pilot's confirmed kills) are kept up to date
as career entries and applied results are written and deleted, so the
statistics page reads a few dozen rows whatever the campaign's size and the
leaderboard sorts pilots by a column instead of counting every pilot's entries.

What is counted is :func:`campaign_recount`, the statistics' one definition
(kills: kill entries less confirmed claims denied; losses: shoot-downs; by the
campaign turn, the side of the pilot's squadron and the aircraft he flew;
battles: applied results other than roster housekeeping). The aircraft is the
one the entry records (``details["aircraft"]``: written for shoot-downs, kills
and claims' kills and denials from the engagement's result since issue 24);
an entry that records none -- written before, or a card-game kill carried from
a plane card -- counts under the aircraft type of the pilot's squadron, and the
statistics page says so. The tallies follow:

- an entry or result written or deleted (``post_save`` on creation, ``post_delete``);
- a pilot moved to another squadron, a squadron's side or aircraft type changed,
  a campaign renamed (its carry-over entries name it): the campaigns concerned
  are recounted (rare, organiser's acts);
- bulk writes send no signal: whoever bulk-writes entries recounts
  (:func:`campaign_tallies_rebuild`; the campaign import does).

A pilot's tally is :func:`pilot_recount` (``confirmed_kills_expression``).
Tested against the recounts after apply, undo and re-apply (tests/careers/test_tallies.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q, QuerySet
from django.db.models.signals import post_delete, post_init, post_save

from roster.models import Pilot, Squadron

from .models import (
    AppliedResult,
    CampaignTally,
    ClaimState,
    PilotEvent,
    PilotEventKind,
    PilotTally,
    ResultMode,
    campaign_model,
)
from .types import CampaignLike

# (campaign turn, side, aircraft type) -> {"kills", "losses", "entries", "battles"}
Key = tuple[int, str, str]
BATTLES: Key = (0, "", "")  # the row counting a campaign's battles
NO_TYPE = "—"
FIGURES = ("kills", "losses", "entries", "battles")


def campaign_events(campaign: CampaignLike) -> QuerySet[PilotEvent]:
    """Career events of a campaign: those tied to it, and those the card game's
    count carry-over logs with the campaign's name."""
    return PilotEvent.objects.filter(Q(campaign=campaign) | Q(details__campaign=campaign.name))


def _counted() -> Q:
    return Q(kind__in=[PilotEventKind.KILL, PilotEventKind.SHOT_DOWN]) | Q(
        kind=PilotEventKind.KILL_DENIED, details__was=ClaimState.CONFIRMED
    )


def aircraft_flown(details: object) -> str | None:
    """The aircraft an entry records its pilot flew (None: it records none)."""
    name = details.get("aircraft") if isinstance(details, dict) else None
    return name.strip() if isinstance(name, str) and name.strip() else None


def _figures(kind: str, n: int) -> dict[str, int]:
    if kind == PilotEventKind.SHOT_DOWN:
        return {"losses": n, "entries": n}
    return {"kills": -n if kind == PilotEventKind.KILL_DENIED else n, "entries": n}


def campaign_recount(campaign: CampaignLike) -> dict[Key, dict[str, int]]:
    """The statistics counted from the entries themselves (two queries)."""
    rows = (
        campaign_events(campaign)
        .filter(_counted())
        .values("campaign_turn", "kind", "pilot__squadron__side", "pilot__squadron__aircraft_type__name", "details__aircraft")
        .annotate(n=Count("id"))
    )  # fmt: skip
    totals: dict[Key, dict[str, int]] = {}
    for row in rows:
        key = (
            row["campaign_turn"] or 0,
            row["pilot__squadron__side"],
            aircraft_flown({"aircraft": row["details__aircraft"]})
            or row["pilot__squadron__aircraft_type__name"]
            or NO_TYPE,
        )
        figures = totals.setdefault(key, dict.fromkeys(FIGURES, 0))
        for name, n in _figures(row["kind"], row["n"]).items():
            figures[name] += n
    battles = (
        AppliedResult.objects.filter(campaign_id=campaign.pk)
        .exclude(mode=ResultMode.ROSTER)
        .count()
    )
    if battles:
        totals[BATTLES] = {**dict.fromkeys(FIGURES, 0), "battles": battles}
    return totals


def campaign_tallies(campaign: CampaignLike) -> dict[Key, dict[str, int]]:
    """The kept tallies, in :func:`campaign_recount`'s shape (one query); rows
    that count nothing any more are left out."""
    return {
        (t.campaign_turn, t.side, t.aircraft): {f: getattr(t, f) for f in FIGURES}
        for t in CampaignTally.objects.filter(campaign_id=campaign.pk)
        if t.entries or t.battles
    }


@transaction.atomic
def campaign_tallies_rebuild(campaign: CampaignLike) -> None:
    """Recount a campaign's tallies from its entries."""
    CampaignTally.objects.filter(campaign_id=campaign.pk).delete()
    CampaignTally.objects.bulk_create(
        CampaignTally(campaign_id=campaign.pk, campaign_turn=turn, side=side, aircraft=aircraft, **figures)
        for (turn, side, aircraft), figures in campaign_recount(campaign).items()
    )  # fmt: skip


def pilot_recount(pilot_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Confirmed kills per pilot counted from the entries (pilots with none left out)."""
    rows = PilotEvent.objects.filter(_counted()).exclude(kind=PilotEventKind.SHOT_DOWN)
    if pilot_ids is not None:
        rows = rows.filter(pilot_id__in=pilot_ids)
    kills: dict[int, int] = {}
    for pilot_id, kind, n in (
        rows.values_list("pilot_id", "kind").annotate(n=Count("id")).order_by()
    ):
        kills[pilot_id] = kills.get(pilot_id, 0) + _figures(kind, n)["kills"]
    return {pk: n for pk, n in kills.items() if n}


def pilot_tallies(pilot_ids: Iterable[int] | None = None) -> dict[int, int]:
    """The kept confirmed kills, in :func:`pilot_recount`'s shape."""
    rows = PilotTally.objects.exclude(confirmed_kills=0)
    if pilot_ids is not None:
        rows = rows.filter(pilot_id__in=pilot_ids)
    return dict(rows.values_list("pilot_id", "confirmed_kills"))


@transaction.atomic
def pilot_tallies_rebuild(pilot_ids: Iterable[int] | None = None) -> None:
    """Recount pilots' confirmed kills from their entries (all pilots by default)."""
    ids = None if pilot_ids is None else list(pilot_ids)
    rows = PilotTally.objects.all() if ids is None else PilotTally.objects.filter(pilot_id__in=ids)
    rows.delete()
    PilotTally.objects.bulk_create(
        (PilotTally(pilot_id=pk, confirmed_kills=n) for pk, n in pilot_recount(ids).items()),
        batch_size=2000,
    )


def _add_kills(pilot_id: int, n: int) -> None:
    rows = PilotTally.objects.filter(pilot_id=pilot_id)
    if rows.update(confirmed_kills=F("confirmed_kills") + n):
        return
    try:
        with transaction.atomic():
            PilotTally.objects.create(pilot_id=pilot_id, confirmed_kills=n)
    except IntegrityError:  # another worker made the row first
        rows.update(confirmed_kills=F("confirmed_kills") + n)


def _add(campaign_id: int, key: Key, figures: dict[str, int]) -> None:
    turn, side, aircraft = key
    rows = CampaignTally.objects.filter(
        campaign_id=campaign_id, campaign_turn=turn, side=side, aircraft=aircraft
    )
    if rows.update(**{f: F(f) + n for f, n in figures.items()}):
        return
    if min(figures.values()) < 0:
        return  # nothing to take from (the campaign is being deleted with its tallies)
    try:
        with transaction.atomic():
            CampaignTally.objects.create(
                campaign_id=campaign_id, campaign_turn=turn, side=side, aircraft=aircraft, **figures
            )
    except IntegrityError:  # another worker made the row first
        rows.update(**{f: F(f) + n for f, n in figures.items()})


def _is_counted(event: PilotEvent) -> bool:
    details = event.details if isinstance(event.details, dict) else {}
    return event.kind in (PilotEventKind.KILL, PilotEventKind.SHOT_DOWN) or (
        event.kind == PilotEventKind.KILL_DENIED and details.get("was") == ClaimState.CONFIRMED
    )


def _named_campaign(event: PilotEvent) -> str | None:
    named = event.details.get("campaign") if isinstance(event.details, dict) else None
    return named if isinstance(named, str) and named else None


# the entries written or deleted inside tallies_batched(), tallied at its end
_BATCH: ContextVar[list[tuple[PilotEvent, int, bool]] | None] = ContextVar(
    "careers_tally_batch", default=None
)


@contextmanager
def tallies_batched() -> Iterator[None]:
    """Entries written or deleted inside are tallied once, at the end of the block:
    one lookup of their pilots' squadrons, one of the campaigns they name, one
    update per pilot and per tally row touched, instead of up to four queries per
    entry (applying and taking back a result: careers.services). Use it inside
    the transaction that writes the entries; nothing is tallied if the block
    raises (the transaction is rolled back). Nested blocks tally at the outermost."""
    if _BATCH.get() is not None:
        yield
        return
    token = _BATCH.set([])
    try:
        yield
        changes = _BATCH.get() or []
    finally:
        _BATCH.reset(token)
    _tally(changes)


def _tally(changes: list[tuple[PilotEvent, int, bool]]) -> None:
    """Adds ``sign`` times each counted entry to its pilot's and its campaigns'
    tallies (``pilot_stays``: False when the pilot is being deleted with his tally)."""
    counted = [(e, sign, stays) for e, sign, stays in changes if _is_counted(e)]
    if not counted:
        return
    kills: dict[int, int] = {}
    for event, sign, stays in counted:
        if event.kind != PilotEventKind.SHOT_DOWN and stays:
            kills[event.pilot_id] = (
                kills.get(event.pilot_id, 0) + sign * _figures(event.kind, 1)["kills"]
            )
    for pilot_id, n in sorted(kills.items()):
        if n:
            _add_kills(pilot_id, n)
    names = {c for e, _, _ in counted if (c := _named_campaign(e))}
    named: dict[str, set[int]] = {}
    if names:
        for name, pk in (
            campaign_model()._default_manager.filter(name__in=names).values_list("name", "pk")
        ):
            named.setdefault(name, set()).add(pk)
    if not any(e.campaign_id is not None or _named_campaign(e) in named for e, _, _ in counted):
        return
    squadrons = {
        pk: (side, aircraft or NO_TYPE)
        for pk, side, aircraft in Pilot.objects.filter(pk__in={e.pilot_id for e, _, _ in counted})
        .values_list("pk", "squadron__side", "squadron__aircraft_type__name")
    }  # fmt: skip
    totals: dict[tuple[int, Key], dict[str, int]] = {}
    for event, sign, _ in counted:
        campaigns = {event.campaign_id} - {None} | named.get(_named_campaign(event) or "", set())
        if event.pilot_id not in squadrons:
            continue
        side, squadron_type = squadrons[event.pilot_id]
        key = (event.campaign_turn or 0, side, aircraft_flown(event.details) or squadron_type)
        for pk in campaigns:
            figures = totals.setdefault((cast(int, pk), key), {})
            for f, n in _figures(event.kind, 1).items():
                figures[f] = figures.get(f, 0) + sign * n
    for (pk, key), figures in sorted(totals.items()):
        if any(figures.values()):
            _add(pk, key, figures)


def _event_changed(event: PilotEvent, sign: int, *, pilot_stays: bool = True) -> None:
    batch = _BATCH.get()
    if batch is not None:
        batch.append((event, sign, pilot_stays))
    else:
        _tally([(event, sign, pilot_stays)])


def _event_saved(
    sender: Any, instance: PilotEvent, created: bool, raw: bool = False, **kw: Any
) -> None:
    if created and not raw:
        _event_changed(instance, 1)


def _event_deleted(sender: Any, instance: PilotEvent, origin: Any = None, **kw: Any) -> None:
    # deleted with its pilot (the only cascade onto entries): his tally row goes too
    by_entry = origin is None or isinstance(origin, PilotEvent)
    by_entry = by_entry or (isinstance(origin, QuerySet) and origin.model is PilotEvent)
    _event_changed(instance, -1, pilot_stays=by_entry)


def _counts_battle(result: AppliedResult) -> bool:
    return result.campaign_id is not None and result.mode != ResultMode.ROSTER


def _result_saved(
    sender: Any, instance: AppliedResult, created: bool, raw: bool = False, **kw: Any
) -> None:
    if created and not raw and instance.campaign_id is not None and _counts_battle(instance):
        _add(instance.campaign_id, BATTLES, {"battles": 1})


def _result_deleted(sender: Any, instance: AppliedResult, **kw: Any) -> None:
    if instance.campaign_id is not None and _counts_battle(instance):
        _add(instance.campaign_id, BATTLES, {"battles": -1})


# -- recounts after the rare changes that move entries between keys --


def _rebuild_for_pilots(pilots: Iterable[int] | QuerySet[Pilot, Any]) -> None:
    events = PilotEvent.objects.filter(_counted(), pilot_id__in=pilots)
    pks = set(events.exclude(campaign=None).values_list("campaign_id", flat=True).distinct())
    names = {
        n
        for n in events.filter(details__has_key="campaign")
        .values_list("details__campaign", flat=True)
        .distinct()
        if isinstance(n, str)
    }
    campaigns = campaign_model()._default_manager.filter(Q(pk__in=pks) | Q(name__in=names))
    for campaign in campaigns:
        campaign_tallies_rebuild(campaign)


# the fields whose change moves entries between keys, remembered as loaded (post_init
# runs for every instance: kept to one attribute read per field)
_WATCHED = {
    "Pilot": ("squadron_id",),
    "Squadron": ("side", "aircraft_type_id"),
    "Campaign": ("name",),
}


def _remember_pilot(sender: Any, instance: Any, **kw: Any) -> None:
    instance._tally_loaded = (instance.__dict__.get("squadron_id"),)


def _remember_squadron(sender: Any, instance: Any, **kw: Any) -> None:
    d = instance.__dict__
    instance._tally_loaded = (d.get("side"), d.get("aircraft_type_id"))


def _remember_campaign(sender: Any, instance: Any, **kw: Any) -> None:
    instance._tally_loaded = (instance.__dict__.get("name"),)


def _moved(sender: Any, instance: Any, created: bool = False, raw: bool = False, **kw: Any) -> bool:
    fields = _WATCHED[sender.__name__]
    loaded = getattr(instance, "_tally_loaded", None)
    now = tuple(instance.__dict__.get(f) for f in fields)
    instance._tally_loaded = now
    # a field not loaded (deferred) reads None: only a change between two known values counts
    return not (created or raw or loaded is None) and any(
        a is not None and a != b for a, b in zip(loaded, now, strict=True)
    )


def _pilot_saved(sender: Any, instance: Pilot, **kw: Any) -> None:
    if _moved(sender, instance, **kw):
        _rebuild_for_pilots([instance.pk])


def _squadron_saved(sender: Any, instance: Squadron, **kw: Any) -> None:
    if _moved(sender, instance, **kw):
        _rebuild_for_pilots(Pilot.objects.filter(squadron_id=instance.pk).values("pk"))


def _campaign_saved(sender: Any, instance: Any, **kw: Any) -> None:
    if _moved(sender, instance, **kw):
        campaign_tallies_rebuild(instance)


def connect() -> None:
    """Called by ``CareersConfig.ready()``."""
    post_save.connect(_event_saved, sender=PilotEvent, dispatch_uid="tally_event_saved")
    post_delete.connect(_event_deleted, sender=PilotEvent, dispatch_uid="tally_event_deleted")
    post_save.connect(_result_saved, sender=AppliedResult, dispatch_uid="tally_result_saved")
    post_delete.connect(_result_deleted, sender=AppliedResult, dispatch_uid="tally_result_deleted")
    campaign = campaign_model()
    for model, remember, saved in (
        (Pilot, _remember_pilot, _pilot_saved),
        (Squadron, _remember_squadron, _squadron_saved),
        (campaign, _remember_campaign, _campaign_saved),
    ):
        post_init.connect(remember, sender=model, dispatch_uid=f"tally_remember_{model.__name__}")
        post_save.connect(saved, sender=model, dispatch_uid=f"tally_saved_{model.__name__}")

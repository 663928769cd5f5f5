"""Battle writes: create a battle (validated, nothing stored on bad input), fly it
in a task exactly once, fail it with its message, retry it, sweep stale ones,
fan batches out and summarise them."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, cast

from django.db import transaction
from django.db.models import F, Q, QuerySet, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from angels.errors import RuleViolation
from roster.campaign_hooks import current
from rules.cardgame.simulate import wilson as wilson_interval  # one Wilson interval
from rules.dice import derive_seed
from rules.tactical import DEFAULT_SYSTEM, TacticalSystem, UnknownSystem, system_named

from .models import Battle, BattleBatch, BattleStatus, ScenarioKind
from .other_games import offers_scenarios, other_game_setup
from .rules_settings import SIDES
from .scenarios import DEFAULT_POLICY, build_scenario

MAX_BATCH_RUNS = 2000
logger = logging.getLogger(__name__)
# The games whose battles battles.scenarios builds from a scenario's name, flights and
# settings (the new-battle page and API); another game's battles come with their setup.
SCENARIO_SYSTEMS = frozenset({"angels20"})


def system_checked(name: Any, *, built: bool = False) -> TacticalSystem:
    """The tactical system ``name`` names (issue 25); a RuleViolation naming ``system``
    and the known systems otherwise. ``built``: one whose battles battles.scenarios builds."""
    try:
        system = system_named(name)
    except UnknownSystem as exc:
        raise RuleViolation(str(exc), field="system", code="invalid") from exc
    if built and system.name not in SCENARIO_SYSTEMS and not offers_scenarios(system):
        raise RuleViolation(
            f"the scenarios here build battles of {', '.join(sorted(SCENARIO_SYSTEMS))}; "
            f"{system.title} ({system.name}) battles cannot be built from them yet",
            field="system",
            code="invalid",
        )
    return system


# -- creating and dispatching -----------------------------------------------------
def _dispatch(battle_ids: list[int]) -> None:
    """Hand battles to the broker after commit (the outbox; see :mod:`battles.dispatch`).

    The rows are stored queued (``dispatched_at`` null) whatever the broker
    does: a refused or frozen broker leaves them queued for the sweep and
    ``dispatch_queued``, and the request still answers.
    """
    from .dispatch import publish_battles

    transaction.on_commit(lambda: publish_battles(battle_ids))


def _dispatch_apply(battle_ids: list[int]) -> None:
    """Hand finished battles' results on (``battles.apply_result``) after commit."""
    from .dispatch import publish_apply

    transaction.on_commit(lambda: publish_apply(battle_ids))


def battle_create(
    *, scenario: str, flights: dict[str, Any] | None = None, settings: dict[str, Any] | None = None, seed: int | None = None,
    requested_by: Any = None, resolve: bool = True, source_key: str = "", system: Any = DEFAULT_SYSTEM,
) -> Battle:  # fmt: skip
    """Validate, store and (unless ``resolve`` is False) dispatch a battle after commit."""
    from .play import play_start
    from .play_seats import seats_offer, settings_with_seats, waiting_for

    game = system_checked(system, built=True)
    system = game.name
    given_seed, seed = seed, secrets.randbits(48) if seed is None else seed
    other_setup = None
    if system not in SCENARIO_SYSTEMS:  # issue 25: another game's scenario comes whole
        other_setup, settings = other_game_setup(
            game, scenario=scenario, flights=flights, settings=settings or {}, seed=seed
        )
    flights = flights or {}
    # issue 14: with a person in a seat the battle is flown by people ("in play"), not a worker
    settings, by_people = settings_with_seats(settings or {}, system=system)
    if by_people and given_seed is not None and not getattr(requested_by, "is_staff", False):
        raise RuleViolation(
            "a battle flown by people takes no seed from its players: with it they could "
            "foresee every die (staff may give one, to replay a battle)",
            field="seed", code="invalid",
        )  # fmt: skip
    if by_people:  # issue 23: a seat naming someone else is an offer they accept or decline
        settings = seats_offer(settings, by=requested_by)
    setup = (
        build_scenario(kind=scenario, flights=flights, settings=settings, seed=seed).to_json()
        if other_setup is None
        else other_setup
    )
    status = (
        BattleStatus.IN_PLAY
        if by_people
        else BattleStatus.PENDING
        if resolve
        else BattleStatus.DRAFT
    )
    with transaction.atomic():
        battle = Battle.objects.create(
            system=system, scenario=scenario, flights=flights, settings=settings, setup=setup, seed=seed,
            requested_by=requested_by if getattr(requested_by, "is_authenticated", False) else None,
            status=status, source_key=source_key,
        )  # fmt: skip
        if by_people and not waiting_for(battle):
            play_start(battle)
        elif resolve and not by_people:
            _dispatch([battle.pk])
    return battle


def battle_create_from_setup(
    *, setup: dict[str, Any], seed: int, source_key: str, settings: dict[str, Any],
    system: str = DEFAULT_SYSTEM,
) -> Battle:  # fmt: skip
    """A battle whose scenario another part of the product built (a campaign engagement).

    One battle per ``source_key``: asking again returns the first. With
    ``settings["seats"]`` naming a person it is flown by people (issue 14, a
    campaign's "web" engagements): in play, the computer seats acting at once.
    """
    from .play import play_start
    from .play_seats import settings_with_seats

    existing = Battle.objects.filter(source_key=source_key).first()
    if existing is not None:
        return existing
    settings, by_people = settings_with_seats(settings, system=system_checked(system).name)
    battle = Battle.objects.create(
        system=system_checked(system).name,
        scenario=ScenarioKind.ENGAGEMENT,
        settings=settings,
        setup=setup,
        seed=seed,
        source_key=source_key,
        status=BattleStatus.IN_PLAY if by_people else BattleStatus.PENDING,
    )
    if by_people:
        play_start(battle)
    else:
        _dispatch([battle.pk])
    return battle


# Each battle that finishes (not a batch's), after its result is committed, goes to
# ``roster.campaign_hooks``' ``battle_finished`` (the ``battles.apply_result`` task);
# its ``battle_seed_hidden`` keeps a running campaign's battle seeds from all but its
# organiser. Battles never import campaign.


def seed_visible(battle: Battle, user: Any) -> bool:
    """May ``user`` (None: anonymous) see ``battle``'s seed? Staff always; otherwise unless a check hides it."""
    if user is not None and getattr(user, "is_staff", False):
        return True
    if battle.status == BattleStatus.IN_PLAY:
        return False  # issue 14: with the seed the players could foresee every die
    if battle.batch_id is not None:
        batch = BattleBatch.objects.only("purpose", "seed").get(pk=battle.batch_id)
        if not batch_seed_visible(batch, user):
            return False
    return not current().battle_seed_hidden(battle, user)


def batch_seed_visible(batch: BattleBatch, user: Any) -> bool:
    """An odds batch's seed (and its battles') is kept like the seed of the battle it previews."""
    if not batch.purpose.startswith("odds:"):
        return True
    source = Battle.objects.filter(pk=int(batch.purpose.removeprefix("odds:"))).first()
    return source is None or seed_visible(source, user)


def battle_resolve(*, battle_id: int) -> Battle:
    """Send a draft (an engagement waiting for the organiser) to the engine."""
    with transaction.atomic():
        if (
            Battle.objects.filter(pk=battle_id, status=BattleStatus.DRAFT).update(
                status=BattleStatus.PENDING
            )
            != 1
        ):
            raise RuleViolation(
                "only a battle waiting to be resolved can be resolved",
                field="status",
                code="state",
            )
        _dispatch([battle_id])
    return Battle.objects.get(pk=battle_id)


def battle_retry(*, battle_id: int) -> Battle:
    """A failed battle goes back to pending, keeps its seed, and is dispatched again."""
    with transaction.atomic():
        updated = Battle.objects.filter(pk=battle_id, status=BattleStatus.FAILED).update(
            status=BattleStatus.PENDING,
            error="",
            started_at=None,
            finished_at=None,
            dispatched_at=None,
        )
        if updated != 1:
            raise RuleViolation("only a failed battle can be retried", field="status", code="state")
        _dispatch([battle_id])
    return Battle.objects.get(pk=battle_id)


# -- flying ------------------------------------------------------------------------
# Recovery from a dead worker: a lease with a heartbeat on the row, not a short
# stale bound. A battle is claimed with a fresh ``lease_token`` and a lease of
# LEASE seconds; the flying task renews it between engine steps (at most every
# HEARTBEAT seconds: no thread, the task's own database connection, and a
# worker stuck inside one step stops renewing, which is what should happen).
# The sweep, run every 10 s by beat, takes back a battle whose lease has
# expired, so a battle caught by a dead worker is flown again after at most
# LEASE + the sweep's period (≈ 30 s), while a long battle on a live worker,
# however long, is never taken from it. A short stale bound would have to
# choose between the two. The result is written only by the holder of the
# token, so a late original worker (frozen, not dead) cannot write twice.
LEASE = timedelta(seconds=20)
HEARTBEAT_SECONDS = 5.0
# A pending battle whose message the broker accepted but no worker claimed for
# this long is sent again: its message was lost, or taken by a worker that died
# before claiming it (Redis hands an unacknowledged message out again only
# after its visibility timeout, an hour). A duplicate message is harmless (the
# claim finds nothing to do); while workers are backlogged the oldest waiting
# battles are sent again every RESEND_AFTER, at most RESEND_LIMIT a sweep.
RESEND_AFTER = timedelta(seconds=30)
RESEND_LIMIT = 500
# Running battles from before leases (no lease_expires_at) are taken back after this.
RECOVERY_QUEUE = "housekeeping"
STALE_AFTER = timedelta(minutes=10)
# A finished battle not yet handed on this long after it finished: its
# ``battles.apply_result`` message was lost (or never sent); the sweep sends it.
APPLY_GRACE = timedelta(seconds=30)


class LeaseLost(Exception):
    """The battle was taken back from this worker (its lease expired)."""


def fly(
    setup: dict[str, Any], seed: int, policies: dict[str, str], heartbeat: Callable[[], None] | None = None,
    progress: Callable[[int], None] | None = None, system: str = DEFAULT_SYSTEM,
) -> dict[str, Any]:  # fmt: skip
    """Fly a battle of the tactical ``system`` to the end with computer pilots; return its record.

    ``heartbeat`` is called between engine steps, at most every HEARTBEAT_SECONDS;
    ``progress`` with the game turn each time a new one begins (what the pages show).
    """
    game = system_named(system)
    state = game.new_battle(setup, seed)
    # a system numbers its sides by their index in its ``sides`` (axis 0, allied 1)
    default = DEFAULT_POLICY if DEFAULT_POLICY in game.pilots else game.pilots[0]
    pilots = {
        i: game.computer_pilot(policies.get(side, default), game.pilot_seed(seed, side))
        for i, side in enumerate(game.sides)
    }
    actions = []
    beat_at = time.monotonic() + HEARTBEAT_SECONDS
    turn = state.turn
    while (side := state.current_side()) is not None:  # None: the battle is over
        if progress is not None and state.turn != turn:
            turn = state.turn
            progress(turn)
        action = pilots[side].choose(state)
        state.apply(action)
        actions.append(action.to_json())
        if heartbeat is not None and time.monotonic() >= beat_at:
            heartbeat()
            beat_at = time.monotonic() + HEARTBEAT_SECONDS
    return {"result": state.result(), "log": state.log, "actions": actions}


def battle_claim(*, battle_id: int) -> str | None:
    """Claim a pending battle (or one whose lease expired) for this worker: its lease token, or None."""
    now = timezone.now()
    token = secrets.token_hex(16)
    claimable = Q(status=BattleStatus.PENDING) | Q(
        status=BattleStatus.RUNNING, lease_expires_at__lt=now
    )
    claimed = (
        Battle.objects.filter(claimable, pk=battle_id).update(
            status=BattleStatus.RUNNING,
            started_at=now,
            attempts=F("attempts") + 1,
            lease_token=token,
            lease_expires_at=now + LEASE,
            dispatched_at=Coalesce(F("dispatched_at"), Value(now)),
        )  # fmt: skip
    )
    return token if claimed == 1 else None


def _holding(battle_id: int, token: str) -> QuerySet[Battle]:
    return Battle.objects.filter(pk=battle_id, status=BattleStatus.RUNNING, lease_token=token)


def battle_run(*, battle_id: int) -> bool:
    """Claim a pending battle, fly it, write its result once. Returns whether it wrote.

    Idempotent: a battle that is not pending (running under a live lease,
    finished or failed) is left alone, so a re-delivered task changes nothing;
    the result or failure is written only while this worker holds the lease
    (conditional update on status and token). FINISHED and the result commit
    on their own; handing the result on (the hooks) is the next task's.
    """
    token = battle_claim(battle_id=battle_id)
    if token is None:
        return False
    battle = Battle.objects.get(pk=battle_id)

    def heartbeat() -> None:
        if not _holding(battle_id, token).update(lease_expires_at=timezone.now() + LEASE):
            raise LeaseLost

    def progress(turn: int) -> None:  # a few game turns a battle: one small write each
        if not _holding(battle_id, token).update(progress_turn=turn):
            raise LeaseLost

    # a batch's progress is its count of battles done, not each battle's turn
    turns = None if battle.batch_id else progress
    try:
        record = fly(
            battle.setup, battle.seed, battle.settings.get("policies", {}), heartbeat, turns,
            # (named only for another game: stand-ins for fly in tests take Angels 20's five)
            **({} if battle.system == DEFAULT_SYSTEM else {"system": battle.system}),
        )  # fmt: skip
    except LeaseLost:
        logger.warning("battle %s: lease lost to another worker; its result is theirs", battle_id)
        return False
    except Exception as exc:  # noqa: BLE001 - any failure is kept on the row, with its message
        failed = _holding(battle_id, token).update(
            status=BattleStatus.FAILED, error=f"{type(exc).__name__}: {exc}"[:2000],
            finished_at=timezone.now(), lease_expires_at=None,
        )  # fmt: skip
        if failed and battle.batch_id:
            _batch_battle_done(battle.batch_id)
        return bool(failed)
    now = timezone.now()
    with transaction.atomic():
        written = _holding(battle_id, token).update(
            status=BattleStatus.FINISHED, result=record["result"], log=record["log"], actions=record["actions"],
            finished_at=now, error="", lease_expires_at=None,
            # a batch's battle has nothing to hand on but the batch's summary, written below
            applied_at=now if battle.batch_id else None,
        )  # fmt: skip
        if written and not battle.batch_id:
            _dispatch_apply([battle_id])
    if written and battle.batch_id:
        _batch_battle_done(battle.batch_id)
    return bool(written)


def _batch_battle_done(batch_id: int) -> None:
    """Count one battle of the batch done (O(1), no row lock held while others wait);
    the worker that makes the count reach ``runs`` writes the summary (issue 17).

    Called once per battle: only the worker whose conditional update wrote the
    battle's end gets here. Battles the sweep ends are not counted; the sweep
    summarises any batch it finds complete."""
    BattleBatch.objects.filter(pk=batch_id).update(done=F("done") + 1)
    if BattleBatch.objects.filter(pk=batch_id, done__gte=F("runs"), summary__isnull=True).exists():
        batch_maybe_summarise(batch_id=batch_id)


def battle_apply(*, battle_id: int, reapply: bool = False) -> bool:
    """Hand a finished battle's result to the app above (``battle_finished``), once.

    Locks the battle row (select_for_update) for the hooks' run, so two
    deliveries of the task apply it once: the second finds ``applied_at`` set.
    A hook that raises rolls back what the hooks wrote (a savepoint) and
    leaves the battle "finished, not applied" with the error; it is not
    tried again until a person re-applies it (``reapply``). Returns whether
    the result was applied now.
    """
    with transaction.atomic():
        battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
        if battle is None or battle.status != BattleStatus.FINISHED or battle.applied_at:
            return False
        if battle.apply_error and not reapply:
            return False  # waits for a person
        try:
            with transaction.atomic():
                current().battle_finished(battle)
        except Exception as exc:  # noqa: BLE001 - kept on the row and shown, never silent
            logger.exception("battle %s: finished, not applied", battle_id)
            message = f"{type(exc).__name__}: {exc}"[:2000] or type(exc).__name__
            Battle.objects.filter(pk=battle_id).update(apply_error=message)
            return False
        Battle.objects.filter(pk=battle_id).update(applied_at=timezone.now(), apply_error="")
    return True


def battle_reapply(*, battle_id: int, user: Any) -> Battle:
    """Hand a "finished, not applied" battle's result on again, once its fault is fixed.

    Runs now, in the request, so the person sees at once whether it worked;
    a failure is kept on the row again (``apply_error``).
    """
    battle = Battle.objects.filter(pk=battle_id).first()
    if battle is None:
        raise RuleViolation("no such battle", field="battle", code="exists")
    from .access import require_manager

    require_manager(battle, user, what="re-apply")
    if battle.status != BattleStatus.FINISHED or battle.applied_at is not None:
        raise RuleViolation(
            "only a finished battle whose result was not applied can be re-applied",
            field="status", code="state",
        )  # fmt: skip
    battle_apply(battle_id=battle_id, reapply=True)
    battle.refresh_from_db()
    return battle


def battles_sweep(*, now: datetime | None = None) -> dict[str, list[int]]:
    """Nothing lost, nothing stuck: run by beat every 10 s (and by ``dispatch_queued``).

    Takes back running battles whose lease expired (dead or frozen worker);
    re-queues pending battles sent long ago and never claimed (lost message);
    sends every queued battle (the outbox); sends the apply step of finished
    battles not yet applied (but not those whose apply raised: they wait for
    a person); summarises batches whose battles are all done. Every write is
    a conditional update, so sweeps may overlap with workers and each other.
    """
    now = now or timezone.now()
    expired = Q(lease_expires_at__lt=now) | Q(
        lease_expires_at__isnull=True, started_at__lt=now - STALE_AFTER
    )
    reclaimed = [
        pk
        for pk in Battle.objects.filter(expired, status=BattleStatus.RUNNING).values_list("pk", flat=True)
        if Battle.objects.filter(expired, pk=pk, status=BattleStatus.RUNNING).update(
            status=BattleStatus.PENDING, lease_token="", lease_expires_at=None, started_at=None, dispatched_at=None
        )
    ]  # fmt: skip
    lost = list(
        Battle.objects.filter(status=BattleStatus.PENDING, dispatched_at__lt=now - RESEND_AFTER)
        .order_by("dispatched_at")
        .values_list("pk", flat=True)[:RESEND_LIMIT]
    )
    Battle.objects.filter(pk__in=lost, status=BattleStatus.PENDING).update(dispatched_at=None)
    from .dispatch import publish_battles

    # A battle taken back from a dead worker has waited once already: it goes
    # on the housekeeping queue (every worker reads it, and it is short), not
    # behind the backlog, so recovery stays within a minute under load.
    sent = publish_battles(reclaimed, queue=RECOVERY_QUEUE) + dispatch_queued()
    unapplied = list(
        Battle.objects.filter(
            status=BattleStatus.FINISHED, applied_at__isnull=True, apply_error="",
            batch__isnull=True, finished_at__lt=now - APPLY_GRACE,
        ).values_list("pk", flat=True)[:1000]
    )  # fmt: skip
    if unapplied:
        from .dispatch import publish_apply

        publish_apply(unapplied)
    summarised = [
        pk
        for pk in BattleBatch.objects.filter(summary__isnull=True)
        .exclude(battles__status__in=[BattleStatus.PENDING, BattleStatus.RUNNING, BattleStatus.DRAFT])
        .values_list("pk", flat=True)
        if batch_maybe_summarise(batch_id=pk)
    ]  # fmt: skip
    return {
        "reclaimed": reclaimed,
        "lost": lost,
        "sent": sent,
        "apply": unapplied,
        "summarised": summarised,
    }


def dispatch_queued(*, limit: int = 5000) -> list[int]:
    """Send queued battles (``dispatched_at`` null) to the broker, oldest first; returns those it sent."""
    from .dispatch import publish_battles

    queued = list(
        Battle.objects.filter(status=BattleStatus.PENDING, dispatched_at__isnull=True)
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
    return publish_battles(queued)


# -- batches ------------------------------------------------------------------------
def batch_battle_seed(batch_seed: int, index: int) -> int:
    """The seed of battle ``index`` (from 0) of a batch seeded ``batch_seed``."""
    return derive_seed(batch_seed, f"batch battle {index}")


def batch_create(
    *, scenario: str, runs: int, flights: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
    seed: int | None = None, requested_by: Any = None, purpose: str = "balance",
    setup: dict[str, Any] | None = None, system: Any = DEFAULT_SYSTEM,
) -> BattleBatch:  # fmt: skip
    """The same matchup flown ``runs`` times, battle i seeded ``batch_battle_seed(seed, i)``, fanned out as a group.

    With ``setup`` (an engine scenario another part of the product built, e.g. a
    campaign engagement's) every battle flies that setup; otherwise each is built
    from ``scenario``, ``flights`` and ``settings``."""
    if not isinstance(runs, int) or not 1 <= runs <= MAX_BATCH_RUNS:
        raise RuleViolation(
            f"runs is a whole number from 1 to {MAX_BATCH_RUNS}", field="runs", code="range"
        )
    # a batch rebuilt from flights needs a game battles.scenarios builds; one of a setup, any
    system = system_checked(system, built=setup is None).name
    seed = secrets.randbits(40) if seed is None else seed
    settings, flights = settings or {}, flights or {}
    seeds = [batch_battle_seed(seed, i) for i in range(runs)]
    setups = (
        [setup for _ in seeds]
        if setup is not None
        else [
            build_scenario(kind=scenario, flights=flights, settings=settings, seed=s).to_json()
            for s in seeds
        ]
    )
    user = requested_by if getattr(requested_by, "is_authenticated", False) else None
    with transaction.atomic():
        batch = BattleBatch.objects.create(
            scenario=scenario,
            settings=settings,
            flights=flights,
            runs=runs,
            seed=seed,
            purpose=purpose,
            requested_by=user,
        )
        battles = Battle.objects.bulk_create(
            Battle(
                system=system,
                scenario=scenario,
                settings=settings,
                flights=flights,
                setup=setup,
                seed=battle_seed,
                batch=batch,
                requested_by=user,
            )
            for battle_seed, setup in zip(seeds, setups, strict=True)
        )
        _dispatch([b.pk for b in battles])
    return batch


def batch_summary(results: list[dict[str, Any]], failed: int = 0) -> dict[str, Any]:
    n = len(results)
    summary: dict[str, Any] = {
        "battles": n,
        "failed": failed,
        "draws": sum(1 for r in results if r.get("winner") is None),
    }
    for side in SIDES:
        wins = sum(1 for r in results if r.get("winner") == side)
        low, high = wilson_interval(wins, n)
        losses = [
            sum(1 for a in r["aircraft"] if a["side"] == side and a["fate"] == "destroyed")
            for r in results
        ]
        summary[side] = {
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "average_losses": sum(losses) / n if n else 0.0,
            "average_victory_points": sum(r["victory_points"][side] for r in results) / n
            if n
            else 0.0,
        }
    return summary


def batch_maybe_summarise(*, batch_id: int) -> bool:
    """Write the batch's summary once every battle has finished or failed (row lock on the batch)."""
    with transaction.atomic():
        batch = BattleBatch.objects.select_for_update().get(pk=batch_id)
        if batch.summary is not None:
            return False
        states = list(batch.battles.values_list("status", flat=True))
        if any(s not in (BattleStatus.FINISHED, BattleStatus.FAILED) for s in states):
            return False
        # (a finished battle has its result)
        results = cast(
            "list[dict[str, Any]]",
            list(
                batch.battles.filter(status=BattleStatus.FINISHED).values_list("result", flat=True)
            ),
        )
        batch.summary = batch_summary(results, failed=states.count(BattleStatus.FAILED))
        batch.finished_at = timezone.now()
        batch.save(update_fields=["summary", "finished_at"])
    return True


def odds_preview(
    *, battle_id: int, runs: int | None = None, requested_by: Any = None
) -> BattleBatch:
    """A quick batch of the same matchup before the organiser commits to resolving it."""
    from django.conf import settings as django_settings

    from angels.secrets import seed_key

    runs = runs or django_settings.BATTLE_ODDS_RUNS
    battle = Battle.objects.get(pk=battle_id)
    settings = dict(battle.settings)
    settings.setdefault("policies", {"axis": DEFAULT_POLICY, "allied": DEFAULT_POLICY})
    # keyed with the server's secret: the odds batch's seed is public, the battle's may not be
    seed = derive_seed(battle.seed, "odds preview", key=seed_key("odds preview"))
    # an engagement (a campaign's engine battle) is not rebuilt from flights: the
    # batch flies the battle's own stored setup, with the computer pilots
    setup = battle.setup if battle.scenario == ScenarioKind.ENGAGEMENT else None
    return batch_create(
        scenario=battle.scenario, flights=battle.flights, settings=settings, runs=runs, seed=seed,
        requested_by=requested_by, purpose=f"odds:{battle.pk}", setup=setup, system=battle.system,
    )  # fmt: skip

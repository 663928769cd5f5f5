"""Battle writes: create a battle (validated, nothing stored on bad input), fly it
in a task exactly once, fail it with its message, retry it, sweep stale ones,
fan batches out and summarise them."""

from __future__ import annotations

import math
import secrets
from datetime import timedelta
from typing import Any, cast

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from angels.errors import RuleViolation
from rules.angels20 import Dice, Scenario, new_battle
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.dice import derive_seed

from .models import Battle, BattleBatch, BattleStatus, ScenarioKind
from .rules_settings import SIDES
from .scenarios import DEFAULT_POLICY, build_scenario

STALE_AFTER = timedelta(minutes=10)
MAX_BATCH_RUNS = 2000


# -- creating and dispatching -----------------------------------------------------
def _dispatch(battle_ids: list[int]) -> None:
    from .tasks import run_battle

    def send() -> None:
        if len(battle_ids) == 1:
            run_battle.delay(battle_ids[0])
        else:
            from celery import group

            group(run_battle.s(i) for i in battle_ids).apply_async()

    transaction.on_commit(send)


def battle_create(
    *, scenario: str, flights: dict[str, Any] | None = None, settings: dict[str, Any] | None = None, seed: int | None = None,
    requested_by: Any = None, resolve: bool = True, source_key: str = "",
) -> Battle:  # fmt: skip
    """Validate, store and (unless ``resolve`` is False) dispatch a battle after commit."""
    seed = secrets.randbits(48) if seed is None else seed
    settings = settings or {}
    flights = flights or {}
    setup = build_scenario(kind=scenario, flights=flights, settings=settings, seed=seed)
    with transaction.atomic():
        battle = Battle.objects.create(
            scenario=scenario, flights=flights, settings=settings, setup=setup.to_json(), seed=seed,
            requested_by=requested_by if getattr(requested_by, "is_authenticated", False) else None,
            status=BattleStatus.PENDING if resolve else BattleStatus.DRAFT, source_key=source_key,
        )  # fmt: skip
        if resolve:
            _dispatch([battle.pk])
    return battle


def battle_create_from_setup(
    *, setup: dict[str, Any], seed: int, source_key: str, settings: dict[str, Any]
) -> Battle:
    """A battle whose scenario another part of the product built (a campaign engagement).

    One battle per ``source_key``: asking again returns the first.
    """
    existing = Battle.objects.filter(source_key=source_key).first()
    if existing is not None:
        return existing
    battle = Battle.objects.create(
        scenario=ScenarioKind.ENGAGEMENT,
        settings=settings,
        setup=setup,
        seed=seed,
        source_key=source_key,
        status=BattleStatus.PENDING,
    )
    _dispatch([battle.pk])
    return battle


# Called with each battle that finishes, after its result is written (apps register here).
BATTLE_FINISHED_HOOKS: list[Any] = []

# (battle, user) -> must this battle's seed be kept from this user? Apps above
# battles register here (a running campaign keeps its battles' seeds from all
# but its organiser); battles never import them.
SEED_HIDDEN_CHECKS: list[Any] = []


def seed_visible(battle: Battle, user: Any) -> bool:
    """May ``user`` (None: anonymous) see ``battle``'s seed? Staff always; otherwise unless a check hides it."""
    if user is not None and getattr(user, "is_staff", False):
        return True
    return not any(check(battle, user) for check in SEED_HIDDEN_CHECKS)


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
            status=BattleStatus.PENDING, error="", started_at=None, finished_at=None
        )
        if updated != 1:
            raise RuleViolation("only a failed battle can be retried", field="status", code="state")
        _dispatch([battle_id])
    return Battle.objects.get(pk=battle_id)


# -- flying ------------------------------------------------------------------------
def fly(setup: dict[str, Any], seed: int, policies: dict[str, str]) -> dict[str, Any]:
    """Fly a battle to the end with computer pilots; return its record."""
    from rules.angels20.pilots import POLICIES, pilot_seed

    state = new_battle(Scenario.from_json(setup), Dice(seed))
    # the engine numbers its sides by their index in its SIDES (axis 0, allied 1)
    pilots = {
        i: POLICIES[policies.get(side, DEFAULT_POLICY)](pilot_seed(seed, side))
        for i, side in enumerate(ENGINE_SIDES)
    }
    actions = []
    while (side := state.current_side()) is not None:  # None: the battle is over
        action = pilots[side].choose(state)
        state.apply(action)
        actions.append(action.to_json())
    return {"result": state.result(), "log": state.log, "actions": actions}


def battle_run(*, battle_id: int) -> bool:
    """Claim a pending battle, fly it, write its result once. Returns whether it ran.

    Idempotent: a battle that is not pending (already running, finished or
    failed) is left alone, so a re-delivered task changes nothing.
    """
    now = timezone.now()
    claimed = Battle.objects.filter(pk=battle_id, status=BattleStatus.PENDING).update(
        status=BattleStatus.RUNNING, started_at=now, attempts=F("attempts") + 1
    )
    if claimed != 1:
        return False
    battle = Battle.objects.get(pk=battle_id)
    try:
        record = fly(battle.setup, battle.seed, battle.settings.get("policies", {}))
    except Exception as exc:  # noqa: BLE001 - any failure is kept on the row, with its message
        Battle.objects.filter(pk=battle_id, status=BattleStatus.RUNNING).update(
            status=BattleStatus.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:2000],
            finished_at=timezone.now(),
        )
        _after_battle(battle)
        return True
    with transaction.atomic():
        written = Battle.objects.filter(pk=battle_id, status=BattleStatus.RUNNING).update(
            status=BattleStatus.FINISHED, result=record["result"], log=record["log"], actions=record["actions"],
            finished_at=timezone.now(), error="",
        )  # fmt: skip
        if written:
            _after_battle(battle)
    return True


def _after_battle(battle: Battle) -> None:
    if battle.batch_id:
        batch_maybe_summarise(batch_id=battle.batch_id)
        return
    battle.refresh_from_db()
    if battle.status == BattleStatus.FINISHED:
        for hook in BATTLE_FINISHED_HOOKS:
            hook(battle)


def battles_sweep(*, stale_after: timedelta = STALE_AFTER) -> list[int]:
    """Re-dispatch battles stuck in pending (lost message) or running (dead worker) past a bound."""
    cutoff = timezone.now() - stale_after
    stuck_running = list(
        Battle.objects.filter(status=BattleStatus.RUNNING, started_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    )
    ids = []
    with transaction.atomic():
        for pk in stuck_running:
            if Battle.objects.filter(
                pk=pk, status=BattleStatus.RUNNING, started_at__lt=cutoff
            ).update(status=BattleStatus.PENDING, started_at=None):
                ids.append(pk)
        ids += list(
            Battle.objects.filter(status=BattleStatus.PENDING, created_at__lt=cutoff)
            .exclude(pk__in=ids)
            .values_list("pk", flat=True)
        )
        if ids:
            _dispatch(ids)
    return ids


# -- batches ------------------------------------------------------------------------
def batch_battle_seed(batch_seed: int, index: int) -> int:
    """The seed of battle ``index`` (from 0) of a batch seeded ``batch_seed``."""
    return derive_seed(batch_seed, f"batch battle {index}")


def batch_create(
    *, scenario: str, runs: int, flights: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
    seed: int | None = None, requested_by: Any = None, purpose: str = "balance",
) -> BattleBatch:  # fmt: skip
    """The same matchup flown ``runs`` times, battle i seeded ``batch_battle_seed(seed, i)``, fanned out as a group."""
    if not isinstance(runs, int) or not 1 <= runs <= MAX_BATCH_RUNS:
        raise RuleViolation(
            f"runs is a whole number from 1 to {MAX_BATCH_RUNS}", field="runs", code="range"
        )
    seed = secrets.randbits(40) if seed is None else seed
    settings, flights = settings or {}, flights or {}
    seeds = [batch_battle_seed(seed, i) for i in range(runs)]
    setups = [
        build_scenario(kind=scenario, flights=flights, settings=settings, seed=s).to_json()
        for s in seeds
    ]
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


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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

    runs = runs or django_settings.BATTLE_ODDS_RUNS
    battle = Battle.objects.get(pk=battle_id)
    settings = dict(battle.settings)
    settings.setdefault("policies", {"axis": DEFAULT_POLICY, "allied": DEFAULT_POLICY})
    return batch_create(
        scenario=battle.scenario, flights=battle.flights, settings=settings, runs=runs, seed=derive_seed(battle.seed, "odds preview"),
        requested_by=requested_by, purpose=f"odds:{battle.pk}",
    )  # fmt: skip

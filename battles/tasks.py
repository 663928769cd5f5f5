"""Celery tasks: thin wrappers around the battle services.

``run_battle`` is idempotent (the row's status and lease decide whether it
runs), acknowledges late, and has soft and hard time limits. ``apply_result``
hands a finished battle's result on, once, as its own step after the result
is committed. The sweep (beat, every 10 s) takes back battles whose worker
died, sends queued battles (the outbox) and lost apply steps. ``pass_deadlines``
(beat, every 5 s) lets the computer pilot decide where a person's time ran out.
"""

from celery import shared_task

from angels.history import history_task

from . import services


@shared_task(
    name="battles.run_battle",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=240,
    time_limit=300,
)
def run_battle(battle_id: int) -> bool:
    with history_task(f"task battles.run_battle: battle {battle_id}"):
        return services.battle_run(battle_id=battle_id)


@shared_task(
    name="battles.apply_result",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=60,
    time_limit=90,
)
def apply_result(battle_id: int) -> bool:
    with history_task(f"task battles.apply_result: battle {battle_id}"):
        return services.battle_apply(battle_id=battle_id)


@shared_task(name="battles.sweep", acks_late=True, soft_time_limit=60, time_limit=90)
def sweep_battles() -> dict[str, list[int]]:
    with history_task("task battles.sweep"):
        return services.battles_sweep()


@shared_task(name="battles.pass_deadlines", acks_late=True, soft_time_limit=60, time_limit=90)
def pass_deadlines() -> list[int]:
    """Battles flown by people whose decision's time ran out: the side's computer pilot
    decides (beat, every 5 s; idempotent: each battle under its row lock, only if its
    deadline is still the one that passed, see battles.play.deadline_pass)."""
    from . import play

    with history_task("task battles.pass_deadlines"):
        return play.deadlines_sweep()

"""Celery tasks: thin wrappers around the battle services.

``run_battle`` is idempotent (the row's status decides whether it runs),
acknowledges late, and has soft and hard time limits. The sweep re-dispatches
battles whose message was lost or whose worker died.
"""

from celery import shared_task

from . import services


@shared_task(
    name="battles.run_battle",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=240,
    time_limit=300,
)
def run_battle(battle_id: int) -> bool:
    return services.battle_run(battle_id=battle_id)


@shared_task(name="battles.sweep", acks_late=True, soft_time_limit=60, time_limit=90)
def sweep_battles() -> list[int]:
    return services.battles_sweep()

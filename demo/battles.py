"""A few battles flown by the computer pilots for the demo: one for each kind of start."""

from __future__ import annotations

from django.conf import settings

from angels.background import inline
from battles.models import Battle
from battles.services import battle_create, battle_run

DEMO_BATTLES = [
    ("dogfight", {}, 1940),
    ("schnellbomber", {}, 1941),
    (
        "standard",
        {
            "axis": [{"aircraft_type": "Bf 109E Ace"}, {"aircraft_type": "Bf 109E Wingman"}],
            "allied": [{"aircraft_type": "Spitfire Mk I Ace"}, {"aircraft_type": "Hurricane Mk I"}],
        },
        1942,
    ),
]


@inline()  # flown here, in order, not by the web process's background threads
def demo_battles_create(*, requested_by) -> int:
    """Fly the demo battles once (by seed); returns how many were created."""
    created = 0
    for scenario, flights, seed in DEMO_BATTLES:
        if Battle.objects.filter(scenario=scenario, seed=seed, source_key="demo").exists():
            continue
        battle = battle_create(scenario=scenario, flights=flights, seed=seed, requested_by=requested_by, source_key="demo",
                      settings={"policies": {"axis": "tactical", "allied": "tactical"}})  # fmt: skip
        if settings.CELERY_TASK_ALWAYS_EAGER:
            battle_run(battle_id=battle.pk)  # embedded mode: fly it now (the task is idempotent)
        created += 1
    return created

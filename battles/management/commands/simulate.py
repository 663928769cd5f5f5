"""Fly battles from the command line and print the summary.

    manage.py simulate dogfight --runs 200 --axis tactical --allied random
    manage.py simulate standard --runs 50 --flight axis="Bf 109E Ace,Bf 109E Wingman" \\
        --flight allied="Spitfire Mk I Ace,Hurricane Mk I"

In-process by default; ``--workers`` fans the runs out over Celery workers
(a broker must be configured: REDIS_URL) and waits for the batch.
"""

import json
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from angels.errors import RuleViolation
from battles import scenarios, services


class Command(BaseCommand):
    help = "Fly N seeded battles between two pilot policies and print win rates with 95% confidence intervals."

    def add_arguments(self, parser):
        parser.add_argument("scenario")
        parser.add_argument("--runs", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--axis", default="tactical", help="axis pilot policy")
        parser.add_argument("--allied", default="tactical", help="allied pilot policy")
        parser.add_argument(
            "--flight",
            action="append",
            default=[],
            help='side="Type A,Type B" (Standard / Bomber Escort)',
        )
        parser.add_argument(
            "--advanced", action="store_true", help="tailing, turn position and status rules on"
        )
        parser.add_argument(
            "--workers", action="store_true", help="fan out over Celery workers (needs a broker)"
        )

    def handle(
        self, *args, scenario, runs, seed, axis, allied, flight, advanced, workers, **options
    ):
        flights = {}
        for spec in flight:
            side, _, names = spec.partition("=")
            flights[side.strip()] = [
                {"aircraft_type": n.strip()} for n in names.split(",") if n.strip()
            ]
        settings = {"policies": {"axis": axis, "allied": allied}}
        if advanced:
            settings["rules"] = {"tailing": True, "turn_position": True, "status": True}
        try:
            summary = (
                self._by_workers(scenario, runs, seed, flights, settings)
                if workers
                else self._in_process(scenario, runs, seed, flights, settings)
            )
        except RuleViolation as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(summary, indent=2))
        for side in ("axis", "allied"):
            s = summary[side]
            low, high = s["win_rate_ci95"]
            self.stdout.write(
                f"{side}: {s['wins']}/{summary['battles']} wins ({s['win_rate']:.1%}, 95% CI {low:.1%}-{high:.1%})"
            )

    def _in_process(self, scenario, runs, seed, flights, settings):
        results = []
        start = time.perf_counter()
        for i in range(runs):
            setup = scenarios.build_scenario(
                kind=scenario,
                flights=flights,
                settings=settings,
                seed=services.batch_battle_seed(seed, i),
            )
            results.append(
                services.fly(
                    setup.to_json(), services.batch_battle_seed(seed, i), settings["policies"]
                )["result"]
            )
            self._progress(i + 1, runs, start)
        sys.stderr.write("\n")
        return services.batch_summary(results)

    def _by_workers(self, scenario, runs, seed, flights, settings):
        from django.conf import settings as django_settings

        if django_settings.CELERY_TASK_ALWAYS_EAGER:
            raise CommandError(
                "--workers needs a broker: set REDIS_URL and start workers (celery -A angels worker)"
            )
        batch = services.batch_create(
            scenario=scenario, runs=runs, flights=flights, settings=settings, seed=seed
        )
        start = time.perf_counter()
        while True:
            batch.refresh_from_db()
            done = batch.battles.filter(status__in=["finished", "failed"]).count()
            self._progress(done, runs, start)
            if batch.summary is not None:
                sys.stderr.write("\n")
                return batch.summary
            time.sleep(0.5)

    def _progress(self, done, total, start):
        width = 30
        filled = width * done // max(total, 1)
        rate = done / max(time.perf_counter() - start, 1e-9)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {rate:.1f} battles/s"
        )
        sys.stderr.flush()

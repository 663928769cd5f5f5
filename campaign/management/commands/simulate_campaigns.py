"""Play seeded card-game campaigns between commanders and print who wins.

    manage.py simulate_campaigns --runs 200 --axis computer --allied random --seed 1 --swap

Commanders: ``computer`` (rules.cardgame.commander.choose_action) or
``random`` (uniform over the legal actions). The games are the strategic card
game (003) with card engagements; no database is used.
"""

import time

from django.core.management.base import BaseCommand, CommandError

from rules.cardgame.commander import COMMANDERS
from rules.cardgame.simulate import simulate


class Command(BaseCommand):
    help = (
        "Play N seeded card-game campaigns between two commanders (computer/random) and "
        "print each side's and each commander's wins with 95% (Wilson) intervals."
    )

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--axis", default="computer", choices=sorted(COMMANDERS))
        parser.add_argument("--allied", default="random", choices=sorted(COMMANDERS))
        parser.add_argument(
            "--swap", action="store_true", help="the commanders change sides every second game"
        )

    def handle(self, *args, runs, seed, axis, allied, swap, **options):
        if runs < 1:
            raise CommandError("--runs must be at least 1")
        started = time.perf_counter()
        summary = simulate(runs, axis=axis, allied=allied, seed=seed, swap=swap)
        for line in summary.lines():
            self.stdout.write(line)
        self.stdout.write(f"time: {time.perf_counter() - started:.1f} s")

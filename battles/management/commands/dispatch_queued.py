"""``manage.py dispatch_queued [--loop SECONDS]``: send queued battles to the broker.

One pass of the sweep (battles.services.battles_sweep): queued battles (the
outbox, left there while the broker was down) are sent, battles of dead
workers taken back, lost apply steps resent. Beat runs the same sweep every
10 s; run this by hand after an outage, or with ``--loop`` beside beat where
the sweep must not wait behind a worker's queue.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from battles.services import battles_sweep


class Command(BaseCommand):
    help = "Send queued battles to the broker (and take back battles of dead workers)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--loop", type=float, default=0, help="repeat every this many seconds (0: once)"
        )

    def handle(self, *args: Any, loop: float = 0, **options: Any) -> None:
        while True:
            done = battles_sweep()
            self.stdout.write(
                f"sent {len(done['sent'])} queued, took back {len(done['reclaimed'])}, "
                f"resent {len(done['lost'])} lost, {len(done['apply'])} apply steps, "
                f"summarised {len(done['summarised'])} batches"
            )
            if loop <= 0:
                return
            time.sleep(loop)

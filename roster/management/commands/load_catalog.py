from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from angels.errors import RuleViolation
from roster.catalog import CATALOG_DIR, catalog_load


class Command(BaseCommand):
    help = (
        "Load the shipped aircraft catalog (idempotent; one transaction; a bad row loads nothing)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--directory",
            type=Path,
            default=CATALOG_DIR,
            help="Folder holding the catalog CSV files.",
        )
        parser.add_argument(
            "--reset",
            action="store_true",
            help="Restore shipped values on types an organiser has edited.",
        )

    def handle(self, *args, directory: Path, reset: bool, **options):
        try:
            report = catalog_load(directory=directory, reset=reset)
        except RuleViolation as exc:
            raise CommandError(f"Catalog not loaded, nothing changed: {exc}") from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Catalog: {len(report.created)} created, {len(report.updated)} restored, "
                f"{len(report.unchanged)} unchanged, {len(report.differing)} edited by organisers (kept)."
            )
        )
        for name in report.differing:
            self.stdout.write(
                f"  kept organiser edits: {name} (use --reset to restore shipped values)"
            )

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.exchange import ImportRefused, campaign_import
from campaign.exchange.imports import report_lines


class Command(BaseCommand):
    help = "Load a campaign exported by campaign_export (new ids; all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The exported JSON file.")

    def handle(self, *args, file: str, **options):
        try:
            document = json.loads(Path(file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{file}: cannot be read: {exc}") from exc
        except ValueError as exc:
            raise CommandError(
                f"{file}: not a campaign export: broken JSON ({exc}); nothing was loaded."
            ) from exc
        try:
            report = campaign_import(document)
        except ImportRefused as exc:
            raise CommandError(f"{file}: refused, nothing was loaded: {exc}") from exc
        for line in report_lines(report):
            self.stdout.write(line)

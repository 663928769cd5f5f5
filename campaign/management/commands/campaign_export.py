import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.exchange import campaign_export, dumps
from campaign.models import Campaign


class Command(BaseCommand):
    help = "Write a campaign (settings, roster, careers, game record, battles, history) as one JSON file."

    def add_arguments(self, parser):
        parser.add_argument("campaign", type=int, help="The campaign's id.")
        parser.add_argument("-o", "--output", required=True, help="File to write ('-': stdout).")

    def handle(self, *args, campaign: int, output: str, **options):
        found = Campaign.objects.filter(pk=campaign).first()
        if found is None:
            raise CommandError(f"No campaign #{campaign}.")
        text = dumps(campaign_export(found))
        if output == "-":
            self.stdout.write(text, ending="")
            return
        Path(output).write_text(text, encoding="utf-8")
        rows = sum(len(r) for r in json.loads(text)["tables"].values())
        self.stderr.write(f"Exported {found.name!r}: {rows} rows to {output}.")

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaign.exchange import ImportRefused, campaign_import
from campaign.exchange.imports import report_lines


class Command(BaseCommand):
    help = (
        "Load a campaign exported by campaign_export (new ids; all or nothing) for the user "
        "--organiser names: its organiser and only member; the file's people are listed, to invite."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The exported JSON file.")
        parser.add_argument(
            "--organiser",
            required=True,
            help="Username of this server's user who organises the imported campaign.",
        )
        parser.add_argument(
            "--mode",
            choices=("restore", "copy"),
            default="restore",
            help="restore (the default): the file's names, a name taken here refused; copy: "
            "each taken name (campaign, squadron, airframe serial) gets ' (copy)', ' (copy 2)'...",
        )
        parser.add_argument(
            "--preview",
            action="store_true",
            help="Check everything and print what would be created and renamed; store nothing.",
        )
        parser.add_argument(
            "--catalog",
            action="store_true",
            help="Add aircraft types this server's catalog lacks (else the file is refused).",
        )

    def handle(
        self,
        *args,
        file: str,
        organiser: str,
        catalog: bool = False,
        mode: str = "restore",
        preview: bool = False,
        **options,
    ):
        User = get_user_model()
        by = User.objects.filter(**{User.USERNAME_FIELD: organiser}, is_active=True).first()
        if by is None:
            raise CommandError(f"--organiser: no active user {organiser!r} here.")
        try:
            document = json.loads(Path(file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{file}: cannot be read: {exc}") from exc
        except ValueError as exc:
            raise CommandError(
                f"{file}: not a campaign export: broken JSON ({exc}); nothing was loaded."
            ) from exc
        try:
            report = campaign_import(document, by=by, catalog=catalog, mode=mode, preview=preview)
        except ImportRefused as exc:
            raise CommandError(f"{file}: refused, nothing was loaded: {exc}") from exc
        for line in report_lines(report):
            self.stdout.write(line)

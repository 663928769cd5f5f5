import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from angels.errors import RuleViolation
from campaign.models import Campaign
from demo.battles import demo_battles_create
from demo.campaign import demo_campaign_play
from demo.roster import demo_careers_create, demo_roster_create
from roster.catalog import catalog_load


class Command(BaseCommand):
    help = "Load the catalog, build the demo roster and make sure an organiser login exists (prints it)."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="organiser")
        parser.add_argument(
            "--password", default=None, help="Default: a new random password, printed."
        )

    def handle(self, *args, username: str, password: str | None, **options):
        try:
            catalog = catalog_load()
            report = demo_roster_create()
        except RuleViolation as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Catalog: {len(catalog.created)} aircraft types created, {len(catalog.unchanged)} already there."
        )
        verb = "created" if report.created else "already there"
        self.stdout.write(
            f"Demo roster {verb}: {report.squadrons} squadrons, {report.pilots} pilots, {report.airframes} airframes."
        )

        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=username, defaults={"is_staff": True, "is_superuser": True}
        )
        if created or password:
            password = password or secrets.token_urlsafe(9)
            user.set_password(password)
            user.is_staff = user.is_superuser = True
            user.save()
            self.stdout.write(self.style.SUCCESS(f"Organiser login: {username} / {password}"))
        else:
            self.stdout.write(
                f"Organiser login '{username}' already exists (pass --password to set a new one)."
            )
        try:
            careers = demo_careers_create(organiser=user)
        except RuleViolation as exc:
            raise CommandError(str(exc)) from exc
        verb = "created" if careers.created else "already there"
        self.stdout.write(
            f"Demo campaign {verb}: {careers.campaign}, {careers.battles} table battles with careers applied "
            "(see /aces/ and the squadron pages)."
        )

        campaign = Campaign.objects.get(name=careers.campaign)
        played = demo_campaign_play(campaign=campaign, organiser=user)
        campaign.refresh_from_db()
        if played:
            self.stdout.write(
                f"Demo campaign played forward {played} actions: turn {campaign.turn}, "
                f"{campaign.planes.count()} planes flown by roster pilots, engine and card engagements."
            )
        flown = demo_battles_create(requested_by=user)
        if flown:
            self.stdout.write(
                f"Demo battles flown by the computer pilots: {flown} (see /battles/)."
            )

from django.apps import AppConfig


class CareersConfig(AppConfig):
    name = "careers"
    verbose_name = "Careers"

    def ready(self) -> None:
        from . import tallies

        tallies.connect()  # a campaign's statistics kept as results apply (issue 17)

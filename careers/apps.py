from django.apps import AppConfig


class CareersConfig(AppConfig):
    name = "careers"
    verbose_name = "Careers"

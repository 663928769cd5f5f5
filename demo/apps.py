from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The cross-app demo (``manage.py demo``): the top layer, it may import every app."""

    name = "demo"
    verbose_name = "Demo"

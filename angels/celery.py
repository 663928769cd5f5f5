"""The Celery application.

Configured from Django settings (``CELERY_*``): JSON only, late
acknowledgement, one task prefetched at a time, time limits. Tasks are
dispatched with ``transaction.on_commit`` by the services that create work.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angels.settings.local")

app = Celery("angels")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="angels.ping")
def ping() -> str:
    """Answered by any live worker; used by /healthz."""
    return "pong"

"""The one listener of ``angels.events.campaign_event``: it records who is told and
never lets a fault of its own undo or break the sender's action."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from . import services

logger = logging.getLogger(__name__)


def on_campaign_event(sender: Any, **event: Any) -> None:
    fields: dict[str, Any] = {
        k: event.get(k) for k in ("campaign_id", "kind", "key", "text", "side")
    }
    try:
        with transaction.atomic():  # a savepoint: a fault here leaves the sender's work whole
            services.event_record(**fields, url=event.get("url") or "")
    except Exception:
        logger.exception("campaign event %s not recorded", event.get("key"))

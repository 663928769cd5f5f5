"""Campaign events that people are told about (issue 15: reminders and notifications).

Any app sends ``campaign_event`` when something happens that a player may want to hear
of; the notifications app listens and decides who is told and how (e-mail, the
campaign's webhook, the in-app list). Senders never wait on delivery.

``send_campaign_event(campaign_id=..., kind=..., key=..., text=..., side=..., url=...)``:

- ``kind``: one of ``KINDS``.
- ``key``: unique for this occurrence (e.g. ``"deadline_passed:campaign:4:turn3:strategy"``);
  a listener never tells anyone twice about the same key.
- ``side``: ``"axis"``/``"allied"`` when the event concerns one side's players, else ``None``
  (everyone in the campaign).
- ``text``: one plain sentence; ``url``: a path in the product to look at, or ``""``.

Sent inside the sender's transaction; listeners defer their work with
``transaction.on_commit``.
"""

from __future__ import annotations

from django.dispatch import Signal

MUST_ACT = "must_act"
DEADLINE_SOON = "deadline_soon"
DEADLINE_PASSED = "deadline_passed"
BATTLE_RESULT = "battle_result"
NEW_ACE = "new_ace"
PILOT_LOST = "pilot_lost"
CAMPAIGN_END = "campaign_end"
KINDS = (MUST_ACT, DEADLINE_SOON, DEADLINE_PASSED, BATTLE_RESULT, NEW_ACE, PILOT_LOST, CAMPAIGN_END)

campaign_event = Signal()


def send_campaign_event(
    *, campaign_id: int, kind: str, key: str, text: str, side: str | None = None, url: str = ""
) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown campaign event kind {kind!r}")
    campaign_event.send(
        sender=None, campaign_id=campaign_id, kind=kind, key=key, text=text, side=side, url=url
    )

"""What waits for a signed-in player (issue 24 §3, "your turn"): the home page's first
block and ``GET /api/me/waiting/``.

One list across campaigns and battles, soonest deadline first: campaigns where the
player's side must act (with the deadline), battles where the player's seat must decide
(with the deadline), battle seats offered to them and invitations sent to their e-mail
address that wait for an answer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from battles import play
from battles.models import Battle, BattleStatus
from campaign.models import CampaignMember, CampaignStatus, Role

from .models import Invitation

SIDE_WORDS = {"allied": "Allied", "axis": "Axis"}
OPEN_BATTLES = (BattleStatus.IN_PLAY, BattleStatus.DRAFT, BattleStatus.PENDING)


def _item(kind: str, title: str, what: str, url: str, due: datetime | None) -> dict[str, Any]:
    return {"kind": kind, "title": title, "what": what, "url": url, "due": due}


def _campaigns(user: Any) -> list[dict[str, Any]]:
    members = CampaignMember.objects.filter(
        user=user, role=Role.COMMANDER, campaign__status=CampaignStatus.ACTIVE
    ).select_related("campaign")
    out = []
    for m in members:
        campaign = m.campaign
        if (campaign.decision_side or campaign.current_side) != m.side:
            continue
        phase = campaign.phase.split(":")[0] or "the"
        out.append(
            _item(
                "campaign",
                campaign.name,
                f"Your {SIDE_WORDS.get(m.side, m.side)} side must act: turn {campaign.turn}, "
                f"{phase} phase.",
                reverse("campaign-detail", kwargs={"pk": campaign.pk}),
                campaign.decision_due_at,
            )
        )
    return out


def _battles(user: Any) -> list[dict[str, Any]]:
    seated = Q(settings__seats__allied__user=user.pk) | Q(settings__seats__axis__user=user.pk)
    out = []
    for battle in Battle.objects.filter(seated, status__in=OPEN_BATTLES).defer("log"):
        url = reverse("battle-play", kwargs={"pk": battle.pk})
        name = f"Battle {battle.pk}"
        offered = play.offered_sides(battle, user)
        if offered:
            sides = " and ".join(offered)
            out.append(_item("seat_offer", name, f"A seat is offered to you: the {sides} side. Accept or decline.", url, None))  # fmt: skip
            continue
        if battle.status != BattleStatus.IN_PLAY or play.waiting_for(battle):
            continue
        turn = play.turn_view(battle, user, since=10**9)
        if turn["your_turn"]:
            what = f"Your {turn['to_act']} side must decide (turn {turn['turn']})."
            out.append(_item("battle", name, what, url, battle.decision_due))
    return out


def _invitations(user: Any) -> list[dict[str, Any]]:
    """Invitations addressed to the user (answered on their invitations page) and those
    mailed to their address (answered by the mail's link)."""
    to_them = Q(addressee=user)
    if user.email:
        to_them |= Q(addressee__isnull=True, email__iexact=user.email)
    pending = Invitation.objects.filter(
        to_them,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).select_related("campaign")
    out = []
    for inv in pending:
        if inv.addressee_id:
            what = f"You are invited as {inv.part}: accept or decline."
            url = reverse("accounts:invitations-mine")
        else:
            what = f"You are invited as {inv.part}: open the link in the invitation mail to accept."
            url = reverse("campaign-detail", kwargs={"pk": inv.campaign_id})
        out.append(_item("invitation", inv.campaign.name, what, url, inv.expires_at))
    return out


def waiting_for_user(user: Any) -> list[dict[str, Any]]:
    """Everything waiting for ``user``, those with the soonest deadline first, then the rest."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    items = _campaigns(user) + _battles(user) + _invitations(user)
    return sorted(items, key=lambda i: (i["due"] is None, i["due"] or timezone.now()))

"""Mail sent in the background: the request that makes an invitation only queues it."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail


@shared_task(name="accounts.send_invitation", acks_late=True, soft_time_limit=60, time_limit=90)
def send_invitation(invitation_id: int, link: str) -> None:
    """Mail the link to the invited address (skipped if the invitation is gone or withdrawn)."""
    from .models import Invitation, InvitationStatus
    from .services import invitation_mail

    invitation = (
        Invitation.objects.select_related("campaign", "created_by").filter(pk=invitation_id).first()
    )
    if invitation is None or not invitation.email:
        return
    if invitation.status != InvitationStatus.PENDING:
        return
    subject, body = invitation_mail(invitation, link)
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [invitation.email])


@shared_task(name="accounts.send_mail", acks_late=True, soft_time_limit=60, time_limit=90)
def send_plain_mail(subject: str, body: str, to: list[str], html: str | None = None) -> None:
    """One mail (a password reset's): queued by the request, sent here."""
    from django.core.mail import EmailMultiAlternatives

    message = EmailMultiAlternatives(subject, body, settings.DEFAULT_FROM_EMAIL, to)
    if html:
        message.attach_alternative(html, "text/html")
    message.send()

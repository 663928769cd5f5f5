"""``{% unread_notifications as n %}``: the signed-in user's unread count, for the header badge."""

from django import template

from notifications.selectors import unread_count

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context: template.Context) -> int:
    request = context.get("request")
    return unread_count(getattr(request, "user", None))

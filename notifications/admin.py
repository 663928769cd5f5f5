"""Staff see what was told to whom and how each message went out (read-only records)."""

from django.contrib import admin

from .models import CampaignWebhook, Delivery, MailChoice, Notification, Preference


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "campaign", "kind", "text", "in_app", "read_at")
    list_filter = ("kind", "in_app", "for_digest")
    search_fields = ("user__username", "key", "text")
    readonly_fields = ("user", "campaign", "kind", "key", "text", "url", "created_at", "digest")


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "channel", "target", "kind", "status", "attempts", "last_error")
    list_filter = ("channel", "status", "kind")
    search_fields = ("target", "dedup")
    readonly_fields = [f.name for f in Delivery._meta.fields]


admin.site.register(Preference)
admin.site.register(MailChoice)
admin.site.register(CampaignWebhook)

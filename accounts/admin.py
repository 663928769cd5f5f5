from django.contrib import admin

from .models import Invitation, UserSettings


@admin.register(UserSettings)
class UserSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "time_zone")
    search_fields = ("user__username",)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Read-only: invitations are made and withdrawn by organisers on the campaign's page."""

    list_display = ("campaign", "role", "side", "email", "created_at", "expires_at", "status")
    list_filter = ("role", "side")
    readonly_fields = [f.name for f in Invitation._meta.fields]

    def has_add_permission(self, request):
        return False

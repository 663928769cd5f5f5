"""Notifications: e-mail, per-campaign webhook and the in-app list, for campaign events (issue 15)."""

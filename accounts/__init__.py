"""Accounts: sign-up, password reset, invitations to a campaign, each user's settings (issue 15)."""

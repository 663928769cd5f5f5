from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and invitations"

    def ready(self) -> None:
        # wrong passwords counted from the first request on (its user_login_failed receiver)
        from angels import signin_limits  # noqa: F401
